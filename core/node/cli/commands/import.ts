import { InputError } from '../../../common/io/inputProblem';
import { importIntoProject, type ImportKind } from '../../importing/itemsImport';
import { importCodebook } from '../../codebook/codebookImport';
import { importCodings } from '../../coding/codingsImport';
import { inputLimitsFrom } from '../../importing/inputLimitsOption';
import { ItemsFileError } from '../../project/itemsFile';
import { loadProjectConfig } from '../../project/projectFolder';
import { type CliCommand, type CliIo, printJson, requireOption, UsageError, parseOptions, withUsageErrors } from '../cliSupport';

export const importCommand: CliCommand = {
  name: 'import',
  usage:
    'import --project DIR --items FILE [--kind items|conversations] [--replace [--force]] [--dry-run] [--max-file-bytes N] [--max-line-bytes N] [--json]\n' +
    '       aloud import --project DIR --codebook FILE.qdc|FILE.qdpx [--replace] [--dry-run] [--json]\n' +
    '       aloud import --project DIR --codings FILE.csv [--dry-run] [--json]\n\n' +
    'FILE is .jsonl, .json (an array) or .csv (header with id,text; other columns become metadata).\n' +
    'Default: append new ids; an id already in the project must come with identical content.\n' +
    '--replace: the file becomes the whole item list; removing or changing an item that has session data\n' +
    '  (audio, transcript or label of any annotator) is refused unless --force.\n' +
    '--kind conversations: one message per line (message_id, parent_id, role, text, session_id|message_tree_id);\n' +
    '  each assistant reply to an opening user message becomes an item; excluded replies go to imports/<time>-gaps.jsonl.\n' +
    '--json prints: messages, conversations, candidate_replies, included_pairs, gaps, distinct_user_contexts,\n' +
    '  words_all_messages, words_eligible_messages, words_pairs, source_sha256 and the items_* counts.\n' +
    '--codebook: the CodeBook of a REFI-QDA codebook (.qdc) or project (.qdpx) from ATLAS.ti, NVivo, MAXQDA, QualCoder\n' +
    '  becomes codebook.yaml beside aloud.yaml (nested codes as parent, descriptions as definitions); --replace replaces\n' +
    '  an existing one. --json prints codes, top_level, nested, depth, not_codable, without_definition, codebook_file.\n' +
    '--codings: codings made elsewhere, header item,annotator,unit,coder,code[,memo] (annotator: whose protocol; unit as\n' +
    '  `aloud session units` lists it), all or nothing: each row is checked (item, final transcript, unit, code of the\n' +
    "  codebook, coder, duplicates, one code per unit when exclusive) and logged as the coder's own coding events\n" +
    '  (code_applied with source "import", coding_memo), each protocol then finished by that coder.',
  async run(argv, io) {
    const { values } = parseOptions(argv, {
      project: 'string',
      items: 'string',
      codebook: 'string',
      codings: 'string',
      kind: { default: 'items' },
      replace: false,
      force: false,
      'dry-run': false,
      'max-file-bytes': 'string',
      'max-line-bytes': 'string',
      json: false,
    });
    const dir = requireOption(values.project, '--project');
    if (values.codings !== undefined) {
      if (values.items !== undefined || values.codebook !== undefined)
        throw new UsageError('--codings, --codebook and --items are separate imports: give one');
      if (values.replace || values.force)
        throw new UsageError("--replace and --force do not apply to --codings (codings are added to the coders' logs, never replaced)");
      return runCodingsImport(dir, values.codings, { dryRun: values['dry-run'], json: values.json }, io);
    }
    if (values.codebook !== undefined) {
      if (values.items !== undefined) throw new UsageError('--codebook and --items are separate imports: give one');
      if (values.force) throw new UsageError('--force only applies to --items with --replace');
      return runCodebookImport(dir, values.codebook, { replace: values.replace, dryRun: values['dry-run'], json: values.json }, io);
    }
    const source = requireOption(values.items, '--items');
    if (values.kind !== 'items' && values.kind !== 'conversations')
      throw new UsageError(`--kind must be items or conversations (got "${values.kind}")`);
    if (values.force && !values.replace) throw new UsageError('--force only applies with --replace');
    const limits = withUsageErrors(() => inputLimitsFrom(values));
    try {
      const project = await loadProjectConfig(dir);
      const summary = await importIntoProject({
        project,
        source,
        kind: values.kind as ImportKind,
        mode: values.replace ? 'replace' : 'append',
        force: values.force,
        dryRun: values['dry-run'],
        limits,
      });
      if (values.json) printJson(io, summary);
      else {
        const dry = summary.dry_run ? 'Dry run, nothing written: ' : '';
        const gaps =
          summary.kind === 'conversations'
            ? `; ${summary.gaps.length} replies excluded${summary.gap_register ? ` (gap register: ${summary.gap_register})` : ''}`
            : '';
        io.out(
          `${dry}${summary.included_pairs.length} items read from ${summary.source}: ${summary.items_added} added, ${summary.items_unchanged} unchanged, ${summary.items_changed.length} changed, ${summary.items_removed.length} removed; ${summary.items_total} items in ${summary.items_file}${gaps}\n`,
        );
      }
      return 0;
    } catch (e) {
      if (e instanceof InputError || e instanceof ItemsFileError) {
        // a rejected source, or a project items file that no longer passes the strict stages
        if (values.json) printJson(io, { problems: e.problems });
      }
      throw e;
    }
  },
};

async function runCodebookImport(
  dir: string,
  source: string,
  options: { replace: boolean; dryRun: boolean; json: boolean },
  io: CliIo,
): Promise<number> {
  try {
    const project = await loadProjectConfig(dir);
    const summary = await importCodebook({ project, source, replace: options.replace, dryRun: options.dryRun });
    if (options.json) printJson(io, summary);
    else {
      const dry = summary.dry_run ? 'Dry run, nothing written: ' : '';
      const empty =
        summary.without_definition.length > 0
          ? `; ${summary.without_definition.length} without a description (empty definition: write one in ${summary.codebook_file})`
          : '';
      io.out(
        `${dry}${summary.codes} codes read from ${summary.source} (${summary.top_level} top-level, ${summary.nested} nested, ${summary.depth} level${summary.depth === 1 ? '' : 's'})${empty}; codebook ${summary.codebook_file}, version ${summary.codebook_version}${summary.source_codebook_version === null ? '' : summary.source_codebook_version === summary.codebook_version ? ' (as exported)' : ` (exported as version ${summary.source_codebook_version}: the codes were edited since, so earlier coding acts count as made under another version)`}\n`,
      );
    }
    return 0;
  } catch (e) {
    if (e instanceof InputError && options.json) printJson(io, { problems: e.problems });
    throw e;
  }
}

async function runCodingsImport(dir: string, source: string, options: { dryRun: boolean; json: boolean }, io: CliIo): Promise<number> {
  try {
    const project = await loadProjectConfig(dir);
    const summary = await importCodings({ project, source, dryRun: options.dryRun });
    if (options.json) printJson(io, summary);
    else {
      const dry = summary.dry_run ? 'Dry run, nothing written: ' : '';
      io.out(
        `${dry}${summary.rows} codings read from ${summary.source}: ${summary.coders.map((c) => `${c.coder} ${c.codings} on ${c.protocols} protocol${c.protocols === 1 ? '' : 's'}${c.new_session ? ' (new session)' : ''}`).join(', ')}; codebook version ${summary.codebook_version}\n`,
      );
    }
    return 0;
  } catch (e) {
    if (e instanceof InputError && options.json) printJson(io, { problems: e.problems });
    throw e;
  }
}
