import type { AnnotationTable } from './annotationTable';

export const LABEL_MODELS = ['majority', 'dawid-skene', 'mace', 'difficulty'] as const;
export type LabelModelName = (typeof LABEL_MODELS)[number];

/** What a fit sees: the table, which annotations count, and how often each item is drawn (a bootstrap resample). */
export interface FitInput {
  table: AnnotationTable;
  /** 1 = the annotation counts, 0 = held out (cross-validation); absent: all count */
  present?: Uint8Array;
  /** how many times each item is drawn (bootstrap); it weighs the item in the parameters, not in its own posterior */
  itemWeight?: Float64Array;
  /** start EM from these item posteriors (items × labels), e.g. the full fit's, so a resample keeps the label names */
  init?: Float64Array;
  seed?: number;
}

/** A fitted label model: every item's posterior over the labels and every annotator's parameters. */
export interface LabelModelFit {
  model: LabelModelName;
  /** items × labels, row i = P(true label | the item's annotations, the parameters) */
  posterior: Float64Array;
  /** labels: the share of each true label */
  prior: Float64Array;
  /** annotators × labels × labels: P(annotator gives l | true label z), row z */
  confusion: Float64Array;
  /** per annotator, on the model's own scale (see each model) */
  competence: Float64Array;
  /** per item, GLAD's 1/β (0 = easy, large = hard); only the difficulty model has it */
  difficulty: Float64Array | null;
  /** log P(annotations | parameters) at the end of the fit */
  logLikelihood: number;
  iterations: number;
  /** P(annotator j gives label l on item i) for an annotation the fit did not see, into out (length labels) */
  predict(i: number, j: number, out: Float64Array): void;
}

/** Normalises row i of a matrix of log values in place into probabilities; returns log Σ exp (the row's evidence). */
export function normaliseLogRow(m: Float64Array, offset: number, k: number): number {
  let max = -Infinity;
  for (let z = 0; z < k; z++) if (m[offset + z]! > max) max = m[offset + z]!;
  let sum = 0;
  for (let z = 0; z < k; z++) sum += m[offset + z] = Math.exp(m[offset + z]! - max);
  for (let z = 0; z < k; z++) m[offset + z]! /= sum;
  return max + Math.log(sum);
}

/** The vote shares of each item's present annotations (ties stay split): Dawid & Skene's (1979) eq. 3.1 start. */
export function voteShares(input: FitInput): Float64Array {
  const { table, present } = input;
  const K = table.labels.length;
  const I = table.items.length;
  const shares = new Float64Array(I * K);
  for (let i = 0; i < I; i++) {
    let n = 0;
    for (let p = table.byItemStart[i]!; p < table.byItemStart[i + 1]!; p++) {
      const a = table.byItem[p]!;
      if (present && present[a] === 0) continue;
      shares[i * K + table.label[a]!]! += 1;
      n++;
    }
    for (let z = 0; z < K; z++) shares[i * K + z] = n === 0 ? 1 / K : shares[i * K + z]! / n;
  }
  return shares;
}

/** ψ(x), the digamma function, for x > 0: recurrence up to 6, then the asymptotic series (error < 1e-12). */
export function digamma(x: number): number {
  let result = 0;
  while (x < 6) {
    result -= 1 / x;
    x += 1;
  }
  const f = 1 / (x * x);
  return result + Math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))));
}

/** The largest entry's index (the first on a tie, i.e. the earlier label in the label order). */
export function argmax(m: ArrayLike<number>, offset: number, k: number): number {
  let best = 0;
  for (let z = 1; z < k; z++) if (m[offset + z]! > m[offset + best]!) best = z;
  return best;
}
