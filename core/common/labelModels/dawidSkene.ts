/**
 * Dawid & Skene (1979), "Maximum likelihood estimation of observer error-rates using the EM algorithm", Applied
 * Statistics 28(1):20–28. Each annotator j has a full confusion matrix π_j(z, l) = P(says l | true label z); true labels
 * are drawn from the class prior p(z). EM starts from the vote shares (their eq. 3.1), the M-step counts each annotator's
 * labels weighted by the item posteriors (eqs. 2.3–2.4) and the E-step is Bayes' rule over the item's labels (eq. 2.5).
 * Laplace smoothing (add `smoothing` to every count) keeps an annotator seen on few items from a zero probability.
 */
import type { FitInput, LabelModelFit } from './labelModel';
import { normaliseLogRow, voteShares } from './labelModel';

export interface DawidSkeneOptions {
  /** added to every confusion and prior count (1 = Laplace; 0 = the paper's plain maximum likelihood) */
  smoothing?: number;
  maxIterations?: number;
  /** stop when the log-likelihood gains less than this per annotation */
  tolerance?: number;
}

/** Whether each item has at least one annotation that counts (an item without one takes the prior and teaches nothing). */
export function itemsWithAnnotations(input: FitInput): Uint8Array {
  const { table, present } = input;
  const has = new Uint8Array(table.items.length);
  for (let a = 0; a < table.item.length; a++) if (!present || present[a] === 1) has[table.item[a]!] = 1;
  return has;
}

export function fitDawidSkene(input: FitInput, options: DawidSkeneOptions = {}): LabelModelFit {
  const { table, present, itemWeight } = input;
  const smoothing = options.smoothing ?? 1;
  const maxIterations = options.maxIterations ?? 500;
  const tolerance = options.tolerance ?? 1e-7;
  const K = table.labels.length;
  const I = table.items.length;
  const J = table.annotators.length;
  const N = table.item.length;
  const posterior = input.init ? Float64Array.from(input.init) : voteShares(input);
  const has = itemsWithAnnotations(input);
  const prior = new Float64Array(K);
  const confusion = new Float64Array(J * K * K);
  const logConfusion = new Float64Array(J * K * K);
  const logPrior = new Float64Array(K);
  let logLikelihood = -Infinity;
  let iterations = 0;
  const presentCount = present ? present.reduce((n, x) => n + x, 0) : N;
  for (; iterations < maxIterations; iterations++) {
    // M-step: class prior and confusion rows from the posteriors (weighted by how often a resample drew the item)
    prior.fill(smoothing);
    confusion.fill(smoothing);
    for (let i = 0; i < I; i++) {
      if (has[i] === 0) continue;
      const w = itemWeight ? itemWeight[i]! : 1;
      if (w === 0) continue;
      for (let z = 0; z < K; z++) prior[z]! += w * posterior[i * K + z]!;
    }
    for (let a = 0; a < N; a++) {
      if (present && present[a] === 0) continue;
      const i = table.item[a]!;
      const w = itemWeight ? itemWeight[i]! : 1;
      if (w === 0) continue;
      const base = table.annotator[a]! * K * K + table.label[a]!;
      for (let z = 0; z < K; z++) confusion[base + z * K]! += w * posterior[i * K + z]!;
    }
    normaliseRows(prior, 1, K);
    normaliseRows(confusion, J * K, K);
    for (let z = 0; z < K; z++) logPrior[z] = Math.log(prior[z]!);
    for (let x = 0; x < confusion.length; x++) logConfusion[x] = Math.log(confusion[x]!);
    // E-step: Bayes' rule over each item's counted labels
    const before = logLikelihood;
    logLikelihood = dawidSkeneEStep(input, logPrior, logConfusion, posterior);
    if (iterations > 0 && logLikelihood - before < tolerance * Math.max(1, presentCount)) {
      iterations++;
      break;
    }
  }
  const competence = new Float64Array(J);
  for (let j = 0; j < J; j++) for (let z = 0; z < K; z++) competence[j]! += prior[z]! * confusion[j * K * K + z * K + z]!;
  return {
    model: 'dawid-skene',
    posterior,
    prior,
    confusion,
    competence,
    difficulty: null,
    logLikelihood,
    iterations,
    predict: (i, j, out) => predictThroughConfusion(posterior, confusion, K, i, j, out),
  };
}

/** Item posteriors under fixed parameters, into `posterior`; returns Σ w_i log P(item's labels), the objective EM raises. */
export function dawidSkeneEStep(input: FitInput, logPrior: Float64Array, logConfusion: Float64Array, posterior: Float64Array): number {
  const { table, present, itemWeight } = input;
  const K = table.labels.length;
  let logLikelihood = 0;
  for (let i = 0; i < table.items.length; i++) {
    const row = i * K;
    for (let z = 0; z < K; z++) posterior[row + z] = logPrior[z]!;
    let any = false;
    for (let p = table.byItemStart[i]!; p < table.byItemStart[i + 1]!; p++) {
      const a = table.byItem[p]!;
      if (present && present[a] === 0) continue;
      any = true;
      const base = table.annotator[a]! * K * K + table.label[a]!;
      for (let z = 0; z < K; z++) posterior[row + z]! += logConfusion[base + z * K]!;
    }
    const evidence = normaliseLogRow(posterior, row, K);
    if (any) logLikelihood += (itemWeight ? itemWeight[i]! : 1) * evidence;
  }
  return logLikelihood;
}

/** Rows of `rows` consecutive blocks of width k made to sum to one (an empty row becomes uniform). */
export function normaliseRows(m: Float64Array, rows: number, k: number): void {
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let c = 0; c < k; c++) sum += m[r * k + c]!;
    for (let c = 0; c < k; c++) m[r * k + c] = sum > 0 ? m[r * k + c]! / sum : 1 / k;
  }
}

/** P(annotator j says l on item i) = Σ_z P(z | item i) π_j(z, l). */
export function predictThroughConfusion(
  posterior: Float64Array,
  confusion: Float64Array,
  K: number,
  i: number,
  j: number,
  out: Float64Array,
): void {
  out.fill(0);
  for (let z = 0; z < K; z++) {
    const q = posterior[i * K + z]!;
    const base = j * K * K + z * K;
    for (let l = 0; l < K; l++) out[l]! += q * confusion[base + l]!;
  }
}
