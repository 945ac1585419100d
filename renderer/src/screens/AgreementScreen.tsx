import { useEffect, useState } from 'react';
import type { AgreementReport, ProjectView } from '../../../core/common/contract/aloudApi';
import type { AlphaResult } from '../../../core/common/agreement/krippendorff';
import type { ApiClient } from '../contract/apiClient';

function Alpha({ title, result }: { title: string; result: AlphaResult }) {
  return (
    <div className="alpha-card">
      <div className="alpha-title">{title}</div>
      <div className="alpha-value">{result.alpha === null ? '—' : result.alpha.toFixed(3)}</div>
      <div className="muted">
        Krippendorff's α ({result.level}) · {result.pairable_units} items with ≥ 2 labels
        {result.alpha === null && ' · undefined until two annotators label the same items with some variation'}
      </div>
    </div>
  );
}

/** Calibration: how far annotators agree on their first (blind) labels and on their final ones. */
export function AgreementScreen({ client, project }: { client: ApiClient; project: ProjectView }) {
  const [report, setReport] = useState<AgreementReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    client.agreement().then(setReport, (e: Error) => setError(e.message));
  }, [client, reloads]);

  if (error) return <p className="banner error">{error}</p>;
  if (!report) return <p className="muted">Computing…</p>;
  const rows = report.table.filter((row) => Object.values(row.labels).some((l) => l.blind || l.final));
  return (
    <section className="agreement">
      <div className="alpha-row">
        <Alpha title="First (blind) labels" result={report.blind} />
        <Alpha title="Final labels" result={report.final} />
        <button onClick={() => setReloads((n) => n + 1)}>Refresh</button>
      </div>
      <p className="muted">
        {report.annotators.length} annotator(s): {report.annotators.join(', ') || 'none yet'} · {project.items.length} items
      </p>
      {rows.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>Item</th>
              {report.annotators.map((a) => (
                <th key={a}>{a}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.item_id}>
                <td>
                  <code>{row.item_id}</code>
                </td>
                {report.annotators.map((a) => {
                  const l = row.labels[a]!;
                  return (
                    <td key={a}>
                      {l.final ?? '—'}
                      {l.blind && l.blind !== l.final && <span className="muted"> (first {l.blind})</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
