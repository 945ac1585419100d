import { useEffect, useMemo, useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { AgreementReport } from '../../../../core/common/agreement/agreementApi';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import { type AgreementAnalysis, agreementAnalysis } from '../../../../core/common/agreement/agreementAnalysis';
import type { AlphaResult } from '../../../../core/common/agreement/krippendorff';
import { LeadRoomPanel } from '../rooms/LeadRoomPanel';
import { CodeAgreementPanel } from '../coding/CodeAgreementPanel';
import { GoldPanel } from './GoldPanel';
import { GuidelineHistoryPanel } from '../guidelines/GuidelineHistoryPanel';
import { figure, intervalText, levelText } from './agreementFigures';
import { TimeOnItemPanel } from './TimeOnItemPanel';
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

/** Why α has no value, in words (the same reasons as explainUndefinedAlpha, which the CLI prints in English). */
function undefinedAlphaWords(intl: IntlShape, result: AlphaResult): string {
  if (result.undefined_reason === 'fewer_than_two_pairable_units')
    return intl.formatMessage({ id: result.pairable_units === 0 ? 'agreement.alpha.noPairs' : 'agreement.alpha.onePair' });
  if (result.undefined_reason === 'no_variation') return intl.formatMessage({ id: 'agreement.alpha.noVariation' });
  return '';
}

function AlphaCard({ title, result, ci }: { title: string; result: AlphaResult; ci: [number, number] | null }) {
  const intl = useIntl();
  return (
    <div className="alpha-card">
      <div className="alpha-title">{title}</div>
      <div className="alpha-value">{result.alpha === null ? '—' : figure(intl, result.alpha)}</div>
      <div className="muted">
        {result.alpha === null
          ? undefinedAlphaWords(intl, result)
          : intl.formatMessage(
              { id: 'agreement.alpha.detail' },
              { level: levelText(intl), interval: ci ? intervalText(intl, ci) : '—', items: result.pairable_units },
            )}
      </div>
    </div>
  );
}

/** α blind and final on a −1…1 axis, the interval as a whisker (the same picture as the --html report). */
function AlphaChart({ rows }: { rows: Array<{ name: string; alpha: number | null; ci: [number, number] | null }> }) {
  const intl = useIntl();
  const left = 110;
  const plot = 360;
  const x = (a: number) => left + ((Math.max(-1, Math.min(1, a)) + 1) / 2) * plot;
  return (
    <svg
      className="alpha-chart"
      width={left + plot + 60}
      height={rows.length * 34 + 28}
      role="img"
      aria-label={intl.formatMessage({ id: 'agreement.chart.label' }, { level: levelText(intl) })}
    >
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
            {intl.formatNumber(t).replace(/^0(?=\D)/, '') /* .667 and .8: the ticks stay apart */}
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
              {intl.formatMessage({ id: 'agreement.chart.notEnough' })}
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
  const intl = useIntl();
  const [report, setReport] = useState<AgreementReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  // a huddle opened from the gold panel: the room panel is mounted again so it reads the open room
  const [roomPanel, setRoomPanel] = useState(0);

  useEffect(() => {
    void reportRefusalsTo(setError, intl)(() => client.agreement()).then((r) => r && setReport(r));
  }, [client, reloads]);
  const analysis = useMemo(() => (report ? analyseReport(report, project) : null), [report, project]);

  if (error) return <p className="banner error">{error}</p>;
  if (!report || !analysis)
    return (
      <p className="muted">
        <FormattedMessage id="agreement.computing" />
      </p>
    );
  const names = analysis.annotators.map((a) => a.annotator);
  // sessions whose labels are not counted yet (agreement counts completed items only): named, not silently absent
  const notCounted = report.annotators.filter((a) => !names.includes(a));
  const textOf = new Map(project.items.map((i) => [i.id, i.text]));
  return (
    <section className="agreement">
      <div className="alpha-row">
        <AlphaCard title={intl.formatMessage({ id: 'agreement.blindLabels' })} result={analysis.blind!} ci={analysis.ci95_blind} />
        <AlphaCard title={intl.formatMessage({ id: 'agreement.finalLabels' })} result={analysis.final} ci={analysis.ci95_final} />
        <button onClick={() => setReloads((n) => n + 1)}>
          <FormattedMessage id="agreement.refresh" />
        </button>
      </div>
      <AlphaChart
        rows={[
          { name: intl.formatMessage({ id: 'agreement.chart.blind' }), alpha: analysis.alpha_blind, ci: analysis.ci95_blind },
          { name: intl.formatMessage({ id: 'agreement.chart.final' }), alpha: analysis.alpha_final, ci: analysis.ci95_final },
        ]}
      />
      <p className="muted">
        {[
          intl.formatMessage({ id: 'agreement.summary.alpha' }, { level: analysis.level }),
          intl.formatMessage(
            { id: 'agreement.summary.annotators' },
            { count: names.length, names: names.join(', ') || intl.formatMessage({ id: 'agreement.summary.noneYet' }) },
          ) +
            (notCounted.length > 0
              ? ` ${intl.formatMessage({ id: 'agreement.summary.notCounted' }, { names: notCounted.join(', ') })}`
              : ''),
          intl.formatMessage({ id: 'agreement.summary.items' }, { count: project.items.length }),
          ...(analysis.alpha_lift !== null
            ? [
                intl.formatMessage(
                  { id: 'agreement.summary.lift' },
                  {
                    lift: intl.formatNumber(analysis.alpha_lift, {
                      minimumFractionDigits: 3,
                      maximumFractionDigits: 3,
                      signDisplay: 'always',
                    }),
                  },
                ),
              ]
            : []),
          intl.formatMessage(
            { id: 'agreement.summary.intervals' },
            {
              method: intl.formatMessage({ id: 'agreement.bootstrapMethod' }),
              resamples: analysis.bootstrap.resamples,
              seed: String(analysis.bootstrap.seed),
            },
          ),
        ].join(' · ')}
      </p>

      <h3>
        <FormattedMessage id="agreement.disagreements.title" values={{ count: analysis.disagreements.length }} />
      </h3>
      {analysis.disagreements.length === 0 ? (
        <p className="muted">
          <FormattedMessage id="agreement.disagreements.none" />
        </p>
      ) : (
        <table className="disagreements">
          <thead>
            <tr>
              <th>
                <FormattedMessage id="agreement.disagreements.item" />
              </th>
              <th>
                <FormattedMessage id="agreement.disagreements.distinct" />
              </th>
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
                    {d.blind_labels[a] && d.blind_labels[a] !== d.labels[a] && (
                      <span className="muted">
                        {' '}
                        <FormattedMessage id="agreement.disagreements.first" values={{ label: d.blind_labels[a] }} />
                      </span>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h3>
        <FormattedMessage id="agreement.conformity.title" />
      </h3>
      <table className="conformity">
        <thead>
          <tr>
            <th>
              <FormattedMessage id="agreement.conformity.annotator" />
            </th>
            <th>
              <FormattedMessage id="agreement.conformity.labels" />
            </th>
            <th>
              <FormattedMessage id="agreement.conformity.changed" />
            </th>
            <th>
              <FormattedMessage id="agreement.conformity.towardMajority" />
            </th>
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

      <TimeOnItemPanel report={report.time_on_item} />

      <GoldPanel
        reloads={reloads}
        itemText={textOf}
        openHuddle={(itemIds) =>
          void reportRefusalsTo(setError, intl)(() => client.openRoom(itemIds, false)).then(() => setRoomPanel((n) => n + 1))
        }
      />

      <CodeAgreementPanel reloads={reloads} />

      <GuidelineHistoryPanel reloads={reloads} />

      <LeadRoomPanel key={roomPanel} project={project} disagreements={analysis.disagreements.map((d) => d.item_id)} />
    </section>
  );
}
