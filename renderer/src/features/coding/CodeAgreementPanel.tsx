import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CodeAgreementReport } from '../../../../core/common/coding/codingApi';
import { reportRefusalsTo } from '../../shared/runCall';
import './coding.css';
import { useApi } from '../../shared/api';
import type { AppMessageId } from '../../shared/i18n/catalogs';
import { useFormatClock, useFormatDuration } from '../../shared/i18n/useDuration';

/** What stands in for α when the data cannot give one (the host's reason). */
const UNDEFINED_REASONS: Record<string, AppMessageId> = {
  no_variation: 'coding.agreement.noVariation',
  fewer_than_two_pairable_units: 'coding.agreement.tooFewUnits',
};

/** α, its interval and shares in the interface's locale ("0,711", "[0,512; 0,800]", "42 %" in German). */
function useAgreementFormat() {
  const intl = useIntl();
  const alpha = (x: number | null): string =>
    x === null ? '—' : intl.formatNumber(x, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
  return {
    alpha,
    interval: (c: [number, number] | null): string =>
      c ? intl.formatMessage({ id: 'coding.agreement.range' }, { low: alpha(c[0]), high: alpha(c[1]) }) : '—',
    share: (x: number | null): string => (x === null ? '—' : intl.formatNumber(x, { style: 'percent', maximumFractionDigits: 0 })),
    undefinedWords: (reason: string | null): string => {
      const id = reason === null ? undefined : UNDEFINED_REASONS[reason];
      return id ? intl.formatMessage({ id }) : '';
    },
  };
}

/**
 * Agreement on codes on the Agreement tab, as `aloud agreement --codes` computes it: α per code with its interval,
 * overall α for an exclusive codebook, the units the coders disagree on most (in blind coding, only of items this
 * coder finished: the host leaves the others out), codes beside the labels and by hesitation.
 */
export function CodeAgreementPanel({ reloads }: { reloads: number }) {
  const client = useApi();
  const intl = useIntl();
  const formatClock = useFormatClock();
  const { alpha, interval, share, undefinedWords } = useAgreementFormat();
  const duration = useFormatDuration();
  const [report, setReport] = useState<CodeAgreementReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmingReveal, setConfirmingReveal] = useState(false);
  const revealAsLead = (): void => {
    setConfirmingReveal(false);
    void reportRefusalsTo(setError, intl)(() => client.revealCodingsAsLead()).then((r) => r && setReport(r));
  };
  useEffect(() => {
    void reportRefusalsTo(setError, intl)(() => client.codeAgreement()).then((r) => r && setReport(r));
  }, [client, reloads]);
  if (error)
    return (
      <p className="muted">
        <FormattedMessage id="coding.agreement.error" values={{ error }} />
      </p>
    );
  if (!report)
    return (
      <p className="muted">
        <FormattedMessage id="coding.agreement.computing" />
      </p>
    );
  if (report.codes.length === 0) return null;
  const coders = report.coders.map((c) => c.coder);
  const codeNames = report.codes.map((c) => c.code);
  return (
    <section className="code-agreement" aria-label={intl.formatMessage({ id: 'coding.agreement.label' })}>
      <h3>
        <FormattedMessage id="coding.agreement.title" />
      </h3>
      <p className="muted">
        <FormattedMessage
          id="coding.agreement.summary"
          values={{
            unit: report.unit,
            version: report.codebook_version ?? '—',
            coders: coders.join(', ') || intl.formatMessage({ id: 'coding.agreement.noCoders' }),
            pairable: report.pairable_units,
            unfinished: report.unfinished,
          }}
        />
      </p>
      {report.basis === 'blind' && (
        <p className="muted basis">
          <FormattedMessage id="coding.agreement.blind" values={{ changed: report.changed_after_finished }} />
        </p>
      )}
      <table className="code-alphas">
        <thead>
          <tr>
            <th>
              <FormattedMessage id="coding.agreement.code" />
            </th>
            {/* i18n-ignore: the statistic's symbol, the same in every language */}
            <th>α</th>
            <th>
              <FormattedMessage id="coding.agreement.interval" />
            </th>
            <th>
              <FormattedMessage id="coding.agreement.pairable" />
            </th>
            <th>
              <FormattedMessage id="coding.agreement.codings" />
            </th>
          </tr>
        </thead>
        <tbody>
          {report.codes.map((c) => (
            <tr key={c.code} data-code={c.code}>
              <td>
                {c.code}
                {!c.in_codebook && (
                  <span className="muted">
                    {' '}
                    <FormattedMessage id="coding.agreement.gone" />
                  </span>
                )}
              </td>
              <td className="alpha">
                {c.alpha === null ? <span className="undefined">{undefinedWords(c.undefined_reason)}</span> : alpha(c.alpha)}
              </td>
              <td>{interval(c.ci95)}</td>
              <td>{intl.formatNumber(c.pairable_units)}</td>
              <td>{intl.formatNumber(c.applied)}</td>
            </tr>
          ))}
          {report.overall && (
            <tr data-code="(overall)">
              <td>
                <strong>
                  <FormattedMessage id="coding.agreement.overall" />
                </strong>{' '}
                <span className="muted">
                  <FormattedMessage id="coding.agreement.overallNote" />
                </span>
              </td>
              <td className="alpha">
                {report.overall.alpha === null ? (
                  <span className="undefined">{undefinedWords(report.overall.undefined_reason)}</span>
                ) : (
                  alpha(report.overall.alpha)
                )}
              </td>
              <td>{interval(report.overall.ci95)}</td>
              <td>{intl.formatNumber(report.overall.pairable_units)}</td>
              <td />
            </tr>
          )}
        </tbody>
      </table>

      <h3>
        <FormattedMessage id="coding.agreement.disagreements" values={{ count: report.disagreements.length }} />
      </h3>
      {report.hidden_disagreements > 0 && (
        <div className="reveal-as-lead" role="group" aria-label={intl.formatMessage({ id: 'coding.agreement.hiddenLabel' })}>
          <p className="muted">
            <FormattedMessage id="coding.agreement.hidden" values={{ count: report.hidden_disagreements }} />
          </p>
          {confirmingReveal ? (
            <p role="alert">
              <FormattedMessage id="coding.agreement.revealWarning" />{' '}
              <button type="button" onClick={revealAsLead} autoFocus>
                <FormattedMessage id="coding.agreement.revealConfirm" />
              </button>{' '}
              <button type="button" onClick={() => setConfirmingReveal(false)}>
                <FormattedMessage id="common.cancel" />
              </button>
            </p>
          ) : (
            <button type="button" onClick={() => setConfirmingReveal(true)}>
              <FormattedMessage id="coding.agreement.reveal" />
            </button>
          )}
        </div>
      )}
      {report.disagreements.length === 0 ? (
        <p className="muted">
          <FormattedMessage id="coding.agreement.noDisagreement" />
        </p>
      ) : (
        <table className="code-disagreements">
          <thead>
            <tr>
              <th>
                <FormattedMessage id="coding.agreement.unit" />
              </th>
              <th>
                <FormattedMessage id="coding.agreement.words" />
              </th>
              {coders.map((c) => (
                <th key={c}>{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.disagreements.slice(0, 20).map((d) => (
              <tr key={`${d.annotator}/${d.item_id}/${d.unit}`}>
                <td>
                  <code>{d.item_id}</code> {d.unit}
                  <div className="muted">
                    {d.annotator}
                    {d.t0_ms !== null ? ` · ${formatClock(d.t0_ms)}` : ''}
                  </div>
                </td>
                <td className="text">{d.text}</td>
                {coders.map((c) => (
                  <td key={c}>
                    {d.codes[c] === undefined
                      ? '—'
                      : d.codes[c]!.join(', ') || (
                          <span className="muted">
                            <FormattedMessage id="coding.agreement.noCodes" />
                          </span>
                        )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {report.codes_by_label.final.length > 0 && (
        <>
          <h3>
            <FormattedMessage id="coding.agreement.byLabel" />
          </h3>
          <p className="muted">
            <FormattedMessage id="coding.agreement.byLabelNote" />
          </p>
          {(['final', 'blind'] as const).map((which) => (
            <table
              key={which}
              className="codes-by-label"
              aria-label={intl.formatMessage({ id: which === 'final' ? 'coding.agreement.byFinalLabel' : 'coding.agreement.byBlindLabel' })}
            >
              <thead>
                <tr>
                  <th>
                    <FormattedMessage id={which === 'final' ? 'coding.agreement.finalLabel' : 'coding.agreement.blindLabel'} />
                  </th>
                  <th>
                    <FormattedMessage id="coding.agreement.protocols" />
                  </th>
                  {codeNames.map((c) => (
                    <th key={c}>{c}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {report.codes_by_label[which].map((row) => (
                  <tr key={row.label}>
                    <td>{row.label}</td>
                    <td>{intl.formatNumber(row.protocols)}</td>
                    {codeNames.map((c) => (
                      <td key={c}>{intl.formatNumber(row.codes[c] ?? 0)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
        </>
      )}

      <h3>
        <FormattedMessage id="coding.agreement.byHesitation" />
      </h3>
      <p className="muted">
        <FormattedMessage
          id="coding.agreement.hesitationNote"
          values={{
            before: report.codes_by_hesitation.units_before_long_pause,
            units: report.codes_by_hesitation.units,
            pause: duration(report.codes_by_hesitation.long_pause_ms),
          }}
        />
      </p>
      <table className="codes-by-hesitation">
        <thead>
          <tr>
            <th>
              <FormattedMessage id="coding.agreement.code" />
            </th>
            <th>
              <FormattedMessage id="coding.agreement.codings" />
            </th>
            <th>
              <FormattedMessage id="coding.agreement.beforePause" />
            </th>
            <th>
              <FormattedMessage id="coding.agreement.share" />
            </th>
          </tr>
        </thead>
        <tbody>
          {report.codes_by_hesitation.per_code.map((r) => (
            <tr key={r.code}>
              <td>{r.code}</td>
              <td>{intl.formatNumber(r.codings)}</td>
              <td>{intl.formatNumber(r.before_long_pause)}</td>
              <td>{share(r.share_before_long_pause)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
