import { parseArgs } from 'node:util';
import { type AgreementAnalysis, agreementAnalysis, explainUndefinedAlpha } from '../../../common/agreement/agreementAnalysis';
import { agreementHtml } from '../../../common/agreement/agreementHtml';
import { ALPHA_LEVELS, type AlphaLevel, type AlphaResult, DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED } from '../../../common/agreement/krippendorff';
import { csvLabelSet, exportLabelSet, type LabelSet, mergeLabelSets, projectLabelSet, roomLabelSet } from '../../agreement/agreementSources';
import { DEFAULT_COUNTING, describeCounting, mergeCountingReports, type CountingRules } from '../../../common/agreement/countingRules';
import type { StepAgreement } from '../../../common/reasoning/stepAgreement';
import { projectStepAgreement } from '../../export/processRewardExport';
import { projectSessionSource } from '../../export/projectSessions';
import { writeFileAtomic } from '../../fs/atomicFile';
import { loadProjectConfig, type OpenProject } from '../../project/projectFolder';
import { ensureUserDemoProject } from '../../project/userDemoProject';
import { type CliCommand, printJson, UsageError, withUsageErrors } from '../cliSupport';
import { progressLine } from '../progressLine';

const MAX_RESAMPLES = 100_000;

const formatAlpha = (r: AlphaResult | null, ci: [number, number] | null): string => {
  if (r === null) return 'none (this input has one label per pair)';
  if (r.alpha === null) return `undefined — ${explainUndefinedAlpha(r)}`;
  return `${r.alpha.toFixed(3)}${ci ? `  95% [${ci[0].toFixed(3)}, ${ci[1].toFixed(3)}]` : ''}  (${r.pairable_units} ${r.pairable_units === 1 ? 'item' : 'items'} with two or more labels)`;
};

/** The `steps` object of `--json`: the reward scale −1 < 0 < +1 is ordered, so the level is always ordinal. */
function stepsReport(steps: StepAgreement): { level: 'ordinal'; annotators: string[]; per_position: StepAgreement['by_position']; overall: StepAgreement['all_steps'] } {
  return { level: 'ordinal', annotators: steps.annotators, per_position: steps.by_position, overall: steps.all_steps };
}

const formatStepAlpha = (r: AlphaResult): string => {
  if (r.alpha !== null) return `${r.alpha.toFixed(3)}  (${r.pairable_units} ${r.pairable_units === 1 ? 'step' : 'steps'} judged by two or more annotators)`;
  if (r.undefined_reason === 'no_variation') return 'undefined — not enough data: every judgment is the same, so agreement cannot be told from chance';
  return `undefined — not enough data: ${r.pairable_units === 0 ? 'no step is' : 'only one step is'} judged by two or more annotators`;
};

export function parseCount(value: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not "${value}"`);
  return Number(value);
}

/** Reads every input the options name; with none, the project's sessions (the demo copy without --project). */
export async function loadAgreementInputs(
  values: { project?: string; export?: string[]; csv?: string[]; room?: string[] },
  rules: CountingRules = DEFAULT_COUNTING,
  onBytes?: (read: number, total: number) => void,
  onSession?: (read: number, total: number) => void,
): Promise<{ project: OpenProject | null; sets: LabelSet[]; itemIds: string[] | undefined }> {
  const files = [...(values.export ?? []), ...(values.csv ?? []), ...(values.room ?? [])];
  const project = values.project !== undefined || files.length === 0 ? await loadProjectConfig(values.project ?? (await ensureUserDemoProject())) : null;
  const sets: LabelSet[] = [];
  let itemIds: string[] | undefined;
  if (project && files.length === 0) {
    const fromProject = await projectLabelSet(project, undefined, rules, onSession);
    sets.push(fromProject);
    itemIds = fromProject.itemIds;
  }
  for (const file of values.export ?? []) sets.push(await exportLabelSet(file, rules, onBytes));
  for (const file of values.csv ?? []) sets.push(await csvLabelSet(file));
  for (const file of values.room ?? []) sets.push(await roomLabelSet(file));
  return { project, sets, itemIds };
}

export const agreementCommand: CliCommand = {
  name: 'agreement',
  usage: [
    'agreement [--project DIR] [--export FILE…] [--csv FILE] [--room FILE] [--level nominal|ordinal|interval|ratio]',
    '                 [--bootstrap N] [--seed S] [--html FILE] [--json] [--include-incomplete] [--include-reviewers] [--include-rooms]',
    '  --project DIR   alone: every annotator session of the project; with files: the project only gives the label',
    '                  schema (order for ordinal, known labels). Without any input: your own copy of the demo.',
    '  --export FILE   an `aloud export` file (.jsonl, .json or .csv; schema v1, v2 or v3); repeatable',
    '  --csv FILE      a table with header item,annotator,label (one label per pair: alpha_blind is null)',
    '  --room FILE     a norming room log (rooms/<code>/events.jsonl): revealed items, blind vs current votes',
    '  --level         default: ordinal for an ordered schema, else nominal; interval and ratio need numeric labels',
    `  --bootstrap N   resamples for the 95% intervals (percentile bootstrap over items; default ${DEFAULT_BOOTSTRAP_RESAMPLES})`,
    `  --seed S        the bootstrap's seed (default ${DEFAULT_BOOTSTRAP_SEED}); the same seed gives the same intervals`,
    '  --html FILE     also write a self-contained report (opens offline)',
    '  --include-incomplete  count labels of items never completed (default: completed items only)',
    "  --include-reviewers   count a reviewer's label from their corrections as the annotator's (default: the annotator's own)",
    '  --include-rooms       count norming-room write-back sessions as annotators (default: left out)',
    '  --steps         also ordinal alpha on spoken/keyed step judgments (-1 < 0 < +1) of model reasoning, per step',
    '                  position and over all judged steps, from the project\'s sessions (not with input files)',
  ].join('\n'),
  async run(argv, io) {
    const { values, positionals } = withUsageErrors(() =>
      parseArgs({
        args: argv,
        strict: true,
        allowPositionals: true,
        options: {
          project: { type: 'string' },
          export: { type: 'string', multiple: true },
          csv: { type: 'string', multiple: true },
          room: { type: 'string', multiple: true },
          level: { type: 'string' },
          bootstrap: { type: 'string' },
          seed: { type: 'string' },
          html: { type: 'string' },
          json: { type: 'boolean', default: false },
          steps: { type: 'boolean', default: false },
          'include-incomplete': { type: 'boolean', default: false },
          'include-reviewers': { type: 'boolean', default: false },
          'include-rooms': { type: 'boolean', default: false },
        },
      }),
    );
    // `--export a.jsonl b.jsonl`: files after --export are export files too
    if (positionals.length > 0) {
      if (!values.export) throw new UsageError(`unexpected argument "${positionals[0]}" (input files follow --export, --csv or --room)`);
      values.export.push(...positionals);
    }
    if (values.level !== undefined && !(ALPHA_LEVELS as readonly string[]).includes(values.level)) {
      throw new UsageError(`--level must be one of ${ALPHA_LEVELS.join(', ')}, not "${values.level}"`);
    }
    const resamples = parseCount(values.bootstrap, '--bootstrap', DEFAULT_BOOTSTRAP_RESAMPLES, 1000, MAX_RESAMPLES);
    const seed = parseCount(values.seed, '--seed', DEFAULT_BOOTSTRAP_SEED, 0, 2 ** 32 - 1);
    // step judgments live only in session logs: exports, tables and room logs carry none to pair
    if (values.steps && (values.export || values.csv || values.room)) throw new UsageError('--steps reads the step judgments of the project\'s sessions: use it with --project DIR alone, not with --export, --csv or --room');
    let analysis: AgreementAnalysis;
    let sets: LabelSet[];
    let steps: StepAgreement | null = null;
    try {
      const rules: CountingRules = { includeIncomplete: values['include-incomplete'], includeReviewers: values['include-reviewers'], includeRooms: values['include-rooms'] };
      const progress = progressLine(io, 'aloud agreement', 'bytes');
      const sessionProgress = progressLine(io, 'aloud agreement', 'sessions');
      const inputs = await loadAgreementInputs(values, rules, progress.report, sessionProgress.report).finally(() => (progress.end(), sessionProgress.end()));
      sets = inputs.sets;
      const schema = inputs.project?.config.schema ?? null;
      const roomLabels = sets.find((s): s is LabelSet & { labels: string[] } => 'labels' in s)?.labels ?? null;
      const level = (values.level as AlphaLevel | undefined) ?? (schema?.ordered ? 'ordinal' : 'nominal');
      analysis = agreementAnalysis(mergeLabelSets(sets), {
        level,
        // a schema fixes the order and the known labels; a room fixes its labels; otherwise the labels seen
        categories: schema ? schema.labels.map((l) => l.name) : roomLabels,
        hasBlind: sets.some((s) => s.hasBlind),
        resamples,
        seed,
        ...(inputs.itemIds ? { itemIds: inputs.itemIds } : {}),
      });
      if (values.steps && inputs.project) steps = await projectStepAgreement(inputs.project, projectSessionSource);
    } catch (e) {
      if (e instanceof Error && e.message.startsWith('krippendorffAlpha:')) throw new UsageError(e.message.replace('krippendorffAlpha: ', ''));
      throw e;
    }
    for (const warning of sets.flatMap((s) => s.warnings)) io.err(`warning: ${warning}\n`);
    if (analysis.ignored_labels > 0) io.err(`warning: ${analysis.ignored_labels} label(s) are not in the label schema and count as missing\n`);
    const counted = sets.flatMap((s) => (s.counting ? [s.counting] : []));
    const counting = counted.length > 0 ? describeCounting(mergeCountingReports(counted)) : [];
    const scriptedItems = sets.reduce((n, s) => n + (s.scriptedItems ?? 0), 0);
    if (values.html) {
      await writeFileAtomic(values.html, agreementHtml(analysis, { title: 'Aloud agreement report', sources: sets.map((s) => s.source), generatedAt: new Date().toISOString(), counting, scriptedItems }));
    }
    if (values.json) {
      const countingJson = counted.length > 0 ? { ...mergeCountingReports(counted), said: counting } : null;
      printJson(io, { ...analysis, sources: sets.map((s) => s.source), counting: countingJson, scripted_items: scriptedItems, ...(steps ? { steps: stepsReport(steps) } : {}) });
      return 0;
    }
    for (const line of counting) io.out(`${line}\n`);
    if (scriptedItems > 0) io.out(`scripted data: ${scriptedItems} item(s) transcribed by a scripted engine, not whisper.cpp\n`);
    const a = analysis;
    io.out(`annotators: ${a.annotators.map((x) => x.annotator).join(', ') || '(none)'}\nitems: ${a.items}\nlevel: ${a.level}\n`);
    io.out(`alpha, first (blind) labels: ${formatAlpha(a.blind, a.ci95_blind)}\nalpha, final labels:         ${formatAlpha(a.final, a.ci95_final)}\n`);
    if (a.alpha_lift !== null) io.out(`lift (final − blind):        ${a.alpha_lift >= 0 ? '+' : ''}${a.alpha_lift.toFixed(3)}\n`);
    io.out(`disagreements: ${a.disagreements.length}${a.disagreements.length ? ` (${a.disagreements.slice(0, 10).map((d) => d.item_id).join(', ')}${a.disagreements.length > 10 ? ', …' : ''})` : ''}\n`);
    for (const x of a.annotators) io.out(`  ${x.annotator}: ${x.labels} labels, ${x.changes} changed, ${x.changes_toward_majority} toward the others' majority\n`);
    if (steps) {
      io.out(`step judgments (ordinal, -1 < 0 < +1), all judged steps: ${formatStepAlpha(steps.all_steps)}\n`);
      for (const p of steps.by_position) io.out(`  step ${p.index}: ${formatStepAlpha(p)}\n`);
      if (steps.by_position.length === 0) io.out('  no step of model reasoning has been judged yet\n');
    }
    if (values.html) io.out(`report: ${values.html}\n`);
    return 0;
  },
};
