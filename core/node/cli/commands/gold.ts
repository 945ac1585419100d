import { LabelModelInputError } from '../../../common/labelModels/annotationTable';
import { DEFAULT_GOLD_RESAMPLES } from '../../../common/labelModels/bootstrapIntervals';
import { goldHtml } from '../../../common/labelModels/goldHtml';
import {
  DEFAULT_GOLD_SEED,
  GOLD_MODEL_CHOICES,
  type GoldModelChoice,
  type GoldReport,
  goldReport,
} from '../../../common/labelModels/goldReport';
import { mergeLabelSets } from '../../agreement/agreementSources';
import { exportHesitation, type HesitationByPair, pairKey, projectHesitation } from '../../agreement/hesitationSources';
import { writeFileAtomic } from '../../fs/atomicFile';
import { type CliCommand, parseOptions, printJson, UsageError } from '../cliSupport';
import { progressLine } from '../progressLine';
import { loadAgreementInputs, parseCount } from './agreement';

const MAX_RESAMPLES = 10_000;

export const goldCommand: CliCommand = {
  name: 'gold',
  usage: [
    'gold [--project DIR | --csv FILE | --export FILE…] [--model majority|dawid-skene|mace|difficulty|auto] [--bootstrap N] [--seed S]',
    '            [--folds K] [--with-hesitation] [--html FILE] [--json]',
    '  --project DIR   alone: every annotator session of the project (final labels of completed items); with files: the',
    '                  project only fixes the label set. Without any input: your own copy of the demo.',
    '  --csv FILE      a table with header item,annotator,label; repeatable',
    '  --export FILE   an `aloud export` file (.jsonl, .json or .csv); repeatable',
    '  --model         majority vote, Dawid–Skene (confusion matrices), MACE (competence and spamming), difficulty (GLAD:',
    '                  annotator ability and item difficulty), or auto (default): the best on held-out labels',
    `  --bootstrap N   resamples for the 95% intervals (bootstrap over items with all their labels; default ${DEFAULT_GOLD_RESAMPLES})`,
    `  --seed S        seed of the bootstrap, the folds and MACE's restarts (default ${DEFAULT_GOLD_SEED}); same seed, same report`,
    '  --folds K       folds of the held-out comparison of the models (k-fold over annotations; default 5)',
    '  --with-hesitation  also test whether hesitation (pauses, filled pauses, hedges, changes of mind, time to commit;',
    "                  from the project's sessions or .jsonl/.json exports) predicts which annotations disagree with the",
    "                  others' label, beyond the annotator's accuracy: held-out log-likelihood with and without, odds ratios",
    '  --html FILE     also write a self-contained report (opens offline)',
    '  --json          model, items [{item_id, label, probability, ci95, difficulty, source}], annotators [{annotator,',
    '                  competence, ci95, confusion}], confused_pairs [{labels, annotators, of, items}], model_fit',
    'Method and limits: docs/label-models.md',
  ].join('\n'),
  async run(argv, io) {
    const { values, positionals } = parseOptions(
      argv,
      {
        project: 'string',
        csv: 'strings',
        export: 'strings',
        model: { default: 'auto' },
        bootstrap: 'string',
        seed: 'string',
        folds: 'string',
        html: 'string',
        json: false,
        'with-hesitation': false,
      },
      { positionals: true },
    );
    // `--export a.jsonl b.jsonl`: files after --export are export files too
    if (positionals.length > 0) {
      if (!values.export) throw new UsageError(`unexpected argument "${positionals[0]}" (input files follow --export or --csv)`);
      values.export.push(...positionals);
    }
    if (!(GOLD_MODEL_CHOICES as readonly string[]).includes(values.model))
      throw new UsageError(`--model must be one of ${GOLD_MODEL_CHOICES.join(', ')}, not "${values.model}"`);
    const resamples = parseCount(values.bootstrap, '--bootstrap', DEFAULT_GOLD_RESAMPLES, 1, MAX_RESAMPLES);
    const seed = parseCount(values.seed, '--seed', DEFAULT_GOLD_SEED, 0, 2 ** 32 - 1);
    const folds = parseCount(values.folds, '--folds', 5, 2, 20);
    const progress = progressLine(io, 'aloud gold', 'bytes');
    const sessionProgress = progressLine(io, 'aloud gold', 'sessions');
    const inputs = await loadAgreementInputs(
      {
        ...(values.project !== undefined ? { project: values.project } : {}),
        ...(values.csv ? { csv: values.csv } : {}),
        ...(values.export ? { export: values.export } : {}),
      },
      undefined,
      progress.report,
      sessionProgress.report,
    ).finally(() => (progress.end(), sessionProgress.end()));
    for (const warning of inputs.sets.flatMap((s) => s.warnings)) io.err(`warning: ${warning}\n`);
    const sources = inputs.sets.map((s) => s.source);
    // the final label of each pair is the annotation modelled; a pair without one (skipped, cleared) is no annotation
    const schema = inputs.project?.config.schema ?? null;
    const known = schema ? new Set(schema.labels.map((l) => l.name)) : null;
    const labelled = mergeLabelSets(inputs.sets).flatMap((r) =>
      r.final_label === null ? [] : [{ item_id: r.item_id, annotator: r.annotator, label: r.final_label }],
    );
    // as `agreement` does: a label the schema no longer has is left out, and said
    const annotations = known ? labelled.filter((a) => known.has(a.label)) : labelled;
    if (annotations.length < labelled.length)
      io.err(`warning: ${labelled.length - annotations.length} label(s) are not in the label schema and are left out\n`);
    let hesitation: Array<ReturnType<HesitationByPair['get']> | null> | undefined;
    if (values['with-hesitation']) {
      const byPair: HesitationByPair = new Map();
      if (inputs.project && !values.csv && !values.export) for (const [k, m] of await projectHesitation(inputs.project)) byPair.set(k, m);
      for (const file of values.export ?? []) {
        const { measures, warning } = await exportHesitation(file);
        if (warning) io.err(`warning: ${warning}\n`);
        for (const [k, m] of measures) byPair.set(k, m);
      }
      if (values.csv) io.err('warning: a label table (--csv) carries no hesitation measures\n');
      hesitation = annotations.map((a) => byPair.get(pairKey(a.item_id, a.annotator)) ?? null);
    }
    let report: GoldReport;
    try {
      report = goldReport(annotations, {
        model: values.model as GoldModelChoice,
        resamples,
        seed,
        folds,
        ...(schema ? { labelOrder: schema.labels.map((l) => l.name) } : {}),
        ...(inputs.itemIds ? { itemOrder: inputs.itemIds } : {}),
        ...(hesitation ? { hesitation: hesitation.map((m) => m ?? null) } : {}),
      });
    } catch (e) {
      if (e instanceof LabelModelInputError) throw new UsageError(`${sources.join(', ')}: ${e.message}`);
      throw e;
    }
    if (values.html)
      await writeFileAtomic(
        values.html,
        goldHtml(report, {
          title: 'Aloud gold labels',
          sources,
          generatedAt: new Date().toISOString(),
          hesitation: hesitationLine(report),
        }),
      );
    if (values.json) {
      printJson(io, { ...report, sources });
      return 0;
    }
    io.out(`model: ${report.model} — ${report.model_fit.said}\n`);
    io.out(`items: ${report.items.length}, annotators: ${report.annotators.length}, labels: ${report.labels.join(', ')}\n`);
    io.out(`annotators by competence (${report.competence_scale}; 95% interval):\n`);
    for (const a of [...report.annotators].sort((x, y) => y.competence - x.competence))
      io.out(`  ${a.annotator}: ${a.competence.toFixed(3)} [${a.ci95[0].toFixed(3)}, ${a.ci95[1].toFixed(3)}] (${a.annotations} labels)\n`);
    io.out(`confused label pairs: ${report.confused_pairs.length === 0 ? 'none' : ''}\n`);
    for (const p of report.confused_pairs)
      io.out(
        `  ${p.labels[0]} and ${p.labels[1]} are confused by ${p.annotators.length} of ${p.of} annotators (${p.annotators.join(', ')}); items ${p.items.slice(0, 8).join(', ')}${p.items.length > 8 ? ', …' : ''}\n`,
      );
    const uncertain = [...report.items].sort((a, b) => a.probability - b.probability).slice(0, 10);
    io.out(`least certain items:\n`);
    for (const i of uncertain)
      io.out(
        `  ${i.item_id}: ${i.label} ${i.probability.toFixed(3)} [${i.ci95[0].toFixed(3)}, ${i.ci95[1].toFixed(3)}]${i.difficulty === null ? '' : `, difficulty ${i.difficulty.toFixed(2)}`}\n`,
      );
    const said = hesitationLine(report);
    if (said) io.out(`hesitation: ${said}\n`);
    if (values.html) io.out(`report: ${values.html}\n`);
    return 0;
  },
};

/** The hesitation section in one line (null without --with-hesitation). */
function hesitationLine(report: GoldReport): string | null {
  if (!report.hesitation) return null;
  return 'unavailable' in report.hesitation ? `not assessed: ${report.hesitation.unavailable}` : report.hesitation.said;
}
