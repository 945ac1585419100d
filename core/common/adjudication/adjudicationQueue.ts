import type { LabelRecord } from '../agreement/agreementAnalysis';
import { majorityLabel } from '../agreement/agreementAnalysis';
import type { AdjudicationConfig } from '../project/projectConfig';
import type { LabelSeen } from './adjudicationEvents';
import { currentDecision, type AdjudicationState, type DecisionRevision } from './adjudicationFold';
import { itemUncertainties, type ItemUncertainty } from './itemUncertainty';

/** Where an item's gold label comes from. `majority`: agreement at or above a threshold below 1 (aloud.yaml). */
export type GoldSource = 'unanimous' | 'majority' | 'adjudicated' | 'model' | 'unresolved';
export const GOLD_SOURCES: readonly GoldSource[] = ['unanimous', 'majority', 'adjudicated', 'model', 'unresolved'];

/** Where an item stands: accepted by agreement, waiting in the queue, decided, with too few labels to tell, or with none. */
export type ItemStatus = 'accepted' | 'queued' | 'decided' | 'too_few' | 'unlabelled';

export interface ItemStanding {
  item_id: string;
  status: ItemStatus;
  /** share of annotator pairs whose final labels agree; null with fewer than two labels */
  agreement: number | null;
  /** counted final labels (completed items only), by annotator name */
  labels: LabelSeen[];
  /** first (blind) labels, by annotator name */
  blind_labels: LabelSeen[];
  gold_label: string | null;
  gold_source: GoldSource;
  decision: DecisionRevision | null;
  /** decisions on the item before the one that stands */
  revisions: number;
  /** annotators the item was assigned to (and who may not have labelled it yet) */
  assigned_to: string[];
  /** how unsure the label model (adjudication.label_model) is of its true label; null when nobody labelled it or no model fits */
  uncertainty: ItemUncertainty | null;
}

export interface AdjudicationQueue {
  /**
   * undecided items whose agreement is below the threshold, in adjudication.order: lowest agreement first (equal: least
   * certain first), or least certain first (equal: lowest agreement); then project item order
   */
  queue: ItemStanding[];
  decided: ItemStanding[];
  accepted: ItemStanding[];
  /** items with at least one completed label but fewer than min_annotators */
  too_few: ItemStanding[];
  /** every item of the project in its order, and items only in the labels or decisions after them */
  items: Map<string, ItemStanding>;
  counts: {
    items: number;
    unanimous: number;
    majority: number;
    decided: number;
    unresolved: number;
    queued: number;
    too_few: number;
    unlabelled: number;
  };
}

/** Share of the pairs of labels that agree (1: unanimous); null for fewer than two labels. */
export function pairwiseAgreement(labels: readonly string[]): number | null {
  const n = labels.length;
  if (n < 2) return null;
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  let agreeing = 0;
  for (const c of counts.values()) agreeing += c * (c - 1);
  return agreeing / (n * (n - 1));
}

/**
 * The adjudication queue as a pure function of the annotators' counted labels and the adjudicators' logs. A decision
 * stands once made (the log is the record), even when later labels would agree; the threshold only decides which
 * undecided items wait for one. With the schema's `labels`, a label model says how uncertain each item is (the order's
 * key or tie-break); without them no item has an uncertainty.
 */
export function adjudicationQueue(
  itemIds: readonly string[],
  records: readonly LabelRecord[],
  config: AdjudicationConfig,
  adjudication: AdjudicationState,
  labels?: readonly string[],
): AdjudicationQueue {
  const uncertainties = labels ? itemUncertainties(records, labels, config.label_model) : new Map<string, ItemUncertainty>();
  const order: string[] = [...itemIds];
  const known = new Set(order);
  const byItem = new Map<string, LabelRecord[]>();
  for (const r of records) {
    if (!known.has(r.item_id)) {
      known.add(r.item_id);
      order.push(r.item_id);
    }
    const list = byItem.get(r.item_id) ?? [];
    list.push(r);
    byItem.set(r.item_id, list);
  }
  for (const id of adjudication.decisions.keys()) {
    if (!known.has(id)) {
      known.add(id);
      order.push(id);
    }
  }
  const items = new Map<string, ItemStanding>();
  for (const id of order) {
    const own = (byItem.get(id) ?? []).slice().sort((a, b) => (a.annotator < b.annotator ? -1 : a.annotator > b.annotator ? 1 : 0));
    const labels = own.filter((r) => r.final_label !== null).map((r) => ({ annotator: r.annotator, label: r.final_label! }));
    const blind = own.filter((r) => r.blind_label !== null).map((r) => ({ annotator: r.annotator, label: r.blind_label! }));
    const agreement = pairwiseAgreement(labels.map((l) => l.label));
    const decision = currentDecision(adjudication, id);
    const assigned = [...new Set(adjudication.assignments.filter((a) => a.item_id === id).map((a) => a.annotator))];
    const revisions = Math.max(0, (adjudication.decisions.get(id)?.length ?? 0) - 1);
    const uncertainty = uncertainties.get(id) ?? null;
    const base = { item_id: id, agreement, labels, blind_labels: blind, decision, revisions, assigned_to: assigned, uncertainty };
    let standing: ItemStanding;
    if (decision) standing = { ...base, status: 'decided', gold_label: decision.label, gold_source: 'adjudicated' };
    else if (labels.length === 0) standing = { ...base, status: 'unlabelled', gold_label: null, gold_source: 'unresolved' };
    else if (labels.length < config.min_annotators || agreement === null)
      standing = { ...base, status: 'too_few', gold_label: null, gold_source: 'unresolved' };
    else if (agreement === 1 && config.accept_unanimous)
      standing = { ...base, status: 'accepted', gold_label: labels[0]!.label, gold_source: 'unanimous' };
    else if (agreement < 1 && agreement >= config.threshold) {
      // the threshold is at least 0.5 (aloud.yaml), where one label always has a strict majority
      standing = { ...base, status: 'accepted', gold_label: majorityLabel(labels.map((l) => l.label)), gold_source: 'majority' };
    } else standing = { ...base, status: 'queued', gold_label: null, gold_source: 'unresolved' };
    items.set(id, standing);
  }
  const all = [...items.values()];
  const queue = all.filter((s) => s.status === 'queued');
  const position = new Map(order.map((id, i) => [id, i]));
  // least certain first; an item without an uncertainty after those with one
  const byUncertainty = (a: ItemStanding, b: ItemStanding) => (b.uncertainty?.entropy ?? -1) - (a.uncertainty?.entropy ?? -1);
  const byAgreement = (a: ItemStanding, b: ItemStanding) => a.agreement! - b.agreement!;
  const [first, second] = config.order === 'uncertainty' ? [byUncertainty, byAgreement] : [byAgreement, byUncertainty];
  queue.sort((a, b) => first(a, b) || second(a, b) || position.get(a.item_id)! - position.get(b.item_id)!);
  const accepted = all.filter((s) => s.status === 'accepted');
  const decided = all.filter((s) => s.status === 'decided');
  const tooFew = all.filter((s) => s.status === 'too_few');
  const unlabelled = all.filter((s) => s.status === 'unlabelled').length;
  return {
    queue,
    decided,
    accepted,
    too_few: tooFew,
    items,
    counts: {
      items: all.length,
      unanimous: accepted.filter((s) => s.gold_source === 'unanimous').length,
      majority: accepted.filter((s) => s.gold_source === 'majority').length,
      decided: decided.length,
      unresolved: queue.length + tooFew.length + unlabelled,
      queued: queue.length,
      too_few: tooFew.length,
      unlabelled,
    },
  };
}

/**
 * The names the lead sees for an item's annotators: their own, or with blind_names "Annotator 1…n" in an order of
 * the item's own (a hash of item and name), so a position never follows one person from item to item.
 */
export function shownAnnotators(
  itemId: string,
  annotators: readonly string[],
  blind: boolean,
): Array<{ annotator: string; shown: string }> {
  if (!blind) return annotators.map((a) => ({ annotator: a, shown: a }));
  const ranked = [...annotators].sort((a, b) => fnv1a(`${itemId}\u0000${a}`) - fnv1a(`${itemId}\u0000${b}`) || (a < b ? -1 : 1));
  return ranked.map((annotator, i) => ({ annotator, shown: `Annotator ${i + 1}` }));
}

/** 32-bit FNV-1a of a string's UTF-16 units: a stable, well-spread order, not a secret. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
