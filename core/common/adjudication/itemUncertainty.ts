import type { LabelRecord } from '../agreement/agreementAnalysis';
import { annotationTable, LabelModelInputError } from '../labelModels/annotationTable';
import { fitLabelModel } from '../labelModels/fitLabelModel';
import { DEFAULT_GOLD_SEED } from '../labelModels/goldReport';
import { argmax, type LabelModelName } from '../labelModels/labelModel';

/** How unsure a label model is of an item's true label, from its posterior over the labels. */
export interface ItemUncertainty {
  model: LabelModelName;
  /** entropy of the posterior over log(number of labels): 0 one label certain, 1 every label equally likely */
  entropy: number;
  /** the model's most probable label and its probability */
  label: string;
  probability: number;
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;

/**
 * Each labelled item's uncertainty under a label model fitted on every counted final label (the same fit and seed as
 * `aloud gold`, so the queue and the report agree). Empty when no model can be fitted (no labels, one label in use);
 * an item nobody labelled has none (the model would only repeat its prior).
 */
export function itemUncertainties(
  records: readonly LabelRecord[],
  labels: readonly string[],
  model: LabelModelName,
): Map<string, ItemUncertainty> {
  const annotations = records
    .filter((r) => r.final_label !== null && labels.includes(r.final_label))
    .map((r) => ({ item_id: r.item_id, annotator: r.annotator, label: r.final_label! }));
  const result = new Map<string, ItemUncertainty>();
  if (annotations.length === 0 || labels.length < 2) return result;
  let table;
  try {
    table = annotationTable(annotations, { labelOrder: labels });
  } catch (e) {
    if (e instanceof LabelModelInputError) return result;
    throw e;
  }
  const fit = fitLabelModel(model, { table, seed: DEFAULT_GOLD_SEED });
  const K = table.labels.length;
  table.items.forEach((itemId, i) => {
    let entropy = 0;
    for (let z = 0; z < K; z++) {
      const p = fit.posterior[i * K + z]!;
      if (p > 0) entropy -= p * Math.log(p);
    }
    const best = argmax(fit.posterior, i * K, K);
    result.set(itemId, {
      model,
      entropy: round(Math.min(1, Math.max(0, entropy / Math.log(K)))),
      label: table.labels[best]!,
      probability: round(fit.posterior[i * K + best]!),
    });
  });
  return result;
}
