import { useEffect, useMemo, useState } from 'react';
import type { AgreementReport } from '../../../../core/common/agreement/agreementApi';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import { type AgreementAnalysis, agreementAnalysis, explainUndefinedAlpha } from '../../../../core/common/agreement/agreementAnalysis';
import type { AlphaResult } from '../../../../core/common/agreement/krippendorff';
import { LeadRoomPanel } from '../rooms/LeadRoomPanel';
import { CodeAgreementPanel } from '../coding/CodeAgreementPanel';
import { GoldPanel } from './GoldPanel';
import { GuidelineHistoryPanel } from '../guidelines/GuidelineHistoryPanel';
import { reportRefusalsTo } from '../../shared/runCall';
import { useApi } from '../../shared/api';

/** The report's table as the analysis `aloud agreement` prints: same figures, same seed, same intervals. */
export function analyseReport(report: AgreementReport, project: ProjectView): AgreementAnalysis {
  const records = report.table.flatMap((row) =>
    Object.entries(row.labels)
      .filter(([, l]) => l.blind !== null || l.final !== null)
      .map(([annotator, l]) => ({ item_id: row.item_id, annotator, blind_label: l.blind, final_label: l.final })),
  );
  return agreementAnalysis(records, {
    level: project.schema.ordered ? 'ordinal' : 'nominal',
    categories: project.schema.labels.map((l) => l.name),
    hasBlind: true,
    itemIds: project.items.map((i) => i.id),
  });
}

function AlphaCard({ title, result, ci }: { title: string; result: AlphaResult; ci: [number, number] | null }) {
  return (
    <div className="alpha-card">
      <div className="alpha-title">{title}</div>
      <div className="alpha-value">{result.alpha === null ? '—' : result.alpha.toFixed(3)}</div>
      <div className="muted">
        {result.alpha === null
          ? explainUndefinedAlpha(result)
          : `95% interval ${ci ? `[${ci[0].toFixed(3)}, ${ci[1].toFixed(3)}]` : '—'} · ${result.pairable_units} items with ≥ 2 labels`}
      </div>
    </div>
  );
}

/** α blind and final on a −1…1 axis, the interval as a whisker (the same picture as the --html report). */
function AlphaChart({ rows }: { rows: Array<{ name: string; alpha: number | null; ci: [number, number] | null }> }) {
  const left = 110;
  const plot = 360;
  const x = (a: number) => left + ((Math.max(-1, Math.min(1, a)) + 1) / 2) * plot;
  return (
    <svg className="alpha-chart" width={left + plot + 60} height={rows.length * 34 + 28} role="img" aria-label="alpha with 95% intervals">
      {[-1, 0, 0.667, 0.8, 1].map((t) => (
        <g key={t}>
          <line
            x1={x(t)}
            x2={x(t)}
            y1={4}
            y2={rows.length * 34 + 8}
            stroke={t === 0 ? '#888' : '#ddd'}
            strokeDasharray={t > 0 && t < 1 ? '4 3' : undefined}
          />
          <text x={x(t)} y={rows.length * 34 + 22} fontSize={11} textAnchor="middle">
            {t === 0.667 ? '.667' : t}
          </text>
        </g>
      ))}
      {rows.map((r, i) => (
        <g key={r.name} transform={`translate(0 ${i * 34 + 8})`}>
          <text x={left - 8} y={15} fontSize={13} textAnchor="end">
            {r.name}
          </text>
          {r.alpha === null ? (
            <text x={x(0) + 6} y={15} fontSize={12}>
              not enough data
            </text>
          ) : (
            <>
              <rect
                x={Math.min(x(0), x(r.alpha))}
                y={3}
                width={Math.abs(x(r.alpha) - x(0))}
                height={16}
                fill={i === 0 ? '#9bb7d4' : '#2f6fad'}
              />
              {r.ci && <line x1={x(r.ci[0])} x2={x(r.ci[1])} y1={11} y2={11} stroke="#222" strokeWidth={1.5} />}
            </>
          )}
        </g>
      ))}
    </svg>
  );
}

/** Calibration: how far annotators agree on first (blind) and final labels, where they disagree, who changed what. */
export function AgreementScreen({ project }: { project: ProjectView }) {
  const client = useApi();
  const [report, setReport] = useState<AgreementReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  // a huddle opened from the gold panel: the room panel is mounted again so it reads the open room
  const [roomPanel, setRoomPanel] = useState(0);

  useEffect(() => {
    void reportRefusalsTo(setError)(() => client.agreement()).then((r) => r && setReport(r));
  }, [client, reloads]);
  const analysis = useMemo(() => (report ? analyseReport(report, project) : null), [report, project]);

  if (error) return <p className="banner error">{error}</p>;
  if (!report || !analysis) return <p className="muted">Computing…</p>;
  const names = analysis.annotators.map((a) => a.annotator);
  // sessions whose labels are not counted yet (agreement counts completed items only): named, not silently absent
  const notCounted = report.annotators.filter((a) => !names.includes(a));
  const textOf = new Map(project.items.map((i) => [i.id, i.text]));
  return (
    <section className="agreement">
      <div className="alpha-row">
        <AlphaCard title="First (blind) labels" result={analysis.blind!} ci={analysis.ci95_blind} />
        <AlphaCard title="Final labels" result={analysis.final} ci={analysis.ci95_final} />
        <button onClick={() => setReloads((n) => n + 1)}>Refresh</button>
      </div>
      <AlphaChart
        rows={[
          { name: 'blind', alpha: analysis.alpha_blind, ci: analysis.ci95_blind },
          { name: 'final', alpha: analysis.alpha_final, ci: analysis.ci95_final },
        ]}
      />
      <p className="muted">
        Krippendorff's α ({analysis.level}) · {names.length} annotator(s): {names.join(', ') || 'none yet'}
        {notCounted.length > 0 && ` (no completed item yet, so not counted: ${notCounted.join(', ')})`} · {project.items.length} items
        {analysis.alpha_lift !== null && ` · lift ${analysis.alpha_lift >= 0 ? '+' : ''}${analysis.alpha_lift.toFixed(3)}`} · intervals:{' '}
        {analysis.bootstrap.method}, {analysis.bootstrap.resamples} resamples, seed {analysis.bootstrap.seed}
      </p>

      <h3>Disagreements ({analysis.disagreements.length})</h3>
      {analysis.disagreements.length === 0 ? (
        <p className="muted">No item has differing final labels.</p>
      ) : (
        <table className="disagreements">
          <thead>
            <tr>
              <th>Item</th>
              <th>Distinct</th>
              {names.map((a) => (
                <th key={a}>{a}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {analysis.disagreements.map((d) => (
              <tr key={d.item_id}>
                <td title={textOf.get(d.item_id)}>
                  <code>{d.item_id}</code>
                </td>
                <td>{d.distinct_labels}</td>
                {names.map((a) => (
                  <td key={a}>
                    {d.labels[a] ?? '—'}
                    {d.blind_labels[a] && d.blind_labels[a] !== d.labels[a] && <span className="muted"> (first {d.blind_labels[a]})</span>}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h3>Per annotator: first → final</h3>
      <table className="conformity">
        <thead>
          <tr>
            <th>Annotator</th>
            <th>Labels</th>
            <th>Changed</th>
            <th>Toward the others' majority</th>
          </tr>
        </thead>
        <tbody>
          {analysis.annotators.map((a) => (
            <tr key={a.annotator}>
              <td>{a.annotator}</td>
              <td>{a.labels}</td>
              <td>
                {a.changes}
                {a.changes > 0 && (
                  <span className="muted">
                    {' '}
                    (
                    {report.table
                      .filter((row) => {
                        const l = row.labels[a.annotator];
                        return l?.blind && l.final && l.blind !== l.final;
                      })
                      .map((row) => `${row.item_id}: ${row.labels[a.annotator]!.blind} → ${row.labels[a.annotator]!.final}`)
                      .join('; ')}
                    )
                  </span>
                )}
              </td>
              <td>{a.changes_toward_majority}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <GoldPanel
        reloads={reloads}
        itemText={textOf}
        openHuddle={(itemIds) =>
          void reportRefusalsTo(setError)(() => client.openRoom(itemIds, false)).then(() => setRoomPanel((n) => n + 1))
        }
      />

      <CodeAgreementPanel reloads={reloads} />

      <GuidelineHistoryPanel reloads={reloads} />

      <LeadRoomPanel key={roomPanel} project={project} disagreements={analysis.disagreements.map((d) => d.item_id)} />
    </section>
  );
}
