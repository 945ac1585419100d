import { formatDuration } from '../i18n/duration';
import { escapeHtml } from './agreementHtml';
import { reportWords, type ReportMessageId, type ReportWords } from './reportWords';
import type { TimeOnItemReport } from './timeOnItem';

/** The report's section on time on item: medians and totals per annotator, then each item's active / wall time. */
export function timeOnItemHtml(report: TimeOnItemReport, t: ReportWords = reportWords('en')): string {
  const e = (id: ReportMessageId, values?: Readonly<Record<string, string | number>>) => escapeHtml(t(id, values));
  const d = (ms: number | null): string => (ms === null ? '—' : formatDuration(ms, t.locale));
  const names = report.annotators.map((a) => a.annotator);
  const annotatorRows = report.annotators
    .map(
      (a) =>
        `<tr><td>${escapeHtml(a.annotator)}</td><td>${a.items}</td><td>${d(a.median_active_ms)}</td><td>${d(a.median_wall_ms)}</td><td>${d(a.items === 0 ? null : a.total_active_ms)}</td><td>${d(a.items === 0 ? null : a.total_wall_ms)}</td></tr>`,
    )
    .join('');
  const itemRows = report.items
    .map(
      (row) =>
        `<tr><td><code>${escapeHtml(row.item_id)}</code></td>${names
          .map((n) => {
            const time = row.times[n];
            return `<td>${time ? e('report.time.pair', { active: d(time.active_ms), wall: d(time.wall_ms) }) : '—'}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('');
  const head = (['annotator', 'items', 'medianActive', 'medianWall', 'totalActive', 'totalWall'] as const)
    .map((k) => `<th>${e(`report.time.${k}`)}</th>`)
    .join('');
  return `<h2>${e('report.time.heading')}</h2>
<p class="muted">${e('report.time.note', { gap: d(report.idle_gap_ms) })}</p>
<table class="time-per-annotator"><tr>${head}</tr>${annotatorRows}</table>
${report.items.length === 0 ? '' : `<h3>${e('report.time.perItem')}</h3>\n<table class="time-per-item"><tr><th>${e('report.time.item')}</th>${names.map((n) => `<th>${escapeHtml(n)}</th>`).join('')}</tr>${itemRows}</table>`}
`;
}
