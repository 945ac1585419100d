import type { ItemTimeline, TimedSpan } from './itemTimeline';

/** Seconds as Praat writes them: milliseconds exactly, no trailing zeros. */
const seconds = (ms: number): string => String(ms / 1000);

/** A TextGrid string: in double quotes, a double quote doubled (Praat's own escaping). */
const quoted = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/** An interval tier covers its whole range in Praat: the gaps between spans become empty intervals. */
export function textGridIntervals(spans: readonly TimedSpan[], durationMs: number): TimedSpan[] {
  const out: TimedSpan[] = [];
  let at = 0;
  for (const s of spans) {
    if (s.t0_ms > at) out.push({ t0_ms: at, t1_ms: s.t0_ms, text: '' });
    out.push(s);
    at = s.t1_ms;
  }
  if (at < durationMs || out.length === 0) out.push({ t0_ms: at, t1_ms: durationMs, text: '' });
  return out;
}

/**
 * A Praat TextGrid in the long text format (UTF-8): an IntervalTier per span tier, a TextTier (points) per
 * instant tier, in timeline order, over [0, the item's audio length].
 */
export function textGridDocument(timeline: ItemTimeline): string {
  const end = timeline.duration_ms;
  const lines = [
    'File type = "ooTextFile"',
    'Object class = "TextGrid"',
    '',
    'xmin = 0 ',
    `xmax = ${seconds(end)} `,
    'tiers? <exists> ',
    `size = ${timeline.tiers.length} `,
    'item []: ',
  ];
  timeline.tiers.forEach((tier, t) => {
    lines.push(`    item [${t + 1}]:`);
    lines.push(
      `        class = "${tier.kind === 'interval' ? 'IntervalTier' : 'TextTier'}" `,
      `        name = ${quoted(tier.name)} `,
      '        xmin = 0 ',
      `        xmax = ${seconds(end)} `,
    );
    if (tier.kind === 'interval') {
      const intervals = textGridIntervals(tier.spans, end);
      lines.push(`        intervals: size = ${intervals.length} `);
      intervals.forEach((s, i) => {
        lines.push(
          `        intervals [${i + 1}]:`,
          `            xmin = ${seconds(s.t0_ms)} `,
          `            xmax = ${seconds(s.t1_ms)} `,
          `            text = ${quoted(s.text)} `,
        );
      });
    } else {
      lines.push(`        points: size = ${tier.points.length} `);
      tier.points.forEach((p, i) => {
        lines.push(`        points [${i + 1}]:`, `            number = ${seconds(p.t_ms)} `, `            mark = ${quoted(p.text)} `);
      });
    }
  });
  return `${lines.join('\n')}\n`;
}
