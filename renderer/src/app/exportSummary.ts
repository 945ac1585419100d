import type { ExportSummary } from '../../../core/common/contract/aloudApi';

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
const have = (n: number): string => (n === 1 ? 'has' : 'have');

/** "Exported 20 records (20 items × ana); 18 items have no audio, 19 have no label." — an export, in words. */
export function exportSummaryWords(summary: ExportSummary): string {
  const c = summary.counts;
  if (!c) return `Exported ${plural(summary.records, 'record', 'records')} (${plural(summary.gaps, 'gap', 'gaps')}).`;
  const who = summary.annotators && summary.annotators.length > 0 ? summary.annotators.join(', ') : plural(c.annotators, 'annotator', 'annotators');
  const missing = ([
    [summary.records - c.with_audio, 'no audio'],
    [summary.records - c.with_transcript, 'no transcript'],
    [summary.records - c.with_final_label, 'no label'],
  ] as const).filter(([n]) => n > 0);
  const head = `Exported ${plural(summary.records, 'record', 'records')} (${plural(c.items, 'item', 'items')} × ${who})`;
  if (missing.length === 0) return `${head}; every record has audio, a transcript and a label.`;
  const parts = missing.map(([n, what], i) => (i === 0 ? `${plural(n, 'item', 'items')} ${have(n)} ${what}` : `${n} ${have(n)} ${what}`));
  return `${head}; ${parts.join(', ')}.`;
}
