import { formatDuration, type TimeOnItemReport } from '../../../../core/common/agreement/timeOnItem';

/**
 * Time on item per annotator (medians and totals of active and wall time) and per item, over the items each annotator
 * completed: the Agreement tab's part of the figures the lead's report and the export carry.
 */
export function TimeOnItemPanel({ report }: { report: TimeOnItemReport }) {
  const names = report.annotators.map((a) => a.annotator);
  return (
    <section className="time-on-item" aria-label="Time on item">
      <h3>Time on item</h3>
      <p className="muted">
        Active time counts input, speech and playback; a gap between acts longer than {formatDuration(report.idle_gap_ms)} counts as idle.
        Wall time is how long the item was open in the annotator's own sittings. Completed items only.
      </p>
      <table className="time-per-annotator">
        <thead>
          <tr>
            <th>Annotator</th>
            <th>Items</th>
            <th>Median active</th>
            <th>Median wall</th>
            <th>Total active</th>
            <th>Total wall</th>
          </tr>
        </thead>
        <tbody>
          {report.annotators.map((a) => (
            <tr key={a.annotator} data-annotator={a.annotator}>
              <td>{a.annotator}</td>
              <td>{a.items}</td>
              <td>{formatDuration(a.median_active_ms)}</td>
              <td>{formatDuration(a.median_wall_ms)}</td>
              <td>{formatDuration(a.items === 0 ? null : a.total_active_ms)}</td>
              <td>{formatDuration(a.items === 0 ? null : a.total_wall_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.items.length > 0 && (
        <details>
          <summary>Per item ({report.items.length}): active / wall</summary>
          <table className="time-per-item">
            <thead>
              <tr>
                <th>Item</th>
                {names.map((n) => (
                  <th key={n}>{n}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {report.items.map((row) => (
                <tr key={row.item_id} data-item={row.item_id}>
                  <td>
                    <code>{row.item_id}</code>
                  </td>
                  {names.map((n) => {
                    const t = row.times[n];
                    return <td key={n}>{t ? `${formatDuration(t.active_ms)} / ${formatDuration(t.wall_ms)}` : '—'}</td>;
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </section>
  );
}
