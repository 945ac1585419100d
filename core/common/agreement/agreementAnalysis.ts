import {
  type AlphaLevel,
  type AlphaResult,
  alphaOf,
  bootstrapAlpha,
  coincidenceData,
  DEFAULT_BOOTSTRAP_RESAMPLES,
  DEFAULT_BOOTSTRAP_SEED,
} from './krippendorff';
import { Refusal } from '../refusal/refusal';

/** One annotator's labels on one item, from any source (session, export, CSV, room). */
export interface LabelRecord {
  item_id: string;
  annotator: string;
  /** the first label, before any discussion or change; null when unknown (a CSV has only one label) */
  blind_label: string | null;
  final_label: string | null;
  /**
   * Rooms log the majority of the others at the moment of a change; when present, the conformity count uses it
   * instead of the others' final labels (undefined: not logged, null: logged, and there was no majority).
   */
  majority_at_change?: string | null;
}

export interface AgreementOptions {
  level: AlphaLevel;
  /** the label order (schema order for ordinal); labels outside it count as missing. null: the labels seen */
  categories: readonly string[] | null;
  /** false for inputs with one label per pair (CSV): alpha_blind is then null */
  hasBlind: boolean;
  resamples?: number;
  seed?: number;
  /** item order of the report (e.g. the project's); items only in the records follow in first-seen order */
  itemIds?: readonly string[];
}

export interface Disagreement {
  item_id: string;
  /** distinct final labels */
  distinct_labels: number;
  /** final label per annotator who gave one */
  labels: Record<string, string>;
  /** blind label per annotator who gave one (empty without blind labels) */
  blind_labels: Record<string, string>;
}

export interface AnnotatorConformity {
  annotator: string;
  /** items with a final label */
  labels: number;
  /** items whose final label differs from the blind one */
  changes: number;
  /** of those, changes to the majority label of the *others* (so a 1–1 pair is not a permanent tie) */
  changes_toward_majority: number;
}

/** The `aloud agreement --json` contract (field names are stable). */
export interface AgreementAnalysis {
  level: AlphaLevel;
  alpha_blind: number | null;
  alpha_final: number | null;
  /** alpha_final − alpha_blind: what discussion or revision bought; null when either is undefined */
  alpha_lift: number | null;
  ci95_blind: [number, number] | null;
  ci95_final: [number, number] | null;
  /** of the final labels */
  pairable_units: number;
  pairable_values: number;
  /** items whose final labels differ, most distinct labels first */
  disagreements: Disagreement[];
  annotators: AnnotatorConformity[];
  items: number;
  categories: string[];
  blind: AlphaResult | null;
  final: AlphaResult;
  bootstrap: { method: 'percentile, resampling units with replacement'; resamples: number; seed: number };
  /** labels left out because they are not among the categories (e.g. renamed in the schema since) */
  ignored_labels: number;
}

export class AgreementInputError extends Refusal {
  override name = 'AgreementInputError';
  constructor(message: string) {
    super('bad_request', message);
  }
}

const isNumeric = (s: string): boolean => s.trim() !== '' && Number.isFinite(Number(s));

/** The categories of the labels seen: numeric order when every label is a number, else (nominal only) text order. */
export function categoriesOf(labels: Iterable<string>, level: AlphaLevel): string[] {
  const distinct = [...new Set(labels)];
  if (distinct.every(isNumeric)) return distinct.sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0));
  if (level !== 'nominal') {
    const bad = distinct.find((l) => !isNumeric(l))!;
    throw new AgreementInputError(
      level === 'ordinal'
        ? `the ordinal level needs an order: label "${bad}" is not a number (give --project for an ordered schema, or use numeric labels)`
        : `the ${level} level needs numeric labels; "${bad}" is not a number`,
    );
  }
  return distinct.sort();
}

/** The unique most frequent label, or null when there is none or a tie. */
export function majorityLabel(labels: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  let tie = false;
  for (const [label, count] of counts) {
    if (count > bestCount) [best, bestCount, tie] = [label, count, false];
    else if (count === bestCount) tie = true;
  }
  return tie ? null : best;
}

/** The records as a table: annotators and items in first-seen order (the given item order first), labels outside the categories left out. */
interface LabelTable {
  categories: string[];
  annotators: string[];
  itemIds: string[];
  byItem: Map<string, Map<string, { blind: string | null; final: string | null; majority?: string | null }>>;
  /** labels left out because they are not among the categories */
  ignored: number;
}

function labelTable(
  records: readonly LabelRecord[],
  options: Pick<AgreementOptions, 'level' | 'categories' | 'hasBlind' | 'itemIds'>,
): LabelTable {
  const seen = records.flatMap((r) => [r.blind_label, r.final_label].filter((l): l is string => l !== null));
  const categories = options.categories ? [...options.categories] : categoriesOf(seen, options.level);
  const known = new Set(categories);
  let ignored = 0;
  const keep = (l: string | null): string | null => {
    if (l === null) return null;
    if (known.has(l)) return l;
    ignored++;
    return null;
  };
  const annotators: string[] = [];
  const annotatorSet = new Set<string>();
  const itemIds: string[] = [...(options.itemIds ?? [])];
  const itemSet = new Set(itemIds);
  const byItem: LabelTable['byItem'] = new Map();
  for (const r of records) {
    if (!annotatorSet.has(r.annotator)) {
      annotatorSet.add(r.annotator);
      annotators.push(r.annotator);
    }
    if (!itemSet.has(r.item_id)) {
      itemSet.add(r.item_id);
      itemIds.push(r.item_id);
    }
    let row = byItem.get(r.item_id);
    if (!row) byItem.set(r.item_id, (row = new Map()));
    row.set(r.annotator, {
      blind: options.hasBlind ? keep(r.blind_label) : null,
      final: keep(r.final_label),
      ...(r.majority_at_change !== undefined ? { majority: r.majority_at_change } : {}),
    });
  }
  return { categories, annotators, itemIds, byItem, ignored };
}

/** Items whose final labels differ, most distinct labels first (equal counts keep the item order). */
function disagreementsOf(table: LabelTable): Disagreement[] {
  const disagreements: Disagreement[] = [];
  for (const id of table.itemIds) {
    const row = table.byItem.get(id);
    if (!row) continue;
    const labels: Record<string, string> = {};
    const blindLabels: Record<string, string> = {};
    for (const [a, l] of row) {
      if (l.final !== null) labels[a] = l.final;
      if (l.blind !== null) blindLabels[a] = l.blind;
    }
    const distinct = new Set(Object.values(labels)).size;
    if (distinct >= 2) disagreements.push({ item_id: id, distinct_labels: distinct, labels, blind_labels: blindLabels });
  }
  // stable sort: equal counts keep the item order
  disagreements.sort((x, y) => y.distinct_labels - x.distinct_labels);
  return disagreements;
}

/**
 * Only the disagreement list of agreementAnalysis (the same items in the same order), without alpha or its
 * intervals: what a huddle needs to choose its items.
 */
export function finalLabelDisagreements(
  records: readonly LabelRecord[],
  options: Pick<AgreementOptions, 'level' | 'categories' | 'hasBlind' | 'itemIds'>,
): Disagreement[] {
  return disagreementsOf(labelTable(records, options));
}

/** Agreement on blind and final labels with bootstrap intervals, the disagreement list and per-annotator conformity. */
export function agreementAnalysis(records: readonly LabelRecord[], options: AgreementOptions): AgreementAnalysis {
  const resamples = options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES;
  const seed = options.seed ?? DEFAULT_BOOTSTRAP_SEED;
  const table = labelTable(records, options);
  const { categories, annotators, itemIds, byItem } = table;
  const unitsOf = (key: 'blind' | 'final') => itemIds.map((id) => annotators.map((a) => byItem.get(id)?.get(a)?.[key] ?? null));
  const measure = (key: 'blind' | 'final') => {
    const data = coincidenceData(unitsOf(key), categories, options.level);
    return { result: alphaOf(data), ci: bootstrapAlpha(data, resamples, seed).ci95 };
  };
  const final = measure('final');
  const blind = options.hasBlind ? measure('blind') : null;
  const disagreements = disagreementsOf(table);

  const conformity = annotators.map((annotator): AnnotatorConformity => {
    let labels = 0;
    let changes = 0;
    let toward = 0;
    for (const row of byItem.values()) {
      const own = row.get(annotator);
      if (!own || own.final === null) continue;
      labels++;
      if (own.blind === null || own.blind === own.final) continue;
      changes++;
      const majority =
        own.majority !== undefined
          ? own.majority
          : majorityLabel([...row].filter(([a, l]) => a !== annotator && l.final !== null).map(([, l]) => l.final!));
      if (majority !== null && majority === own.final) toward++;
    }
    return { annotator, labels, changes, changes_toward_majority: toward };
  });

  const alphaBlind = blind?.result.alpha ?? null;
  const alphaFinal = final.result.alpha;
  return {
    level: options.level,
    alpha_blind: alphaBlind,
    alpha_final: alphaFinal,
    alpha_lift: alphaBlind !== null && alphaFinal !== null ? alphaFinal - alphaBlind : null,
    ci95_blind: blind?.ci ?? null,
    ci95_final: final.ci,
    pairable_units: final.result.pairable_units,
    pairable_values: final.result.pairable_values,
    disagreements,
    annotators: conformity,
    items: itemIds.length,
    categories,
    blind: blind?.result ?? null,
    final: final.result,
    bootstrap: { method: 'percentile, resampling units with replacement', resamples, seed },
    ignored_labels: table.ignored,
  };
}

/** Words for an undefined alpha, for people rather than programs. */
export function explainUndefinedAlpha(result: AlphaResult | null): string {
  if (result === null) return 'no blind labels in this input';
  if (result.undefined_reason === 'fewer_than_two_pairable_units') {
    return `not enough data: ${result.pairable_units === 0 ? 'no item has' : 'only one item has'} labels from two or more annotators`;
  }
  if (result.undefined_reason === 'no_variation')
    return 'not enough data: every label is the same, so agreement cannot be told from chance';
  return '';
}
