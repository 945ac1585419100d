/**
 * Majority vote, the baseline every label model is measured against: an item's label is its most frequent label (a tie
 * goes to the earlier label in the label order), its probability the share of votes. As a model of a new annotation
 * it predicts the item's vote shares with add-one smoothing, (n_il + 1)/(n_i + K), so held-out fit can be compared.
 */
import type { FitInput, LabelModelFit } from './labelModel';
import { argmax, voteShares } from './labelModel';

export function fitMajorityVote(input: FitInput): LabelModelFit {
  const { table, present, itemWeight } = input;
  const K = table.labels.length;
  const I = table.items.length;
  const J = table.annotators.length;
  const posterior = voteShares(input);
  const counts = new Float64Array(I * K);
  const totals = new Float64Array(I);
  for (let a = 0; a < table.item.length; a++) {
    if (present && present[a] === 0) continue;
    counts[table.item[a]! * K + table.label[a]!]! += 1;
    totals[table.item[a]!]! += 1;
  }
  const prior = new Float64Array(K);
  for (let i = 0; i < I; i++) if (totals[i]! > 0) for (let z = 0; z < K; z++) prior[z]! += posterior[i * K + z]!;
  const priorSum = prior.reduce((s, x) => s + x, 0);
  for (let z = 0; z < K; z++) prior[z] = priorSum > 0 ? prior[z]! / priorSum : 1 / K;
  // each annotator against the majority label (add-one smoothed rows): their agreement with it is the competence
  const confusion = new Float64Array(J * K * K).fill(1);
  for (let a = 0; a < table.item.length; a++) {
    if (present && present[a] === 0) continue;
    const i = table.item[a]!;
    const w = itemWeight ? itemWeight[i]! : 1;
    confusion[table.annotator[a]! * K * K + argmax(posterior, i * K, K) * K + table.label[a]!]! += w;
  }
  const agreed = new Float64Array(J);
  const given = new Float64Array(J);
  for (let j = 0; j < J; j++) {
    for (let z = 0; z < K; z++) {
      let sum = 0;
      for (let l = 0; l < K; l++) sum += confusion[j * K * K + z * K + l]!;
      agreed[j]! += confusion[j * K * K + z * K + z]! - 1;
      given[j]! += sum - K;
      for (let l = 0; l < K; l++) confusion[j * K * K + z * K + l]! /= sum;
    }
  }
  const competence = agreed.map((x, j) => (given[j]! > 0 ? x / given[j]! : 0));
  let logLikelihood = 0;
  for (let a = 0; a < table.item.length; a++) {
    if (present && present[a] === 0) continue;
    const i = table.item[a]!;
    logLikelihood += Math.log((counts[i * K + table.label[a]!]! + 1) / (totals[i]! + K));
  }
  return {
    model: 'majority',
    posterior,
    prior,
    confusion,
    competence,
    difficulty: null,
    logLikelihood,
    iterations: 1,
    predict: (i, _j, out) => {
      for (let l = 0; l < K; l++) out[l] = (counts[i * K + l]! + 1) / (totals[i]! + K);
    },
  };
}
