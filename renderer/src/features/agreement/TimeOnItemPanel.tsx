import { FormattedMessage, useIntl } from 'react-intl';
import type { TimeOnItemReport } from '../../../../core/common/agreement/timeOnItem';
import { useFormatDuration } from '../../shared/i18n/useDuration';

/**
 * Time on item per annotator (medians and totals of active and wall time) and per item, over the items each annotator
 * completed: the Agreement tab's part of the figures the lead's report and the export carry.
 */
export function TimeOnItemPanel({ report }: { report: TimeOnItemReport }) {
  const intl = useIntl();
  const duration = useFormatDuration();
  const d = (ms: number | null) => (ms === null ? '—' : duration(ms));
  const names = report.annotators.map((a) => a.annotator);
  const heads = ['annotator', 'items', 'medianActive', 'medianWall', 'totalActive', 'totalWall'] as const;
  return (
    <section className="time-on-item" aria-label={intl.formatMessage({ id: 'agreement.time.heading' })}>
      <h3>
        <FormattedMessage id="agreement.time.heading" />
      </h3>
      <p className="muted">
        <FormattedMessage id="agreement.time.note" values={{ gap: d(report.idle_gap_ms) }} />
      </p>
      <table className="time-per-annotator">
        <thead>
          <tr>
            {heads.map((h) => (
              <th key={h}>
                <FormattedMessage id={`agreement.time.${h}`} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.annotators.map((a) => (
            <tr key={a.annotator} data-annotator={a.annotator}>
              <td>{a.annotator}</td>
              <td>{intl.formatNumber(a.items)}</td>
              <td>{d(a.median_active_ms)}</td>
              <td>{d(a.median_wall_ms)}</td>
              <td>{d(a.items === 0 ? null : a.total_active_ms)}</td>
              <td>{d(a.items === 0 ? null : a.total_wall_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.items.length > 0 && (
        <details>
          <summary>
            <FormattedMessage id="agreement.time.perItem" values={{ count: report.items.length }} />
          </summary>
          <table className="time-per-item">
            <thead>
              <tr>
                <th>
                  <FormattedMessage id="agreement.time.item" />
                </th>
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
                    const time = row.times[n];
                    return (
                      <td key={n}>
                        {time
                          ? intl.formatMessage({ id: 'agreement.time.pair' }, { active: d(time.active_ms), wall: d(time.wall_ms) })
                          : '—'}
                      </td>
                    );
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
