/**
 * Error bars by a nonparametric bootstrap over items: each resample draws as many items as the study has, with
 * replacement, each with all its annotators' labels (an item's labels share its true label, so they are drawn together),
 * refits the model's parameters on the draw (EM warm-started from the full fit, so label 1 stays label 1), and scores
 * every item of the study with its own labels under the resample's parameters. The percentile interval of those scores
 * is the item's interval: how far its label probability moves when the annotators' reliabilities are re-estimated.
 * Majority vote has no parameters: its item interval resamples the item's own labels instead (the vote share's spread).
 */
import { seededRandom } from '../agreement/krippendorff';
import type { AnnotationTable } from './annotationTable';
import { fitLabelModel } from './fitLabelModel';
import type { LabelModelFit, LabelModelName } from './labelModel';
import { argmax } from './labelModel';

export interface BootstrapIntervals {
  resamples: number;
  seed: number;
  level: number;
  /** per item: [lo, hi] of the probability of the full fit's label */
  item: Float64Array;
  /** per annotator: [lo, hi] of the competence */
  competence: Float64Array;
  /** annotators × labels × labels × 2: [lo, hi] of each confusion cell */
  confusion: Float64Array;
}

export const DEFAULT_GOLD_RESAMPLES = 200;

/** The q-quantile of sorted values, linear between order statistics (type 7, R's default). */
function quantileSorted(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Percentile intervals of the columns of a resamples × columns matrix, into out[2c], out[2c+1]. */
function columnIntervals(draws: Float64Array, resamples: number, columns: number, level: number, out: Float64Array): void {
  const column = new Float64Array(resamples);
  const tail = (1 - level) / 2;
  for (let c = 0; c < columns; c++) {
    for (let r = 0; r < resamples; r++) column[r] = draws[r * columns + c]!;
    column.sort();
    out[2 * c] = quantileSorted(column, tail);
    out[2 * c + 1] = quantileSorted(column, 1 - tail);
  }
}

export function bootstrapIntervals(table: AnnotationTable, model: LabelModelName, full: LabelModelFit, options: { resamples: number; seed: number; level?: number }): BootstrapIntervals {
  const { resamples, seed } = options;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new Error('bootstrapIntervals: resamples must be a positive integer');
  const K = table.labels.length;
  const I = table.items.length;
  const J = table.annotators.length;
  const random = seededRandom(seed);
  const pointLabel = Int32Array.from({ length: I }, (_, i) => argmax(full.posterior, i * K, K));
  const itemDraws = new Float64Array(resamples * I);
  const competenceDraws = new Float64Array(resamples * J);
  const confusionDraws = new Float64Array(resamples * J * K * K);
  const itemWeight = new Float64Array(I);
  for (let r = 0; r < resamples; r++) {
    itemWeight.fill(0);
    for (let d = 0; d < I; d++) itemWeight[Math.floor(random() * I)]! += 1;
    const fit = fitLabelModel(model, { table, itemWeight, init: full.posterior, seed: seed + r + 1 });
    competenceDraws.set(fit.competence, r * J);
    confusionDraws.set(fit.confusion, r * J * K * K);
    if (model === 'majority') {
      // the vote share of the item's label among its own labels drawn again with replacement
      for (let i = 0; i < I; i++) {
        const start = table.byItemStart[i]!;
        const n = table.byItemStart[i + 1]! - start;
        let hits = 0;
        for (let d = 0; d < n; d++) if (table.label[table.byItem[start + Math.floor(random() * n)]!] === pointLabel[i]) hits++;
        itemDraws[r * I + i] = n === 0 ? 1 / K : hits / n;
      }
    } else {
      for (let i = 0; i < I; i++) itemDraws[r * I + i] = fit.posterior[i * K + pointLabel[i]!]!;
    }
  }
  const item = new Float64Array(2 * I);
  const competence = new Float64Array(2 * J);
  const confusion = new Float64Array(2 * J * K * K);
  columnIntervals(itemDraws, resamples, I, level, item);
  columnIntervals(competenceDraws, resamples, J, level, competence);
  columnIntervals(confusionDraws, resamples, J * K * K, level, confusion);
  return { resamples, seed, level, item, competence, confusion };
}
