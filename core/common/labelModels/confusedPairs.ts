/**
 * Guideline diagnostics: pairs of labels annotators confuse systematically. For each annotator the confusion rates are
 * soft counts against the model's posteriors, r_j(z, l) = Σ_i q_i(z)·1(j said l on i) / Σ_i q_i(z). Giving B when the
 * truth is A is a *pair* confusion only beyond the annotator's general habit of saying B: the excess is
 * r_j(A, B) − mean_{z ∉ {A, B}} r_j(z, B). A spammer who always says B (r = 1 from every row) and a random clicker
 * (r = 1/K everywhere) have no excess; someone who reads A as B does. With two labels there is no third row to
 * compare with, and the excess is the raw rate. An annotator confuses {A, B} when the excess in either direction is at
 * least `threshold`, at least `minimumZ` standard errors (binomial, from the soft counts of the rows compared), and rests
 * on at least `minimumCount` labels: a random clicker's noise is not a guideline problem. Pairs rank by how many annotators confuse them, then
 * by the labels involved.
 */
import type { AnnotationTable } from './annotationTable';
import { argmax } from './labelModel';

export interface ConfusedPair {
  labels: [string, string];
  /** who confuses the pair */
  annotators: string[];
  /** how many annotators labelled items of either label (the model's) */
  of: number;
  /** items whose labels include both, the most evenly split first */
  items: string[];
  /** the largest excess rate among those annotators (how strongly) */
  strength: number;
}

export interface ConfusedPairOptions {
  threshold?: number;
  minimumCount?: number;
  minimumZ?: number;
  maxItems?: number;
}

export function confusedPairs(table: AnnotationTable, posterior: Float64Array, options: ConfusedPairOptions = {}): ConfusedPair[] {
  const threshold = options.threshold ?? 0.15;
  const minimumCount = options.minimumCount ?? 3;
  const minimumZ = options.minimumZ ?? 3;
  const maxItems = options.maxItems ?? 20;
  const K = table.labels.length;
  const J = table.annotators.length;
  const counts = new Float64Array(J * K * K);
  for (let a = 0; a < table.item.length; a++) {
    const base = table.annotator[a]! * K * K + table.label[a]!;
    const row = table.item[a]! * K;
    for (let z = 0; z < K; z++) counts[base + z * K]! += posterior[row + z]!;
  }
  const rates = new Float64Array(J * K * K);
  const rowTotals = new Float64Array(J * K);
  for (let j = 0; j < J; j++) {
    for (let z = 0; z < K; z++) {
      let sum = 0;
      for (let l = 0; l < K; l++) sum += counts[j * K * K + z * K + l]!;
      rowTotals[j * K + z] = sum;
      for (let l = 0; l < K; l++) rates[j * K * K + z * K + l] = sum > 0 ? counts[j * K * K + z * K + l]! / sum : 0;
    }
  }
  const variance = (r: number, n: number): number => (n > 0 ? Math.max(r * (1 - r), 1 / (n + 2)) / n : 1);
  /** the excess rate of saying `to` for `from`, in rate and in standard errors */
  const excess = (j: number, from: number, to: number): { rate: number; z: number } => {
    let baseline = 0;
    let baselineVariance = 0;
    let n = 0;
    for (let z = 0; z < K; z++) {
      if (z === from || z === to) continue;
      const r = rates[j * K * K + z * K + to]!;
      baseline += r;
      baselineVariance += variance(r, rowTotals[j * K + z]!);
      n++;
    }
    const r = rates[j * K * K + from * K + to]!;
    const rate = r - (n > 0 ? baseline / n : 0);
    const se = Math.sqrt(variance(r, rowTotals[j * K + from]!) + (n > 0 ? baselineVariance / (n * n) : 0));
    return { rate, z: rate / se };
  };
  const modelLabel = Int32Array.from({ length: table.items.length }, (_, i) => argmax(posterior, i * K, K));
  const pairs: ConfusedPair[] = [];
  for (let A = 0; A < K; A++) {
    for (let B = A + 1; B < K; B++) {
      const who: string[] = [];
      const involved = new Set<number>();
      let strength = 0;
      for (let a = 0; a < table.item.length; a++)
        if (modelLabel[table.item[a]!] === A || modelLabel[table.item[a]!] === B) involved.add(table.annotator[a]!);
      for (let j = 0; j < J; j++) {
        const count = counts[j * K * K + A * K + B]! + counts[j * K * K + B * K + A]!;
        const flagged = [excess(j, A, B), excess(j, B, A)].filter((e) => e.rate >= threshold && e.z >= minimumZ);
        if (flagged.length > 0 && count >= minimumCount) {
          who.push(table.annotators[j]!);
          strength = Math.max(strength, ...flagged.map((e) => e.rate));
        }
      }
      if (who.length === 0) continue;
      pairs.push({
        labels: [table.labels[A]!, table.labels[B]!],
        annotators: who,
        of: involved.size,
        items: splitItems(table, A, B, maxItems),
        strength,
      });
    }
  }
  return pairs.sort((x, y) => y.annotators.length - x.annotators.length || y.strength - x.strength);
}

/** Items with both labels among their labels, the most evenly split between them first. */
function splitItems(table: AnnotationTable, A: number, B: number, maxItems: number): string[] {
  const split: Array<{ id: string; balance: number; i: number }> = [];
  for (let i = 0; i < table.items.length; i++) {
    let a = 0;
    let b = 0;
    for (let p = table.byItemStart[i]!; p < table.byItemStart[i + 1]!; p++) {
      const l = table.label[table.byItem[p]!];
      if (l === A) a++;
      else if (l === B) b++;
    }
    if (a > 0 && b > 0) split.push({ id: table.items[i]!, balance: Math.min(a, b) / Math.max(a, b), i });
  }
  return split
    .sort((x, y) => y.balance - x.balance || x.i - y.i)
    .slice(0, maxItems)
    .map((s) => s.id);
}
