import { INTERFACE_LOCALES, isInterfaceLocale, type InterfaceLocale } from '../../../common/i18n/interfaceLocale';
import { reportWords } from '../../../common/agreement/reportWords';
import { type AgreementAnalysis, agreementAnalysis, explainUndefinedAlpha } from '../../../common/agreement/agreementAnalysis';
import { agreementHtml } from '../../../common/agreement/agreementHtml';
import {
  ALPHA_LEVELS,
  type AlphaLevel,
  type AlphaResult,
  DEFAULT_BOOTSTRAP_RESAMPLES,
  DEFAULT_BOOTSTRAP_SEED,
} from '../../../common/agreement/krippendorff';
import { csvLabelSet, exportLabelSet, type LabelSet, mergeLabelSets, projectLabelSet } from '../../agreement/agreementSources';
import { roomLabelSet } from '../../rooms/roomLabelSet';
import { DEFAULT_COUNTING, describeCounting, mergeCountingReports, type CountingRules } from '../../../common/agreement/countingRules';
import type { StepAgreement } from '../../../common/reasoning/stepAgreement';
import { projectStepAgreement } from '../../export/processRewardExport';
import { projectSessionSource } from '../../session/projectSessions';
import { projectCodeAgreement } from '../../coding/projectCoding';
import { basisNote, codeAgreementHtml } from '../../../common/coding/codeAgreementHtml';
import { writeFileAtomic } from '../../fs/atomicFile';
import { loadProjectConfig, type OpenProject } from '../../project/projectFolder';
import { ensureUserDemoProject } from '../../project/userDemoProject';
import { type CliCommand, printJson, UsageError, parseOptions } from '../cliSupport';
import { progressLine } from '../progressLine';
import { describeHesitationOverturns, goldAgreement, type GoldAgreementReport } from '../../../common/adjudication/goldAgreement';
import { goldAgreementHtml } from '../../../common/adjudication/goldAgreementHtml';
import { readAdjudication } from '../../adjudication/projectAdjudication';
import { pairKey, projectHesitation } from '../../agreement/hesitationSources';
import { formatDuration, timeOnItemReport, type TimeOnItemReport } from '../../../common/agreement/timeOnItem';
import { timeOnItemHtml } from '../../../common/agreement/timeOnItemHtml';

const MAX_RESAMPLES = 100_000;

const formatAlpha = (r: AlphaResult | null, ci: [number, number] | null): string => {
  if (r === null) return 'none (this input has one label per pair)';
  if (r.alpha === null) return `undefined — ${explainUndefinedAlpha(r)}`;
  return `${r.alpha.toFixed(3)}${ci ? `  95% [${ci[0].toFixed(3)}, ${ci[1].toFixed(3)}]` : ''}  (${r.pairable_units} ${r.pairable_units === 1 ? 'item' : 'items'} with two or more labels)`;
};

/** The `steps` object of `--json`: the reward scale −1 < 0 < +1 is ordered, so the level is always ordinal. */
function stepsReport(steps: StepAgreement): {
  level: 'ordinal';
  annotators: string[];
  per_position: StepAgreement['by_position'];
  overall: StepAgreement['all_steps'];
} {
  return { level: 'ordinal', annotators: steps.annotators, per_position: steps.by_position, overall: steps.all_steps };
}

const formatStepAlpha = (r: AlphaResult): string => {
  if (r.alpha !== null)
    return `${r.alpha.toFixed(3)}  (${r.pairable_units} ${r.pairable_units === 1 ? 'step' : 'steps'} judged by two or more annotators)`;
  if (r.undefined_reason === 'no_variation')
    return 'undefined — not enough data: every judgment is the same, so agreement cannot be told from chance';
  return `undefined — not enough data: ${r.pairable_units === 0 ? 'no step is' : 'only one step is'} judged by two or more annotators`;
};

/** What `--codes` adds to `--json`: `codes` (per code), `overall` when the codebook is exclusive, and `coding` (the rest). */
function codesReport(report: Awaited<ReturnType<typeof projectCodeAgreement>>): Record<string, unknown> {
  const { codes, overall, warnings: _warnings, ...coding } = report;
  return { codes, ...(overall ? { overall } : {}), coding };
}

export function parseCount(value: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not "${value}"`);
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
  const project =
    values.project !== undefined || files.length === 0 ? await loadProjectConfig(values.project ?? (await ensureUserDemoProject())) : null;
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
    '                 [--bootstrap N] [--seed S] [--html FILE [--lang en|de]] [--steps] [--codes] [--json] [--include-incomplete] [--include-reviewers] [--include-rooms]',
    '  --project DIR   alone: every annotator session of the project; with files: the project only gives the label',
    '                  schema (order for ordinal, known labels). Without any input: your own copy of the demo.',
    '  --export FILE   an `aloud export` file (.jsonl, .json or .csv; schema v1, v2 or v3); repeatable',
    '  --csv FILE      a table with header item,annotator,label (one label per pair: alpha_blind is null)',
    '  --room FILE     a norming room log (rooms/<code>/events.jsonl): revealed items, blind vs current votes',
    '  --level         default: ordinal for an ordered schema, else nominal; interval and ratio need numeric labels',
    `  --bootstrap N   resamples for the 95% intervals (percentile bootstrap over items; default ${DEFAULT_BOOTSTRAP_RESAMPLES})`,
    `  --seed S        the bootstrap's seed (default ${DEFAULT_BOOTSTRAP_SEED}); the same seed gives the same intervals`,
    '  --html FILE     also write a self-contained report (opens offline)',
    '  --lang en|de    the language of the --html report (default en; the output here stays English)',
    '  --include-incomplete  count labels of items never completed (default: completed items only)',
    "  --include-reviewers   count a reviewer's label from their corrections as the annotator's (default: the annotator's own)",
    '  --include-rooms       count norming-room write-back sessions as annotators (default: left out)',
    '  --steps         also ordinal alpha on spoken/keyed step judgments (-1 < 0 < +1) of model reasoning, per step',
    "                  position and over all judged steps, from the project's sessions (not with input files)",
    "  --codes         also agreement on the codes of the codebook (from the project's sessions): per code, alpha on presence/",
    '                  absence per unit over the coders who finished the item (nominal, binary) with the bootstrap interval',
    "                  (with coding.blind: on the codes each coder gave before the others' were shown to them);",
    '                  overall alpha when codebook.yaml is exclusive; the units the coders disagree on most; codes beside the',
    '                  labels (final and blind) and by hesitation. --json gains codes [{code, alpha, ci95, pairable_units,',
    '                  undefined_reason, ...}], overall (exclusive codebooks) and coding (the rest).',
  ].join('\n'),
  async run(argv, io) {
    const { values, positionals } = parseOptions(
      argv,
      {
        project: 'string',
        export: 'strings',
        csv: 'strings',
        room: 'strings',
        level: 'string',
        bootstrap: 'string',
        seed: 'string',
        html: 'string',
        lang: 'string',
        json: false,
        steps: false,
        codes: false,
        'include-incomplete': false,
        'include-reviewers': false,
        'include-rooms': false,
      },
      { positionals: true },
    );
    // `--export a.jsonl b.jsonl`: files after --export are export files too
    if (positionals.length > 0) {
      if (!values.export) throw new UsageError(`unexpected argument "${positionals[0]}" (input files follow --export, --csv or --room)`);
      values.export.push(...positionals);
    }
    if (values.lang !== undefined && !isInterfaceLocale(values.lang))
      throw new UsageError(`--lang must be one of ${INTERFACE_LOCALES.join(', ')}, not "${values.lang}"`);
    if (values.lang !== undefined && !values.html)
      throw new UsageError('--lang is the language of the --html report: give --html FILE too');
    const reportLanguage: InterfaceLocale = isInterfaceLocale(values.lang) ? values.lang : 'en';
    if (values.level !== undefined && !(ALPHA_LEVELS as readonly string[]).includes(values.level)) {
      throw new UsageError(`--level must be one of ${ALPHA_LEVELS.join(', ')}, not "${values.level}"`);
    }
    const resamples = parseCount(values.bootstrap, '--bootstrap', DEFAULT_BOOTSTRAP_RESAMPLES, 1000, MAX_RESAMPLES);
    const seed = parseCount(values.seed, '--seed', DEFAULT_BOOTSTRAP_SEED, 0, 2 ** 32 - 1);
    // step judgments live only in session logs: exports, tables and room logs carry none to pair
    if (values.steps && (values.export || values.csv || values.room))
      throw new UsageError(
        "--steps reads the step judgments of the project's sessions: use it with --project DIR alone, not with --export, --csv or --room",
      );
    // codings live only in the coders' session logs
    if (values.codes && (values.export || values.csv || values.room))
      throw new UsageError(
        "--codes reads the codings in the project's sessions: use it with --project DIR alone, not with --export, --csv or --room",
      );
    let analysis: AgreementAnalysis;
    let sets: LabelSet[];
    let steps: StepAgreement | null = null;
    let codes: Awaited<ReturnType<typeof projectCodeAgreement>> | null = null;
    let gold: GoldAgreementReport | null = null;
    let timeOnItem: TimeOnItemReport | null = null;
    try {
      const rules: CountingRules = {
        includeIncomplete: values['include-incomplete'],
        includeReviewers: values['include-reviewers'],
        includeRooms: values['include-rooms'],
      };
      const progress = progressLine(io, 'aloud agreement', 'bytes');
      const sessionProgress = progressLine(io, 'aloud agreement', 'sessions');
      const inputs = await loadAgreementInputs(values, rules, progress.report, sessionProgress.report).finally(
        () => (progress.end(), sessionProgress.end()),
      );
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
      // time on item is in the sessions' logs: read with the project's sessions as the input
      const times = sets.flatMap((s) => s.timeOnItem ?? []);
      if (inputs.project && inputs.itemIds)
        timeOnItem = timeOnItemReport(
          times,
          analysis.annotators.map((a) => a.annotator),
          inputs.itemIds,
          inputs.project.config.time_on_item.idle_gap_seconds * 1000,
        );
      if (values.steps && inputs.project) steps = await projectStepAgreement(inputs.project, projectSessionSource);
      if (values.codes && inputs.project) codes = await projectCodeAgreement(inputs.project, projectSessionSource, { resamples, seed });
      // the gold labels are the project's (its sessions and adjudication logs): only when the project's sessions are the input
      if (inputs.project && inputs.itemIds && !values['include-incomplete'] && !values['include-reviewers'] && !values['include-rooms']) {
        const read = await readAdjudication(inputs.project);
        // a project nobody adjudicates keeps its report as it was
        if (read.state.adjudicators.length > 0) {
          // the protocols' hesitation measures say which overturned labels were hesitant ones
          const measures = await projectHesitation(inputs.project);
          gold = goldAgreement(
            read.queue,
            inputs.project.config.schema.labels.map((l) => l.name),
            level,
            resamples,
            seed,
            (itemId, annotator) => measures.get(pairKey(itemId, annotator)) ?? null,
          );
        }
      }
    } catch (e) {
      if (e instanceof Error && e.message.startsWith('krippendorffAlpha:'))
        throw new UsageError(e.message.replace('krippendorffAlpha: ', ''));
      throw e;
    }
    // the labels and the codes read the same sessions: a warning about a session is said once
    for (const warning of new Set([...sets.flatMap((s) => s.warnings), ...(codes?.warnings ?? [])])) io.err(`warning: ${warning}\n`);
    if (analysis.ignored_labels > 0)
      io.err(`warning: ${analysis.ignored_labels} label(s) are not in the label schema and count as missing\n`);
    const counted = sets.flatMap((s) => (s.counting ? [s.counting] : []));
    const counting = counted.length > 0 ? describeCounting(mergeCountingReports(counted)) : [];
    const scriptedItems = sets.reduce((n, s) => n + (s.scriptedItems ?? 0), 0);
    if (values.html) {
      const words = reportWords(reportLanguage);
      await writeFileAtomic(
        values.html,
        agreementHtml(
          analysis,
          {
            title: words('report.agreement.title'),
            sources: sets.map((s) => s.source),
            generatedAt: new Date().toISOString(),
            counting: counted.length > 0 ? describeCounting(mergeCountingReports(counted), words) : [],
            scriptedItems,
            ...(codes || gold || timeOnItem
              ? {
                  sections:
                    (timeOnItem ? timeOnItemHtml(timeOnItem, words) : '') +
                    (codes ? codeAgreementHtml(codes, words) : '') +
                    (gold ? goldAgreementHtml(gold, words) : ''),
                }
              : {}),
          },
          words,
        ),
      );
    }
    if (values.json) {
      const countingJson = counted.length > 0 ? { ...mergeCountingReports(counted), said: counting } : null;
      printJson(io, {
        ...analysis,
        sources: sets.map((s) => s.source),
        counting: countingJson,
        scripted_items: scriptedItems,
        ...(steps ? { steps: stepsReport(steps) } : {}),
        ...(codes ? codesReport(codes) : {}),
        ...(gold ? { gold } : {}),
        ...(timeOnItem ? { time_on_item: timeOnItem } : {}),
      });
      return 0;
    }
    for (const line of counting) io.out(`${line}\n`);
    if (scriptedItems > 0) io.out(`scripted data: ${scriptedItems} item(s) transcribed by a scripted engine, not whisper.cpp\n`);
    const a = analysis;
    io.out(`annotators: ${a.annotators.map((x) => x.annotator).join(', ') || '(none)'}\nitems: ${a.items}\nlevel: ${a.level}\n`);
    io.out(
      `alpha, first (blind) labels: ${formatAlpha(a.blind, a.ci95_blind)}\nalpha, final labels:         ${formatAlpha(a.final, a.ci95_final)}\n`,
    );
    if (a.alpha_lift !== null) io.out(`lift (final − blind):        ${a.alpha_lift >= 0 ? '+' : ''}${a.alpha_lift.toFixed(3)}\n`);
    io.out(
      `disagreements: ${a.disagreements.length}${
        a.disagreements.length
          ? ` (${a.disagreements
              .slice(0, 10)
              .map((d) => d.item_id)
              .join(', ')}${a.disagreements.length > 10 ? ', …' : ''})`
          : ''
      }\n`,
    );
    for (const x of a.annotators)
      io.out(`  ${x.annotator}: ${x.labels} labels, ${x.changes} changed, ${x.changes_toward_majority} toward the others' majority\n`);
    if (timeOnItem) {
      io.out(`time on item, median active / wall over completed items (idle over ${formatDuration(timeOnItem.idle_gap_ms)}):\n`);
      for (const t of timeOnItem.annotators)
        io.out(`  ${t.annotator}: ${formatDuration(t.median_active_ms)} / ${formatDuration(t.median_wall_ms)} (${t.items} items)\n`);
    }
    if (steps) {
      io.out(`step judgments (ordinal, -1 < 0 < +1), all judged steps: ${formatStepAlpha(steps.all_steps)}\n`);
      for (const p of steps.by_position) io.out(`  step ${p.index}: ${formatStepAlpha(p)}\n`);
      if (steps.by_position.length === 0) io.out('  no step of model reasoning has been judged yet\n');
    }
    if (codes) {
      io.out(
        `codes (alpha on presence per unit, ${codes.pairable_units} units coded by two or more coders; codebook ${codes.codebook_version ?? 'none'}${basisNote(codes).replace(' · ', '; ')}):\n`,
      );
      for (const c of codes.codes)
        io.out(
          `  ${c.code}: ${c.alpha === null ? `undefined — ${c.undefined_reason === 'no_variation' ? 'not enough data: the code never varies' : 'not enough data: fewer than two units coded by two coders'}` : `${c.alpha.toFixed(3)}${c.ci95 ? `  95% [${c.ci95[0].toFixed(3)}, ${c.ci95[1].toFixed(3)}]` : ''}`}\n`,
        );
      if (codes.overall)
        io.out(`  overall (exclusive): ${codes.overall.alpha === null ? 'undefined — not enough data' : codes.overall.alpha.toFixed(3)}\n`);
      if (codes.codes.length === 0) io.out('  the project has no codes yet (codebook.yaml)\n');
    }
    if (gold) {
      const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
      io.out(
        `gold labels: ${gold.gold_items} items (${Object.entries(gold.sources)
          .map(([source, n]) => `${n} ${source}`)
          .join(', ')})\n`,
      );
      for (const g of gold.annotators) {
        io.out(
          `  ${g.annotator} vs gold: ${g.accuracy === null ? 'no items in common' : `${g.matches}/${g.items} = ${pct(g.accuracy)}  95% [${pct(g.accuracy_ci95![0])}, ${pct(g.accuracy_ci95![1])}]`}${g.alpha === null ? '' : `, alpha ${g.alpha.toFixed(3)}${g.alpha_ci95 ? `  95% [${g.alpha_ci95[0].toFixed(3)}, ${g.alpha_ci95[1].toFixed(3)}]` : ''}`}\n`,
        );
      }
      if (gold.causes.length > 0) io.out(`causes of disagreement: ${gold.causes.map((c) => `${c.cause} ${c.count}`).join(', ')}\n`);
      for (const f of gold.guideline_flags) io.out(`  guideline flag on ${f.item_id}: ${f.text}\n`);
      if (gold.hesitation) io.out(`${describeHesitationOverturns(gold.hesitation)}\n`);
    }
    if (values.html) io.out(`report: ${values.html}\n`);
    return 0;
  },
};
