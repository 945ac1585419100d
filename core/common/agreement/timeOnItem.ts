/**
 * Time on item per item and annotator, for the Agreement tab and the lead's report: each annotator's active time
 * (her own acts with the gaps between them up to the idle gap bound, core/common/session/activeTime.ts) and wall time
 * (the item open in her own sittings), over the items she completed, with the medians per annotator.
 */

/** One annotator's time on one item she completed. */
export interface TimeOnItemEntry {
  item_id: string;
  annotator: string;
  active_ms: number;
  wall_ms: number;
}

export interface AnnotatorTimeOnItem {
  annotator: string;
  /** completed items with a time */
  items: number;
  median_active_ms: number | null;
  median_wall_ms: number | null;
  total_active_ms: number;
  total_wall_ms: number;
}

export interface TimeOnItemReport {
  /** the idle gap bound the active times were counted with, ms (aloud.yaml time_on_item.idle_gap_seconds) */
  idle_gap_ms: number;
  annotators: AnnotatorTimeOnItem[];
  /** per item (in the project's order), each annotator's times on it */
  items: Array<{ item_id: string; times: Record<string, { active_ms: number; wall_ms: number }> }>;
}

/** The median of the values (the mean of the middle two for an even count, rounded to the ms); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

/** The report over the entries: every annotator named (also one with no completed item yet), items in the order given. */
export function timeOnItemReport(
  entries: readonly TimeOnItemEntry[],
  annotators: readonly string[],
  itemIds: readonly string[],
  idleGapMs: number,
): TimeOnItemReport {
  const byItem = new Map<string, Record<string, { active_ms: number; wall_ms: number }>>();
  for (const e of entries) {
    const times = byItem.get(e.item_id) ?? {};
    times[e.annotator] = { active_ms: e.active_ms, wall_ms: e.wall_ms };
    byItem.set(e.item_id, times);
  }
  const order = [...itemIds, ...[...byItem.keys()].filter((id) => !itemIds.includes(id))];
  return {
    idle_gap_ms: idleGapMs,
    annotators: annotators.map((annotator) => {
      const own = entries.filter((e) => e.annotator === annotator);
      return {
        annotator,
        items: own.length,
        median_active_ms: median(own.map((e) => e.active_ms)),
        median_wall_ms: median(own.map((e) => e.wall_ms)),
        total_active_ms: own.reduce((n, e) => n + e.active_ms, 0),
        total_wall_ms: own.reduce((n, e) => n + e.wall_ms, 0),
      };
    }),
    items: order.flatMap((item_id) => {
      const times = byItem.get(item_id);
      return times ? [{ item_id, times }] : [];
    }),
  };
}

/** A duration as a person reads it in the English report and CLI: "42.5 s", "4 min 05 s", "1 h 02 min"; "—" for none. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
