import type { AgreementReport } from './agreementApi';
import type { LabelSchema } from '../project/projectConfig';
import type { ItemSessionState } from '../session/itemState';
import { krippendorffAlpha } from './krippendorff';

export interface AnnotatorLabels {
  annotator: string;
  items: readonly Pick<ItemSessionState, 'item_id' | 'blind_label' | 'final_label'>[];
}

/**
 * Agreement between annotators on the project's items: Krippendorff's alpha on the first (blind) labels and on
 * the final labels, nominal for an unordered schema and ordinal (labels in schema order) for an ordered one.
 * Labels no longer in the schema count as missing, so a renamed label never distorts the figures.
 */
export function agreementReport(
  schema: LabelSchema,
  itemIds: readonly string[],
  annotators: readonly AnnotatorLabels[],
): Omit<AgreementReport, 'time_on_item'> {
  const categories = schema.labels.map((l) => l.name);
  const known = new Set(categories);
  const level = schema.ordered ? 'ordinal' : 'nominal';
  const byAnnotator = annotators.map((a) => ({ annotator: a.annotator, items: new Map(a.items.map((i) => [i.item_id, i])) }));
  const labelOf = (v: string | null | undefined): string | null => (v != null && known.has(v) ? v : null);
  const table = itemIds.map((itemId) => ({
    item_id: itemId,
    labels: Object.fromEntries(
      byAnnotator.map((a) => {
        const state = a.items.get(itemId);
        return [a.annotator, { blind: labelOf(state?.blind_label), final: labelOf(state?.final_label) }];
      }),
    ),
  }));
  const unitsOf = (key: 'blind' | 'final') => table.map((row) => byAnnotator.map((a) => row.labels[a.annotator]![key]));
  return {
    annotators: byAnnotator.map((a) => a.annotator),
    items: itemIds.length,
    blind: krippendorffAlpha(unitsOf('blind'), categories, level),
    final: krippendorffAlpha(unitsOf('final'), categories, level),
    table,
  };
}
