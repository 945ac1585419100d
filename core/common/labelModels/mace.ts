/**
 * MACE, Hovy, Berg-Kirkpatrick, Vaswani & Hovy (2013), "Learning Whom to Trust with MACE", NAACL-HLT 1120–1130.
 * Each item has a true label T_i (uniform prior). On each annotation the annotator either knows (probability θ_j, and
 * gives T_i) or spams (1 − θ_j) and draws a label from their own strategy ξ_j, whatever the item. Variational Bayes EM
 * as in the paper: Beta(α, β) on θ_j (0.5, 0.5, MACE's defaults), a symmetric Dirichlet(γ) on ξ_j, the geometric means
 * exp E[log ·] in the E-step; several random restarts, the one with the highest log-likelihood kept (MACE: 10 × 50
 * iterations). A spammer who always says "A" gets a low θ and ξ peaked at A; a good annotator's θ is near 1.
 */
import { seededRandom } from '../agreement/krippendorff';
import { dawidSkeneEStep, predictThroughConfusion } from './dawidSkene';
import type { FitInput, LabelModelFit } from './labelModel';
import { digamma, normaliseLogRow } from './labelModel';

export interface MaceOptions {
  /** Beta prior on θ_j, the probability of knowing */
  alpha?: number;
  beta?: number;
  /** symmetric Dirichlet prior on each strategy ξ_j */
  gamma?: number;
  restarts?: number;
  iterations?: number;
}

export const DEFAULT_MACE = { alpha: 0.5, beta: 0.5, gamma: 1, restarts: 10, iterations: 50 } as const;

interface MaceState {
  /** per annotator: E[log θ], E[log (1 − θ)] (as exp: the geometric means) */
  knowing: Float64Array;
  spamming: Float64Array;
  /** annotators × labels: exp E[log ξ_j(l)] */
  strategy: Float64Array;
  /** posterior means of θ and ξ */
  thetaMean: Float64Array;
  strategyMean: Float64Array;
}

export function fitMace(input: FitInput, options: MaceOptions = {}): LabelModelFit {
  const o = { ...DEFAULT_MACE, ...options };
  const { table } = input;
  const K = table.labels.length;
  const J = table.annotators.length;
  const random = seededRandom(input.seed ?? 1);
  let best: { state: MaceState; logLikelihood: number; iterations: number } | null = null;
  // a warm start (the full fit's posteriors, for a bootstrap resample) needs no restarts: the labels keep their names
  const starts = input.init ? 1 : Math.max(1, o.restarts);
  for (let r = 0; r < starts; r++) {
    const state = newState(J, K);
    const posterior = new Float64Array(table.items.length * K);
    if (input.init) {
      // from the given posteriors: one M-step from an even θ and a flat strategy
      state.knowing.fill(0.5);
      state.spamming.fill(0.5);
      state.strategy.fill(1 / K);
      posterior.set(input.init);
      maceMStep(input, posterior, state, o);
    } else {
      // a random start: θ in (0, 1), a random strategy (MACE starts each restart from random parameters)
      for (let j = 0; j < J; j++) {
        const theta = 0.05 + 0.9 * random();
        state.knowing[j] = theta;
        state.spamming[j] = 1 - theta;
        let sum = 0;
        for (let l = 0; l < K; l++) sum += state.strategy[j * K + l] = 0.1 + random();
        for (let l = 0; l < K; l++) state.strategy[j * K + l]! /= sum;
      }
    }
    let logLikelihood = -Infinity;
    let iterations = 0;
    for (; iterations < o.iterations; iterations++) {
      const before = logLikelihood;
      logLikelihood = maceEStep(input, state, posterior);
      maceMStep(input, posterior, state, o);
      if (iterations > 0 && Math.abs(logLikelihood - before) < 1e-6 * Math.max(1, table.item.length)) break;
    }
    const point = pointFit(input, state);
    if (best === null || point.logLikelihood > best.logLikelihood) best = { state, logLikelihood: point.logLikelihood, iterations };
  }
  const { posterior, confusion, logLikelihood } = pointFit(input, best!.state);
  const prior = new Float64Array(K).fill(1 / K);
  return {
    model: 'mace',
    posterior,
    prior,
    confusion,
    // MACE's competence is θ_j, the probability that the annotator knows rather than spams
    competence: Float64Array.from(best!.state.thetaMean),
    difficulty: null,
    logLikelihood,
    iterations: best!.iterations,
    predict: (i, j, out) => predictThroughConfusion(posterior, confusion, K, i, j, out),
  };
}

function newState(J: number, K: number): MaceState {
  return {
    knowing: new Float64Array(J),
    spamming: new Float64Array(J),
    strategy: new Float64Array(J * K),
    thetaMean: new Float64Array(J).fill(0.5),
    strategyMean: new Float64Array(J * K).fill(1 / K),
  };
}

/**
 * q_i(t) ∝ Π_a [θ̃_j·1(a = t) + (1−θ)̃_j ξ̃_j(a)]: with s_a = (1−θ)̃ ξ̃(a), log q_i(t) = Σ_a log s_a + Σ_{a = t} log(1 + θ̃/s_a),
 * so one pass over the annotations (no loop over labels per annotation). Returns Σ_i log Σ_t of the unnormalised rows.
 */
function maceEStep(input: FitInput, state: MaceState, posterior: Float64Array): number {
  const { table, present, itemWeight } = input;
  const K = table.labels.length;
  let total = 0;
  for (let i = 0; i < table.items.length; i++) {
    const row = i * K;
    let shared = 0;
    for (let t = 0; t < K; t++) posterior[row + t] = -Math.log(K);
    let any = false;
    for (let p = table.byItemStart[i]!; p < table.byItemStart[i + 1]!; p++) {
      const a = table.byItem[p]!;
      if (present && present[a] === 0) continue;
      any = true;
      const j = table.annotator[a]!;
      const l = table.label[a]!;
      const s = state.spamming[j]! * state.strategy[j * K + l]!;
      shared += Math.log(s);
      posterior[row + l]! += Math.log1p(state.knowing[j]! / s);
    }
    const evidence = normaliseLogRow(posterior, row, K) + shared;
    if (any) total += (itemWeight ? itemWeight[i]! : 1) * evidence;
  }
  return total;
}

/** Expected knowing/spamming counts and strategy counts, then the variational Beta and Dirichlet posteriors. */
function maceMStep(input: FitInput, posterior: Float64Array, state: MaceState, o: Required<MaceOptions>): void {
  const { table, present, itemWeight } = input;
  const K = table.labels.length;
  const J = table.annotators.length;
  const know = new Float64Array(J);
  const spam = new Float64Array(J);
  const strategyCounts = new Float64Array(J * K);
  for (let a = 0; a < table.item.length; a++) {
    if (present && present[a] === 0) continue;
    const i = table.item[a]!;
    const w = itemWeight ? itemWeight[i]! : 1;
    if (w === 0) continue;
    const j = table.annotator[a]!;
    const l = table.label[a]!;
    const s = state.spamming[j]! * state.strategy[j * K + l]!;
    // P(knowing | label l, item i) = P(T = l) · θ̃ / (θ̃ + s): only a label equal to the truth can be known
    const knowing = posterior[i * K + l]! * (state.knowing[j]! / (state.knowing[j]! + s));
    know[j]! += w * knowing;
    spam[j]! += w * (1 - knowing);
    strategyCounts[j * K + l]! += w * (1 - knowing);
  }
  for (let j = 0; j < J; j++) {
    const a = o.alpha + know[j]!;
    const b = o.beta + spam[j]!;
    const both = digamma(a + b);
    state.knowing[j] = Math.exp(digamma(a) - both);
    state.spamming[j] = Math.exp(digamma(b) - both);
    state.thetaMean[j] = a / (a + b);
    let sum = 0;
    for (let l = 0; l < K; l++) sum += strategyCounts[j * K + l]!;
    const all = digamma(K * o.gamma + sum);
    for (let l = 0; l < K; l++) {
      state.strategy[j * K + l] = Math.exp(digamma(o.gamma + strategyCounts[j * K + l]!) - all);
      state.strategyMean[j * K + l] = (o.gamma + strategyCounts[j * K + l]!) / (K * o.gamma + sum);
    }
  }
}

/** The confusion matrix MACE implies at the posterior means, π_j(z, l) = θ_j·1(z = l) + (1 − θ_j) ξ_j(l), and the posteriors under it. */
function pointFit(input: FitInput, state: MaceState): { posterior: Float64Array; confusion: Float64Array; logLikelihood: number } {
  const { table } = input;
  const K = table.labels.length;
  const J = table.annotators.length;
  const confusion = new Float64Array(J * K * K);
  for (let j = 0; j < J; j++) {
    const theta = state.thetaMean[j]!;
    for (let z = 0; z < K; z++)
      for (let l = 0; l < K; l++) confusion[j * K * K + z * K + l] = (z === l ? theta : 0) + (1 - theta) * state.strategyMean[j * K + l]!;
  }
  const logConfusion = confusion.map(Math.log);
  const logPrior = new Float64Array(K).fill(-Math.log(K));
  const posterior = new Float64Array(table.items.length * K);
  const logLikelihood = dawidSkeneEStep(input, logPrior, logConfusion, posterior);
  return { posterior, confusion, logLikelihood };
}
