import type { Annotation } from '../labelModels/annotationTable';
import { DEFAULT_GOLD_RESAMPLES } from '../labelModels/bootstrapIntervals';
import { DEFAULT_GOLD_SEED, goldReport } from '../labelModels/goldReport';
import type { LabelModelName } from '../labelModels/labelModel';
import type { AdjudicationQueue } from './adjudicationQueue';
import type { ModelGold } from './goldRecord';

/** Every counted final label of the queue's items, as a label model reads them (items in the queue's order). */
export function queueAnnotations(queue: AdjudicationQueue): Annotation[] {
  return [...queue.items.values()].flatMap((s) => s.labels.map((l) => ({ item_id: s.item_id, annotator: l.annotator, label: l.label })));
}

/**
 * A label model's gold label for every labelled item, with its probability and bootstrap interval (goldReport), for
 * the export to fill the items nobody agreed on or adjudicated. Fitted over all the counted final labels; an item
 * nobody labelled gets none (a label model never gives a label nobody gave evidence for).
 */
export function modelGoldLabels(
  queue: AdjudicationQueue,
  labels: readonly string[],
  model: LabelModelName,
  options: { resamples?: number; seed?: number } = {},
): Map<string, ModelGold> {
  const report = goldReport(queueAnnotations(queue), {
    model,
    labelOrder: labels,
    itemOrder: [...queue.items.keys()],
    resamples: options.resamples ?? DEFAULT_GOLD_RESAMPLES,
    seed: options.seed ?? DEFAULT_GOLD_SEED,
  });
  return new Map(report.items.map((i) => [i.item_id, { label: i.label, model, probability: i.probability, ci95: i.ci95 }]));
}
