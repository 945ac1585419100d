import { escapeHtml } from './agreementHtml';
import { formatDuration, type TimeOnItemReport } from './timeOnItem';

/** The report's section on time on item: medians and totals per annotator, then each item's active / wall time. */
export function timeOnItemHtml(report: TimeOnItemReport): string {
  const names = report.annotators.map((a) => a.annotator);
  const annotatorRows = report.annotators
    .map(
      (a) =>
        `<tr><td>${escapeHtml(a.annotator)}</td><td>${a.items}</td><td>${formatDuration(a.median_active_ms)}</td><td>${formatDuration(a.median_wall_ms)}</td><td>${formatDuration(a.items === 0 ? null : a.total_active_ms)}</td><td>${formatDuration(a.items === 0 ? null : a.total_wall_ms)}</td></tr>`,
    )
    .join('');
  const itemRows = report.items
    .map(
      (row) =>
        `<tr><td><code>${escapeHtml(row.item_id)}</code></td>${names
          .map((n) => {
            const t = row.times[n];
            return `<td>${t ? `${formatDuration(t.active_ms)} / ${formatDuration(t.wall_ms)}` : '—'}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('');
  return `<h2>Time on item</h2>
<p class="muted">Active time counts input, speech and playback; a gap between acts longer than ${formatDuration(report.idle_gap_ms)} counts as idle (aloud.yaml time_on_item.idle_gap_seconds). Wall time is how long the item was open in the annotator's own sittings. Completed items only.</p>
<table class="time-per-annotator"><tr><th>annotator</th><th>items</th><th>median active</th><th>median wall</th><th>total active</th><th>total wall</th></tr>${annotatorRows}</table>
${report.items.length === 0 ? '' : `<h3>Per item: active / wall</h3>\n<table class="time-per-item"><tr><th>item</th>${names.map((n) => `<th>${escapeHtml(n)}</th>`).join('')}</tr>${itemRows}</table>`}
`;
}
