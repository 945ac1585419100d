import {
  alphaOf,
  bootstrapAlpha,
  coincidenceData,
  DEFAULT_BOOTSTRAP_RESAMPLES,
  DEFAULT_BOOTSTRAP_SEED,
  type AlphaLevel,
} from '../agreement/krippendorff';
import type { HesitationMeasures } from '../labelModels/hesitationEvidence';
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

/** How often labels of one kind were overturned by the adjudicator: counts, share, Wilson 95% interval. */
export interface OverturnRate {
  /** counted final labels on adjudicated items */
  labels: number;
  /** of them, labels the decision did not adopt */
  overturned: number;
  rate: number | null;
  ci95: [number, number] | null;
}

/** Were hesitant annotators' labels overturned more often than confident ones'? Adjudicated items only. */
export interface HesitationOverturns {
  definition: string;
  hesitant: OverturnRate;
  confident: OverturnRate;
  /** labels whose protocol has no hesitation measures (labelled without speaking, or before signals were measured) */
  unmeasured: number;
  /** hesitant rate − confident rate, with Newcombe's hybrid score 95% interval; null when either has no labels */
  difference: { rate: number; ci95: [number, number] } | null;
}

/** The `gold` part of the agreement report: annotators against gold, causes by count, guideline flags with their items. */
export interface GoldAgreementReport {
  gold_items: number;
  sources: Record<string, number>;
  annotators: AnnotatorGoldAgreement[];
  causes: Array<{ cause: string; count: number }>;
  guideline_flags: Array<{ item_id: string; text: string; adjudicator: string; decided_at: string }>;
  /** with the protocols' hesitation measures: overturn rates of hesitant and confident labels */
  hesitation?: HesitationOverturns;
}

/** What marks a label as hesitant, as the report says it. */
export const HESITANT_DEFINITION =
  'hesitant: the protocol changed its label at least once, or has a hedge or a filled pause; confident: measured, and none of these';

/** A label's hesitation from its protocol's measures: null when they did not measure changes, hedges and filled pauses. */
export function isHesitant(m: Pick<HesitationMeasures, 'label_changes' | 'hedges' | 'filled_pauses'> | null): boolean | null {
  if (!m || (m.label_changes === null && m.hedges === null && m.filled_pauses === null)) return null;
  return (m.label_changes ?? 0) > 0 || (m.hedges ?? 0) > 0 || (m.filled_pauses ?? 0) > 0;
}

/** Newcombe's (1998, method 10) hybrid score interval of p1 − p2 from the two Wilson intervals. */
export function newcombeDifference(k1: number, n1: number, k2: number, n2: number): { rate: number; ci95: [number, number] } | null {
  const w1 = wilsonInterval(k1, n1);
  const w2 = wilsonInterval(k2, n2);
  if (!w1 || !w2) return null;
  const p1 = k1 / n1;
  const p2 = k2 / n2;
  const d = p1 - p2;
  const lower = d - Math.sqrt((p1 - w1[0]) ** 2 + (w2[1] - p2) ** 2);
  const upper = d + Math.sqrt((w1[1] - p1) ** 2 + (p2 - w2[0]) ** 2);
  return { rate: d, ci95: [Math.max(-1, lower), Math.min(1, upper)] };
}

function overturnRate(overturned: number, labels: number): OverturnRate {
  return { labels, overturned, rate: labels === 0 ? null : overturned / labels, ci95: wilsonInterval(overturned, labels) };
}

/** Each counted final label on an adjudicated item: hesitant or confident (by its protocol), overturned or adopted. */
export function hesitationOverturns(
  queue: AdjudicationQueue,
  measuresOf: (itemId: string, annotator: string) => HesitationMeasures | null,
): HesitationOverturns {
  const counts = { hesitant: [0, 0], confident: [0, 0] };
  let unmeasured = 0;
  for (const s of queue.decided) {
    for (const l of s.labels) {
      const hesitant = isHesitant(measuresOf(s.item_id, l.annotator));
      if (hesitant === null) {
        unmeasured++;
        continue;
      }
      const tally = counts[hesitant ? 'hesitant' : 'confident'];
      tally[0]!++;
      if (l.label !== s.decision!.label) tally[1]!++;
    }
  }
  const [hn, hk] = counts.hesitant as [number, number];
  const [cn, ck] = counts.confident as [number, number];
  return {
    definition: HESITANT_DEFINITION,
    hesitant: overturnRate(hk, hn),
    confident: overturnRate(ck, cn),
    unmeasured,
    difference: newcombeDifference(hk, hn, ck, cn),
  };
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
  measuresOf?: (itemId: string, annotator: string) => HesitationMeasures | null,
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
    ...(measuresOf ? { hesitation: hesitationOverturns(queue, measuresOf) } : {}),
  };
}

const share = (r: OverturnRate): string =>
  r.rate === null
    ? `${r.overturned} of ${r.labels}`
    : `${r.overturned} of ${r.labels} (${(100 * r.rate).toFixed(1)}%, 95% [${(100 * r.ci95![0]).toFixed(1)}%, ${(100 * r.ci95![1]).toFixed(1)}%])`;

/** One line: hesitant labels overturned vs confident ones, and the difference with its interval. */
export function describeHesitationOverturns(h: HesitationOverturns): string {
  const difference = h.difference
    ? `; difference ${(100 * h.difference.rate).toFixed(1)} points, 95% [${(100 * h.difference.ci95[0]).toFixed(1)}, ${(100 * h.difference.ci95[1]).toFixed(1)}]`
    : '';
  return `overturned on adjudicated items: hesitant labels ${share(h.hesitant)}, confident ${share(h.confident)}${difference}${h.unmeasured > 0 ? ` (${h.unmeasured} without hesitation measures left out)` : ''}`;
}
