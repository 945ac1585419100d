/**
 * The gold report of a study: each item's label with its probability and a bootstrap interval, each annotator's
 * competence and confusion with intervals, the label pairs the guideline leaves confused, and which label model fits
 * the study best on held-out annotations. A pure function of the annotations and the options: the same input and seed
 * give the same report. `aloud gold` prints it; the gold export takes its `model` labels from it.
 */
import { type Annotation, type AnnotationTable, annotationTable, LabelModelInputError } from './annotationTable';
import { bootstrapIntervals, DEFAULT_GOLD_RESAMPLES } from './bootstrapIntervals';
import { type ConfusedPair, confusedPairs } from './confusedPairs';
import { fitLabelModel } from './fitLabelModel';
import { compareModels, type ModelFitComparison } from './heldOutFit';
import { type HesitationEvidence, hesitationEvidence, type HesitationMeasures } from './hesitationEvidence';
import { argmax, LABEL_MODELS, type LabelModelFit, type LabelModelName } from './labelModel';

export type GoldModelChoice = LabelModelName | 'auto';
export const GOLD_MODEL_CHOICES: readonly GoldModelChoice[] = [...LABEL_MODELS, 'auto'];
export const DEFAULT_GOLD_SEED = 1;

export interface GoldOptions {
  /** 'auto': the model with the best held-out log-likelihood */
  model: GoldModelChoice;
  resamples?: number;
  seed?: number;
  folds?: number;
  /** the label set in order (a project's schema); labels outside it are refused */
  labelOrder?: readonly string[];
  /** the item order of the report (a project's); items only in the annotations follow */
  itemOrder?: readonly string[];
  /** adjudicated items keep the adjudicator's label (item id → label) */
  adjudicated?: ReadonlyMap<string, string>;
  /** hesitation measures of each annotation (same order as the annotations): adds the `hesitation` section */
  hesitation?: ReadonlyArray<HesitationMeasures | null>;
}

export interface Interval {
  p: number;
  ci95: [number, number];
}

export interface GoldItem {
  item_id: string;
  label: string;
  /** the model's probability of `label` (for an adjudicated item, of the adjudicator's label) */
  probability: number;
  ci95: [number, number];
  /** GLAD's 1/β: 0 easy, larger harder */
  difficulty: number | null;
  source: 'model' | 'adjudicated';
  annotations: number;
  /** the model's label when the adjudicator chose another one */
  model_label?: string;
}

export interface GoldAnnotator {
  annotator: string;
  competence: number;
  ci95: [number, number];
  annotations: number;
  /** true label → label given → P with interval (the model's confusion matrix) */
  confusion: Record<string, Record<string, Interval>>;
}

export interface GoldReport {
  model: LabelModelName;
  labels: string[];
  items: GoldItem[];
  annotators: GoldAnnotator[];
  confused_pairs: ConfusedPair[];
  model_fit: ModelFitComparison & { chosen: LabelModelName; said: string };
  intervals: { method: string; resamples: number; seed: number; level: number };
  competence_scale: string;
  /** with hesitation measures: whether they predict which annotations disagree (or why that could not be said) */
  hesitation?: HesitationEvidence | { unavailable: string };
}

/** What the app's Agreement tab gets: the report, or why there is none yet (no labels, one label). */
export type GoldView = GoldReport | { unavailable: string };

const COMPETENCE_SCALE: Record<LabelModelName, string> = {
  majority: "share of the annotator's labels equal to the majority label",
  'dawid-skene': 'P(label correct) = Σ_z p(z) π(z, z), from the confusion matrix and the class prior',
  mace: 'θ, the probability that the annotator knows rather than spams (MACE)',
  difficulty: 'P(label correct) on an item of median difficulty, σ(α · median β) (GLAD)',
};

const round = (x: number, digits = 4): number => (Number.isFinite(x) ? Math.round(x * 10 ** digits) / 10 ** digits : x);

/** One sentence on the comparison: the best model and its lead over the next and over majority vote. */
export function describeModelFit(fit: ModelFitComparison): string {
  const ranked = [...fit.scores].sort((a, b) => b.log_likelihood - a.log_likelihood);
  const [best, next] = ranked;
  if (!best) return 'no annotations to compare models on';
  const lead = (s: (typeof ranked)[number]): string =>
    `${s.model} by ${s.behind_best.toFixed(3)} nats per annotation${s.behind_best_ci95 ? ` (95% [${s.behind_best_ci95[0].toFixed(3)}, ${s.behind_best_ci95[1].toFixed(3)}])` : ''}`;
  const majority = ranked.find((s) => s.model === 'majority');
  return `${best.model} fits best on held-out labels (${best.per_annotation.toFixed(3)} nats per annotation, ${fit.folds}-fold)${next ? `; it beats ${lead(next)}` : ''}${majority && majority !== best && majority !== next ? ` and ${lead(majority)}` : ''}`;
}

export function goldReport(annotations: readonly Annotation[], options: GoldOptions): GoldReport {
  if (options.hesitation && options.hesitation.length !== annotations.length)
    throw new Error('goldReport: hesitation measures must be given per annotation, in the same order');
  const table = annotationTable(annotations, {
    ...(options.labelOrder ? { labelOrder: options.labelOrder } : {}),
    ...(options.itemOrder ? { itemOrder: options.itemOrder } : {}),
  });
  if (table.item.length === 0) throw new LabelModelInputError('no labels to model: the input has no annotation with a label');
  if (table.labels.length < 2)
    throw new LabelModelInputError(`only one label ("${table.labels[0]}") in the input: label models need at least two`);
  const seed = options.seed ?? DEFAULT_GOLD_SEED;
  const resamples = options.resamples ?? DEFAULT_GOLD_RESAMPLES;
  const comparison = compareModels(table, LABEL_MODELS, { ...(options.folds !== undefined ? { folds: options.folds } : {}), seed });
  const model = options.model === 'auto' ? comparison.best : options.model;
  const fit = fitLabelModel(model, { table, seed });
  const difficulty = model === 'difficulty' ? fit : fitLabelModel('difficulty', { table, seed });
  const intervals = bootstrapIntervals(table, model, fit, { resamples, seed });
  return {
    model,
    labels: [...table.labels],
    items: goldItems(table, fit, difficulty, intervals.item, options.adjudicated),
    annotators: goldAnnotators(table, fit, intervals.competence, intervals.confusion),
    confused_pairs: confusedPairs(table, fit.posterior).map((p) => ({ ...p, strength: round(p.strength) })),
    model_fit: {
      ...comparison,
      scores: comparison.scores.map((s) => ({
        ...s,
        log_likelihood: round(s.log_likelihood, 3),
        per_annotation: round(s.per_annotation),
        behind_best: round(s.behind_best),
        behind_best_ci95: s.behind_best_ci95 ? [round(s.behind_best_ci95[0]), round(s.behind_best_ci95[1])] : null,
      })),
      chosen: model,
      said: describeModelFit(comparison),
    },
    intervals: {
      method: intervalMethod(model),
      resamples,
      seed,
      level: 0.95,
    },
    competence_scale: COMPETENCE_SCALE[model],
    ...(options.hesitation
      ? {
          hesitation: hesitationEvidence(table, fit, options.hesitation, {
            ...(options.folds !== undefined ? { folds: options.folds } : {}),
            seed,
          }),
        }
      : {}),
  };
}

function goldItems(
  table: AnnotationTable,
  fit: LabelModelFit,
  difficulty: LabelModelFit,
  intervals: Float64Array,
  adjudicated?: ReadonlyMap<string, string>,
): GoldItem[] {
  const K = table.labels.length;
  const items: GoldItem[] = [];
  for (let i = 0; i < table.items.length; i++) {
    const annotations = table.byItemStart[i + 1]! - table.byItemStart[i]!;
    // an item nobody labelled gets no label: the report never shows a label nobody gave
    if (annotations === 0) continue;
    const id = table.items[i]!;
    const best = argmax(fit.posterior, i * K, K);
    const chosen = adjudicated?.get(id);
    const chosenIndex = chosen === undefined ? -1 : table.labels.indexOf(chosen);
    const item: GoldItem = {
      item_id: id,
      label: chosen ?? table.labels[best]!,
      probability: round(chosenIndex >= 0 ? fit.posterior[i * K + chosenIndex]! : chosen !== undefined ? 0 : fit.posterior[i * K + best]!),
      ci95: [round(intervals[2 * i]!), round(intervals[2 * i + 1]!)],
      difficulty: difficulty.difficulty ? round(difficulty.difficulty[i]!) : null,
      source: chosen === undefined ? 'model' : 'adjudicated',
      annotations,
    };
    if (chosen !== undefined) {
      // the interval is of the model's label; an adjudicated label other than it has no model interval to show
      if (chosenIndex !== best) item.ci95 = [item.probability, item.probability];
      if (chosen !== table.labels[best]) item.model_label = table.labels[best]!;
    }
    items.push(item);
  }
  return items;
}

function goldAnnotators(table: AnnotationTable, fit: LabelModelFit, competence: Float64Array, confusion: Float64Array): GoldAnnotator[] {
  const K = table.labels.length;
  const counts = new Int32Array(table.annotators.length);
  for (let a = 0; a < table.annotator.length; a++) counts[table.annotator[a]!]!++;
  return table.annotators.map((annotator, j) => {
    const matrix: Record<string, Record<string, Interval>> = {};
    table.labels.forEach((truth, z) => {
      const row: Record<string, Interval> = {};
      table.labels.forEach((given, l) => {
        const cell = j * K * K + z * K + l;
        row[given] = { p: round(fit.confusion[cell]!), ci95: [round(confusion[2 * cell]!), round(confusion[2 * cell + 1]!)] };
      });
      matrix[truth] = row;
    });
    return {
      annotator,
      competence: round(fit.competence[j]!),
      ci95: [round(competence[2 * j]!), round(competence[2 * j + 1]!)],
      annotations: counts[j]!,
      confusion: matrix,
    };
  });
}

/** How the report's intervals were made, in words the JSON reader gets (bootstrapIntervals.ts says why MACE differs). */
function intervalMethod(model: LabelModelName): string {
  if (model === 'majority')
    return "percentile bootstrap: each item's own labels resampled with replacement (vote share); annotators' figures over items resampled with all their labels";
  const over =
    "bootstrap over items (each drawn with all its annotators' labels), model refitted per resample from the full fit, every item scored with its own labels";
  if (model === 'mace')
    return `${over}; item intervals basic on the logit scale (turns round the resamples' lean toward certainty), annotators' percentile`;
  return `percentile ${over}`;
}
