import { EXPORT_FORMATS } from '../../../common/export/exportFormats';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../../../common/export/transcriptFormats';
import { InputError } from '../../../common/io/inputProblem';
import { exportInFormat, exportTargetKind, type SessionsExportFormat } from '../../export/exportInFormat';
import { exportProcessReward } from '../../export/processRewardExport';
import { checkExportTarget } from '../../exportFiles/exportTarget';
import { projectSessionSource } from '../../session/projectSessions';
import type { SessionSource } from '../../session/sessionSource';
import { exportTranscripts } from '../../export/transcriptExport';
import { INTEROP_FORMATS, isInteropFormat } from '../../../common/export/interop/interopFormats';
import { loadProjectConfig } from '../../project/projectFolder';
import { exportQdc } from '../../coding/codebookExport';
import { exportGold } from '../../adjudication/goldExport';
import { LABEL_MODELS, type LabelModelName } from '../../../common/labelModels/labelModel';
import { loadDeidentifyList } from '../../deidentify/deidentifyProject';
import { type CliCommand, type CliIo, printJson, requireOption, UsageError, parseOptions } from '../cliSupport';
import { progressLine } from '../progressLine';
import { pipelineSummary, problemsSummary } from '../../../common/export/pipelineSummary';

/** Lists a summary shows (their first 20, with their count): warnings, and session states of items the project dropped. */
const SHORT_LISTS: ReadonlySet<string> = new Set(['warnings', 'skipped_states']);

/** The export command over any session source (tests pass fixed states; the CLI reads the project's sessions). */
export function makeExportCommand(sessions: SessionSource): CliCommand {
  return {
    name: 'export',
    usage:
      'export --project DIR [--annotator NAME] --format jsonl|json|csv --out FILE [--with-items] [--force] [--deidentify] [--json [--full]]\n       aloud export --project DIR [--annotator NAME] --format txt|srt|vtt --out DIR [--deidentify] [--json [--full]]\n' +
      '       aloud export --project DIR [--annotator NAME] --format process-reward --out FILE.jsonl [--force] [--json [--full]]\n' +
      '       aloud export --project DIR [--annotator NAME] --format eaf|textgrid|qdpx|hf|maxqda --out DIR [--force] [--deidentify] [--json [--full]]\n' +
      '       aloud export --project DIR --format qdc --out FILE.qdc [--force] [--json [--full]]\n' +
      '       aloud export --project DIR --gold [--gold-model majority|dawid-skene|mace|difficulty] --format jsonl|json|csv --out FILE [--force] [--json [--full]]\n\n' +
      '--gold: one record per project item: gold_label, gold_source (unanimous, majority, adjudicated, model, unresolved), the\n' +
      "annotators' final and blind labels, and the decision that stands (aloud adjudicate); schema in core/common/adjudication/goldRecord.ts.\n" +
      "--gold-model: items nobody agreed on or adjudicated take the label model's label (gold_source model, label_model {model,\n" +
      'probability, ci95}: its posterior with a bootstrap interval, as `aloud gold` reports); items nobody labelled stay unresolved.\n' +
      'Records: one per annotator and project item, schema core/common/export/exportRecord.v4.schema.json (offsets in code points); every record is\n' +
      'validated first, the file is written atomically, then FILE.receipt.json (counts, gaps, sha256). One invalid record:\n' +
      'exit 1, nothing written. --with-items (csv): the item text, context and further fields in columns of their own. Transcripts: DIR/<annotator>/<item>.<format> and DIR/transcripts.receipt.json.\n' +
      'eaf (ELAN), textgrid (Praat), maxqda (MAXQDA/NVivo transcripts): DIR/<annotator>/<item>.<ext> beside a copy of its WAV;\n' +
      'qdpx (REFI-QDA project for ATLAS.ti, NVivo, MAXQDA, QualCoder): DIR/<project>.qdpx; hf (Hugging Face audiofolder):\n' +
      'DIR/audio/, metadata.jsonl, parquet/records.parquet, README.md. Made and checked (XSDs included) a batch of recordings at a\n' +
      'time into a hidden folder in DIR, moved into place only when all pass, then DIR/<format>.receipt.json with the sha256 of\n' +
      'every file; a refusal leaves DIR as it was. Files in DIR that no earlier export wrote: refused without --force.\n' +
      'A CSV export of coded protocols also writes FILE.units.csv (one row per unit, its codes by coder) and its receipt.\n' +
      "qdc: the project's codebook.yaml as a REFI-QDA codebook (.qdc) for QDA tools, checked against the REFI-QDA schema.\n" +
      '--deidentify (every format but process-reward): what deidentify.yaml lists and the built-in patterns become\n' +
      'placeholders ([PERSON-1]) in every text field, their audio is silenced (or toned) in copies of the recordings, and the\n' +
      'receipt states it (list version, spans per class, hidden sample ranges); records exports put the copies in FILE.audio/.\n' +
      '--json prints a summary for a pipeline, a few hundred bytes at any study size: paths, counts, and each list as its\n' +
      'count (gaps_count, gaps_by_reason, files_count, annotators_count, …; warnings: the first 20 and warnings_count); a refused\n' +
      'export: problems_count, problems_by_stage, first_problems (the first 20). The whole receipt is in its file;\n' +
      '--json --full prints the whole result (every gap, file and problem), as before.',
    async run(argv: string[], io: CliIo) {
      const { values } = parseOptions(argv, {
        project: 'string',
        annotator: 'string',
        format: 'string',
        out: 'string',
        json: false,
        full: false,
        force: false,
        'with-items': false,
        deidentify: false,
        gold: false,
        'gold-model': 'string',
      });
      if (values.full && !values.json) throw new UsageError('--full prints the whole result with --json (add --json)');
      // a pipeline reads counts and paths; the whole receipt is in its file (--full prints it too)
      const printResult = (result: unknown): void => printJson(io, values.full ? result : pipelineSummary(result, SHORT_LISTS));
      // a refused export's problems: how many, by stage, the first 20 (--full: every one)
      const printProblems = (problems: InputError['problems']): void =>
        printJson(io, values.full ? { problems } : problemsSummary(problems));
      const dir = requireOption(values.project, '--project');
      const format = requireOption(values.format, '--format');
      const out = requireOption(values.out, '--out');
      if (values['gold-model'] !== undefined && !values.gold) throw new UsageError('--gold-model goes with --gold');
      if (values.gold) {
        const goldModel = values['gold-model'] ?? null;
        if (goldModel !== null && !(LABEL_MODELS as readonly string[]).includes(goldModel))
          throw new UsageError(`--gold-model must be one of ${LABEL_MODELS.join(', ')} (got "${goldModel}")`);
        if (format !== 'jsonl' && format !== 'json' && format !== 'csv')
          throw new UsageError(`--gold: --format must be jsonl, json or csv (got "${format}")`);
        if (values.annotator !== undefined || values.deidentify || values['with-items'])
          throw new UsageError('--gold takes no --annotator, --deidentify or --with-items: it is one record per item of the whole project');
        try {
          const result = await exportGold({
            project: await loadProjectConfig(dir),
            format,
            out,
            force: values.force,
            sessions,
            goldModel: goldModel as LabelModelName | null,
          });
          for (const warning of result.warnings) io.err(`aloud export: warning: ${warning}\n`);
          const c = result.receipt.counts;
          if (values.json) printResult(result);
          else
            io.out(
              `Exported ${result.receipt.records} gold records (${c.unanimous} unanimous, ${c.majority} majority, ${c.adjudicated} adjudicated, ${c.model} model, ${c.unresolved} unresolved) to ${out}; receipt ${result.receipt_file}\n`,
            );
          return 0;
        } catch (e) {
          if (!(e instanceof InputError)) throw e;
          if (values.json) printProblems(e.problems);
          io.err(`aloud export: nothing written: ${e.message}\n`);
          return 1;
        }
      }
      if (format === 'qdc') {
        if (values.annotator !== undefined)
          throw new UsageError("--annotator does not apply to --format qdc (the codebook is the project's)");
        const result = await exportQdc({ project: await loadProjectConfig(dir), out, force: values.force });
        if (values.json) printResult(result);
        else io.out(`Exported the codebook (${result.codes} codes, version ${result.codebook_version}) to ${out}\n`);
        return 0;
      }
      const isProcessReward = format === 'process-reward';
      const isTranscripts = (TRANSCRIPT_FORMATS as readonly string[]).includes(format);
      if (!isProcessReward && !isTranscripts && !isInteropFormat(format) && !(EXPORT_FORMATS as readonly string[]).includes(format)) {
        throw new UsageError(
          `--format must be one of ${[...EXPORT_FORMATS, ...TRANSCRIPT_FORMATS, 'process-reward', ...INTEROP_FORMATS, 'qdc'].join(', ')} (got "${format}")`,
        );
      }
      if (values.deidentify && isProcessReward)
        throw new UsageError('--deidentify: process-reward exports hold no transcript text or audio; export them without it');
      try {
        const project = await loadProjectConfig(dir);
        const list = await loadDeidentifyList(project);
        if (!values.deidentify && list)
          io.err(
            `aloud export: note: this export is NOT de-identified, although the project has ${list.file} (add --deidentify to hide what it lists)\n`,
          );
        const deidentify = values.deidentify ? { deidentify: true } : {};
        const annotator = values.annotator === undefined ? {} : { annotator: values.annotator };
        if (isTranscripts) {
          await checkExportTarget(project, out, 'folder', { force: values.force });
          const receipt = await exportTranscripts({
            project,
            format: format as TranscriptFormat,
            outDir: out,
            sessions,
            ...annotator,
            ...deidentify,
          });
          if (values.json) printResult({ out, receipt });
          else
            io.out(
              `Wrote ${receipt.files.length} ${format} transcripts to ${out} (${receipt.gaps.length} items without transcript); receipt transcripts.receipt.json\n`,
            );
          return 0;
        }
        if (isProcessReward) {
          await checkExportTarget(project, out, 'file', { force: values.force });
          // one record per annotator per item with model reasoning: {instance_id, annotator, mode, steps: [{index, reward}]}
          const result = await exportProcessReward({ project, out, sessions, force: values.force, ...annotator });
          for (const warning of result.warnings) io.err(`aloud export: warning: ${warning}\n`);
          if (values.json) printResult(result);
          else
            io.out(
              `Exported ${result.receipt.records} process-reward records (${result.receipt.counts.judged_records} with judged steps) to ${result.file}; receipt ${result.receipt_file}\n`,
            );
          return 0;
        }
        const sessionsFormat = format as SessionsExportFormat;
        await checkExportTarget(project, out, exportTargetKind(sessionsFormat), { force: values.force });
        if (values['with-items'] && format !== 'csv' && !isInteropFormat(format))
          throw new UsageError('--with-items adds columns to a csv export (jsonl and json records carry the item hashes)');
        const progress = isInteropFormat(format) ? null : progressLine(io, 'aloud export', 'records');
        const exported = await exportInFormat({
          project,
          format: sessionsFormat,
          out,
          sessions,
          force: values.force,
          ...(progress ? { withItems: values['with-items'], onProgress: ({ done, total }) => progress.report(done, total) } : {}),
          ...annotator,
          ...deidentify,
        }).finally(() => progress?.end());
        for (const warning of exported.result.warnings) io.err(`aloud export: warning: ${warning}\n`);
        if (values.json) printResult(exported.result);
        else if (exported.folder) io.out(`Exported ${exported.result.summary} to ${out}; receipt ${exported.result.receipt_file}\n`);
        else {
          const { result } = exported;
          const { receipt } = result;
          io.out(
            `Exported ${result.summary} (${receipt.counts.annotators} annotator${receipt.counts.annotators === 1 ? '' : 's'}, ${receipt.counts.items} item${receipt.counts.items === 1 ? '' : 's'}) to ${result.file}; receipt ${result.receipt_file}${result.units_file ? `; units ${result.units_file}` : ''}\n`,
          );
        }
        return 0;
      } catch (e) {
        if (e instanceof InputError) {
          // session data that would make an invalid record: the export refuses as a whole and writes nothing
          if (values.json) printProblems(e.problems);
          io.err(`aloud export: nothing written: ${e.message}\n`);
          return 1;
        }
        throw e;
      }
    },
  };
}

export const exportCommand: CliCommand = makeExportCommand(projectSessionSource);
