/**
 * Which model fits this study, and by how much: k-fold cross-validation over annotations. The annotations are shuffled
 * (seeded) into k folds; each fold is held out in turn, the model is fitted on the rest, and each held-out annotation
 * is scored by log P(its label | the fit), the fit's prediction for that annotator on that item (its other labels
 * stay in). Models are compared on the same folds, annotation by annotation, so the difference has a paired
 * standard error (normal approximation over held-out annotations; folds share training data, so it is a guide, not
 * an exact test — Bengio & Grandvalet 2004).
 */
import { seededRandom } from '../agreement/krippendorff';
import type { AnnotationTable } from './annotationTable';
import { fitLabelModel } from './fitLabelModel';
import type { LabelModelName } from './labelModel';

export interface HeldOutScore {
  model: LabelModelName;
  /** Σ log P over every held-out annotation (nats) */
  log_likelihood: number;
  /** the mean per held-out annotation (nats) */
  per_annotation: number;
  /** how far below the best model, per annotation (0 for the best), with a paired 95% interval */
  behind_best: number;
  behind_best_ci95: [number, number] | null;
}

export interface ModelFitComparison {
  method: string;
  folds: number;
  annotations: number;
  seed: number;
  scores: HeldOutScore[];
  best: LabelModelName;
}

/** The fold of each annotation: a seeded shuffle dealt round-robin, so folds differ in size by at most one. */
export function annotationFolds(n: number, folds: number, seed: number): Int32Array {
  const order = Int32Array.from({ length: n }, (_, k) => k);
  const random = seededRandom(seed);
  for (let k = n - 1; k > 0; k--) {
    const r = Math.floor(random() * (k + 1));
    const t = order[k]!;
    order[k] = order[r]!;
    order[r] = t;
  }
  const fold = new Int32Array(n);
  order.forEach((a, position) => (fold[a] = position % folds));
  return fold;
}

/** Every held-out annotation's log-probability under each model (same folds for all). */
export function heldOutLogProbabilities(
  table: AnnotationTable,
  models: readonly LabelModelName[],
  options: { folds?: number; seed?: number } = {},
): Map<LabelModelName, Float64Array> {
  const folds = Math.max(2, Math.min(options.folds ?? 5, table.item.length));
  const seed = options.seed ?? 1;
  const fold = annotationFolds(table.item.length, folds, seed);
  const K = table.labels.length;
  const out = new Float64Array(K);
  const scores = new Map<LabelModelName, Float64Array>(models.map((m) => [m, new Float64Array(table.item.length)]));
  for (let f = 0; f < folds; f++) {
    const present = new Uint8Array(table.item.length);
    for (let a = 0; a < present.length; a++) present[a] = fold[a] === f ? 0 : 1;
    for (const model of models) {
      const fit = fitLabelModel(model, { table, present, seed: seed + f });
      const score = scores.get(model)!;
      for (let a = 0; a < present.length; a++) {
        if (present[a] === 1) continue;
        fit.predict(table.item[a]!, table.annotator[a]!, out);
        score[a] = Math.log(Math.max(out[table.label[a]!]!, 1e-300));
      }
    }
  }
  return scores;
}

export function compareModels(
  table: AnnotationTable,
  models: readonly LabelModelName[],
  options: { folds?: number; seed?: number } = {},
): ModelFitComparison {
  const folds = Math.max(2, Math.min(options.folds ?? 5, table.item.length));
  const seed = options.seed ?? 1;
  const perAnnotation = heldOutLogProbabilities(table, models, { folds, seed });
  const n = table.item.length;
  const totals = models.map((m) => perAnnotation.get(m)!.reduce((s, x) => s + x, 0));
  const bestIndex = totals.reduce((b, t, k) => (t > totals[b]! ? k : b), 0);
  const best = models[bestIndex]!;
  const bestScores = perAnnotation.get(best)!;
  const scores = models.map((model, k): HeldOutScore => {
    const own = perAnnotation.get(model)!;
    const behind = n > 0 ? (totals[bestIndex]! - totals[k]!) / n : 0;
    let ci: [number, number] | null = null;
    if (model !== best && n > 1) {
      let sq = 0;
      for (let a = 0; a < n; a++) sq += (bestScores[a]! - own[a]! - behind) ** 2;
      const se = Math.sqrt(sq / (n - 1) / n);
      ci = [behind - 1.96 * se, behind + 1.96 * se];
    }
    return { model, log_likelihood: totals[k]!, per_annotation: n > 0 ? totals[k]! / n : 0, behind_best: behind, behind_best_ci95: ci };
  });
  return {
    method: `${folds}-fold cross-validation over annotations: log P(held-out label | model fitted on the other folds)`,
    folds,
    annotations: n,
    seed,
    scores,
    best,
  };
}
