import {
  alphaOf,
  bootstrapAlpha,
  coincidenceData,
  DEFAULT_BOOTSTRAP_RESAMPLES,
  DEFAULT_BOOTSTRAP_SEED,
  type AlphaLevel,
} from '../agreement/krippendorff';
import type { AdjudicationQueue } from './adjudicationQueue';

/** One annotator against the gold labels: share of her final labels that are gold, and alpha of the pair with its interval. */
export interface AnnotatorGoldAgreement {
  annotator: string;
  /** items with both a gold label and her final label */
  items: number;
  matches: number;
  /** matches / items; null without items */
  accuracy: number | null;
  /** Wilson score 95% interval of the accuracy */
  accuracy_ci95: [number, number] | null;
  /** Krippendorff's alpha of her final labels and the gold labels, with the percentile bootstrap's 95% interval */
  alpha: number | null;
  alpha_ci95: [number, number] | null;
}

/** The `gold` part of the agreement report: annotators against gold, causes by count, guideline flags with their items. */
export interface GoldAgreementReport {
  gold_items: number;
  sources: Record<string, number>;
  annotators: AnnotatorGoldAgreement[];
  causes: Array<{ cause: string; count: number }>;
  guideline_flags: Array<{ item_id: string; text: string; adjudicator: string; decided_at: string }>;
}

/** Wilson score interval (z = 1.96): stays inside [0, 1] and is honest at 0 and n matches, unlike the normal one. */
export function wilsonInterval(successes: number, n: number): [number, number] | null {
  if (n === 0) return null;
  const z = 1.959963984540054;
  const p = successes / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  // at 0 or n successes the bound is 0 or 1 exactly (rounding would leave 0.9999999999999999)
  return [successes === 0 ? 0 : Math.max(0, centre - half), successes === n ? 1 : Math.min(1, centre + half)];
}

/** Every item with a gold label (unanimous, majority, adjudicated), each annotator measured against it. */
export function goldAgreement(
  queue: AdjudicationQueue,
  categories: readonly string[],
  level: AlphaLevel,
  resamples = DEFAULT_BOOTSTRAP_RESAMPLES,
  seed = DEFAULT_BOOTSTRAP_SEED,
): GoldAgreementReport {
  const gold = [...queue.items.values()].filter((s) => s.gold_label !== null);
  const annotators = [...new Set([...queue.items.values()].flatMap((s) => s.labels.map((l) => l.annotator)))].sort();
  const sources: Record<string, number> = {};
  for (const s of queue.items.values()) sources[s.gold_source] = (sources[s.gold_source] ?? 0) + 1;
  const measured = annotators.map((annotator): AnnotatorGoldAgreement => {
    const pairs = gold.flatMap((s) => {
      const own = s.labels.find((l) => l.annotator === annotator);
      return own ? [[own.label, s.gold_label!] as const] : [];
    });
    const matches = pairs.filter(([a, g]) => a === g).length;
    const data = coincidenceData(
      pairs.map(([a, g]) => [a, g]),
      categories,
      level,
    );
    const alpha = alphaOf(data).alpha;
    return {
      annotator,
      items: pairs.length,
      matches,
      accuracy: pairs.length === 0 ? null : matches / pairs.length,
      accuracy_ci95: wilsonInterval(matches, pairs.length),
      alpha,
      alpha_ci95: alpha === null ? null : bootstrapAlpha(data, resamples, seed).ci95,
    };
  });
  const causes = new Map<string, number>();
  const flags: GoldAgreementReport['guideline_flags'] = [];
  for (const s of queue.decided) {
    for (const cause of s.decision!.causes) causes.set(cause, (causes.get(cause) ?? 0) + 1);
    if (s.decision!.guideline_flag !== null)
      flags.push({
        item_id: s.item_id,
        text: s.decision!.guideline_flag,
        adjudicator: s.decision!.adjudicator,
        decided_at: s.decision!.decided_at,
      });
  }
  return {
    gold_items: gold.length,
    sources,
    annotators: measured,
    causes: [...causes].map(([cause, count]) => ({ cause, count })).sort((a, b) => b.count - a.count || (a.cause < b.cause ? -1 : 1)),
    guideline_flags: flags,
  };
}
