/**
 * Annotations as dense integer columns, the shape every label model here fits: one row per annotation (an annotator's
 * label on an item), items, annotators and labels numbered in a fixed order so a seed gives the same answer every run.
 */

/** One annotator's label on one item. The same pair may repeat (Dawid & Skene's observer 1 rated every patient three times). */
export interface Annotation {
  item_id: string;
  annotator: string;
  label: string;
}

export interface AnnotationTable {
  items: readonly string[];
  annotators: readonly string[];
  /** the label set, in the given order (a schema's) or first-seen order */
  labels: readonly string[];
  /** per annotation: item index, annotator index, label index */
  item: Int32Array;
  annotator: Int32Array;
  label: Int32Array;
  /** annotations of item i are byItem[byItemStart[i] .. byItemStart[i+1]) (annotation indices) */
  byItemStart: Int32Array;
  byItem: Int32Array;
}

/** A refusal a person can act on: the text names what is wrong with the labels given. */
export class LabelModelInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabelModelInputError';
  }
}

/**
 * Numbers the annotations. `labelOrder` fixes the label set (labels outside it are refused, so a typo does not become
 * a class); `itemOrder` fixes the item order (items only in the annotations follow in first-seen order).
 */
export function annotationTable(
  annotations: readonly Annotation[],
  options: { labelOrder?: readonly string[]; itemOrder?: readonly string[] } = {},
): AnnotationTable {
  const itemIndex = new Map<string, number>();
  const annotatorIndex = new Map<string, number>();
  const labelIndex = new Map<string, number>();
  for (const id of options.itemOrder ?? []) if (!itemIndex.has(id)) itemIndex.set(id, itemIndex.size);
  for (const l of options.labelOrder ?? []) if (!labelIndex.has(l)) labelIndex.set(l, labelIndex.size);
  const fixedLabels = options.labelOrder !== undefined && options.labelOrder.length > 0;
  const n = annotations.length;
  const item = new Int32Array(n);
  const annotator = new Int32Array(n);
  const label = new Int32Array(n);
  annotations.forEach((a, k) => {
    if (a.item_id === '' || a.annotator === '' || a.label === '')
      throw new LabelModelInputError(`annotation ${k + 1}: item, annotator and label must not be empty`);
    let l = labelIndex.get(a.label);
    if (l === undefined) {
      if (fixedLabels)
        throw new LabelModelInputError(
          `annotation ${k + 1}: label "${a.label}" of "${a.annotator}" on item "${a.item_id}" is not one of ${[...labelIndex.keys()].join(', ')}`,
        );
      l = labelIndex.size;
      labelIndex.set(a.label, l);
    }
    let i = itemIndex.get(a.item_id);
    if (i === undefined) itemIndex.set(a.item_id, (i = itemIndex.size));
    let j = annotatorIndex.get(a.annotator);
    if (j === undefined) annotatorIndex.set(a.annotator, (j = annotatorIndex.size));
    item[k] = i;
    annotator[k] = j;
    label[k] = l;
  });
  const items = [...itemIndex.keys()];
  const byItemStart = new Int32Array(items.length + 1);
  for (let k = 0; k < n; k++) byItemStart[item[k]! + 1]!++;
  for (let i = 0; i < items.length; i++) byItemStart[i + 1]! += byItemStart[i]!;
  const fill = byItemStart.slice(0, items.length);
  const byItem = new Int32Array(n);
  for (let k = 0; k < n; k++) byItem[fill[item[k]!]!++] = k;
  return { items, annotators: [...annotatorIndex.keys()], labels: [...labelIndex.keys()], item, annotator, label, byItemStart, byItem };
}
