/**
 * GLAD, Whitehill, Ruvolo, Wu, Bergsma & Movellan (2009), "Whose Vote Should Count More: Optimal Integration of Labels
 * from Labelers of Unknown Expertise", NIPS 22. Annotator j has an ability α_j (0: guesses, negative: adversarial), item i
 * an inverse difficulty β_i > 0 (β_i = e^{b_i}); P(label = truth) = σ(α_j β_i), and a wrong label is one of the other K − 1
 * at random (their multi-class form). EM: the E-step is Bayes' rule with a class prior; the M-step raises the expected
 * log-likelihood plus Gaussian priors α ~ N(1, 1), b ~ N(0, 1) (the paper's code uses the same means) with a few
 * Fisher-scoring steps per parameter. The item's difficulty reported is 1/β_i: 0 is trivially easy, large is hard.
 */
import type { FitInput, LabelModelFit } from './labelModel';
import { normaliseLogRow, voteShares } from './labelModel';
import { itemsWithAnnotations } from './dawidSkene';

export interface GladOptions {
  maxIterations?: number;
  tolerance?: number;
  /** Fisher-scoring steps per M-step */
  innerSteps?: number;
}

const ALPHA_PRIOR_MEAN = 1;
const ALPHA_PRIOR_VAR = 1;
const B_PRIOR_MEAN = 0;
const B_PRIOR_VAR = 1;

const sigmoid = (x: number): number => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));
/** log σ(x) without overflow */
const logSigmoid = (x: number): number => (x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x)));

export function fitGlad(input: FitInput, options: GladOptions = {}): LabelModelFit {
  const { table, present, itemWeight } = input;
  const K = table.labels.length;
  const I = table.items.length;
  const J = table.annotators.length;
  const N = table.item.length;
  const maxIterations = options.maxIterations ?? 200;
  const tolerance = options.tolerance ?? 1e-7;
  const innerSteps = options.innerSteps ?? 3;
  const posterior = input.init ? Float64Array.from(input.init) : voteShares(input);
  const has = itemsWithAnnotations(input);
  const alpha = new Float64Array(J).fill(ALPHA_PRIOR_MEAN);
  const b = new Float64Array(I).fill(B_PRIOR_MEAN);
  const prior = new Float64Array(K).fill(1 / K);
  const correct = new Float64Array(N);
  const logWrongShare = K > 1 ? Math.log(K - 1) : 0;
  let logLikelihood = -Infinity;
  let iterations = 0;
  const counted = present ? present.reduce((n, x) => n + x, 0) : N;
  for (; iterations < maxIterations; iterations++) {
    // M-step, class prior (Laplace-smoothed, weighted by resample draws)
    prior.fill(1);
    for (let i = 0; i < I; i++)
      if (has[i] === 1) for (let z = 0; z < K; z++) prior[z]! += (itemWeight ? itemWeight[i]! : 1) * posterior[i * K + z]!;
    const priorSum = prior.reduce((s, x) => s + x, 0);
    for (let z = 0; z < K; z++) prior[z]! /= priorSum;
    // P(annotation a is correct) = q_i(label of a)
    for (let a = 0; a < N; a++) correct[a] = posterior[table.item[a]! * K + table.label[a]!]!;
    for (let step = 0; step < innerSteps; step++) {
      scoreAbilities(input, correct, alpha, b);
      scoreEasiness(input, correct, alpha, b);
    }
    // E-step
    const before = logLikelihood;
    logLikelihood = 0;
    for (let i = 0; i < I; i++) {
      const row = i * K;
      for (let z = 0; z < K; z++) posterior[row + z] = Math.log(prior[z]!);
      const beta = Math.exp(b[i]!);
      let any = false;
      for (let p = table.byItemStart[i]!; p < table.byItemStart[i + 1]!; p++) {
        const a = table.byItem[p]!;
        if (present && present[a] === 0) continue;
        any = true;
        const x = alpha[table.annotator[a]!]! * beta;
        const right = logSigmoid(x);
        const wrong = logSigmoid(-x) - logWrongShare;
        const l = table.label[a]!;
        for (let z = 0; z < K; z++) posterior[row + z]! += z === l ? right : wrong;
      }
      const evidence = normaliseLogRow(posterior, row, K);
      // the objective a resample raises weighs each item by its draws
      if (any) logLikelihood += (itemWeight ? itemWeight[i]! : 1) * evidence;
    }
    if (iterations > 0 && logLikelihood - before < tolerance * Math.max(1, counted)) {
      iterations++;
      break;
    }
  }
  const difficulty = new Float64Array(I);
  for (let i = 0; i < I; i++) difficulty[i] = Math.exp(-b[i]!);
  // GLAD's competence on one scale with the others: P(correct) on an item of median difficulty
  const medianBeta = Math.exp(median(b));
  const competence = alpha.map((x) => sigmoid(x * medianBeta));
  // the confusion on an item of median difficulty (for the report; predictions use each item's own β)
  const confusion = new Float64Array(J * K * K);
  for (let j = 0; j < J; j++)
    for (let z = 0; z < K; z++)
      for (let l = 0; l < K; l++) confusion[j * K * K + z * K + l] = z === l ? competence[j]! : (1 - competence[j]!) / Math.max(1, K - 1);
  return {
    model: 'difficulty',
    posterior,
    prior,
    confusion,
    competence,
    difficulty,
    logLikelihood,
    iterations,
    predict: (i, j, out) => {
      const right = sigmoid(alpha[j]! * Math.exp(b[i]!));
      for (let l = 0; l < K; l++) out[l] = 0;
      for (let z = 0; z < K; z++) {
        const q = posterior[i * K + z]!;
        for (let l = 0; l < K; l++) out[l]! += q * (z === l ? right : (1 - right) / Math.max(1, K - 1));
      }
    },
  };
}

/** One Fisher-scoring step for every α_j: gradient Σ (c − σ) β, information Σ σ(1 − σ) β², plus the prior. */
function scoreAbilities(input: FitInput, correct: Float64Array, alpha: Float64Array, b: Float64Array): void {
  const { table, present, itemWeight } = input;
  const J = alpha.length;
  const gradient = new Float64Array(J);
  const information = new Float64Array(J);
  for (let a = 0; a < table.item.length; a++) {
    if (present && present[a] === 0) continue;
    const i = table.item[a]!;
    const w = itemWeight ? itemWeight[i]! : 1;
    if (w === 0) continue;
    const j = table.annotator[a]!;
    const beta = Math.exp(b[i]!);
    const s = sigmoid(alpha[j]! * beta);
    gradient[j]! += w * (correct[a]! - s) * beta;
    information[j]! += w * s * (1 - s) * beta * beta;
  }
  for (let j = 0; j < J; j++) {
    const g = gradient[j]! - (alpha[j]! - ALPHA_PRIOR_MEAN) / ALPHA_PRIOR_VAR;
    const h = information[j]! + 1 / ALPHA_PRIOR_VAR;
    alpha[j]! += Math.max(-2, Math.min(2, g / h));
  }
}

/** One Fisher-scoring step for every b_i = log β_i (chain rule through β = e^b); an item's own labels only. */
function scoreEasiness(input: FitInput, correct: Float64Array, alpha: Float64Array, b: Float64Array): void {
  const { table, present } = input;
  for (let i = 0; i < b.length; i++) {
    const beta = Math.exp(b[i]!);
    let g = -(b[i]! - B_PRIOR_MEAN) / B_PRIOR_VAR;
    let h = 1 / B_PRIOR_VAR;
    for (let p = table.byItemStart[i]!; p < table.byItemStart[i + 1]!; p++) {
      const a = table.byItem[p]!;
      if (present && present[a] === 0) continue;
      const x = alpha[table.annotator[a]!]! * beta;
      const s = sigmoid(x);
      g += (correct[a]! - s) * x;
      h += s * (1 - s) * x * x;
    }
    b[i]! += Math.max(-1, Math.min(1, g / h));
  }
}

function median(values: Float64Array): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
