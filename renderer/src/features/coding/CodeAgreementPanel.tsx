import { useEffect, useState } from 'react';
import type { CodeAgreementReport } from '../../../../core/common/coding/codingApi';
import { reportRefusalsTo } from '../../shared/runCall';
import { formatClock } from '../../../../core/common/transcript/transcriptMarks';
import './coding.css';
import { useApi } from '../../shared/api';

const alpha = (x: number | null): string => (x === null ? '—' : x.toFixed(3));
const interval = (c: [number, number] | null): string => (c ? `[${c[0].toFixed(3)}, ${c[1].toFixed(3)}]` : '—');
const undefinedWords = (reason: string | null): string =>
  reason === 'no_variation'
    ? 'not enough data: the code never varies'
    : reason === 'fewer_than_two_pairable_units'
      ? 'not enough data: fewer than two units coded by two coders'
      : '';

/**
 * Agreement on codes on the Agreement tab, as `aloud agreement --codes` computes it: α per code with its interval,
 * overall α for an exclusive codebook, the units the coders disagree on most (in blind coding, only of items this
 * coder finished: the host leaves the others out), codes beside the labels and by hesitation.
 */
export function CodeAgreementPanel({ reloads }: { reloads: number }) {
  const client = useApi();
  const [report, setReport] = useState<CodeAgreementReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmingReveal, setConfirmingReveal] = useState(false);
  const revealAsLead = (): void => {
    setConfirmingReveal(false);
    void reportRefusalsTo(setError)(() => client.revealCodingsAsLead()).then((r) => r && setReport(r));
  };
  useEffect(() => {
    void reportRefusalsTo(setError)(() => client.codeAgreement()).then((r) => r && setReport(r));
  }, [client, reloads]);
  if (error) return <p className="muted">Agreement on codes: {error}</p>;
  if (!report) return <p className="muted">Computing agreement on codes…</p>;
  if (report.codes.length === 0) return null;
  const coders = report.coders.map((c) => c.coder);
  const codeNames = report.codes.map((c) => c.code);
  return (
    <section className="code-agreement" aria-label="agreement on codes">
      <h3>Agreement on codes</h3>
      <p className="muted">
        Krippendorff&rsquo;s α on each code&rsquo;s presence per unit ({report.unit} units), over the coders who finished the item ·
        codebook {report.codebook_version ?? '—'} · coders: {coders.join(', ') || 'none yet'} · {report.pairable_units} units coded by two
        or more
        {report.unfinished > 0 && ` · ${report.unfinished} protocol(s) coded but not finished, left out`}
      </p>
      {report.basis === 'blind' && (
        <p className="muted basis">
          Blind coding: α is on the codes each coder gave before the others&rsquo; were shown to them
          {report.changed_after_finished === 1 &&
            ' (1 unit recoded after finishing counts as first given; the export has it as it stands now)'}
          {report.changed_after_finished > 1 &&
            ` (${report.changed_after_finished} units recoded after finishing count as first given; the export has them as they stand now)`}
          .
        </p>
      )}
      <table className="code-alphas">
        <thead>
          <tr>
            <th>Code</th>
            <th>α</th>
            <th>95% interval</th>
            <th>Pairable units</th>
            <th>Codings</th>
          </tr>
        </thead>
        <tbody>
          {report.codes.map((c) => (
            <tr key={c.code} data-code={c.code}>
              <td>
                {c.code}
                {!c.in_codebook && <span className="muted"> (no longer in the codebook)</span>}
              </td>
              <td className="alpha">
                {c.alpha === null ? <span className="undefined">{undefinedWords(c.undefined_reason)}</span> : alpha(c.alpha)}
              </td>
              <td>{interval(c.ci95)}</td>
              <td>{c.pairable_units}</td>
              <td>{c.applied}</td>
            </tr>
          ))}
          {report.overall && (
            <tr data-code="(overall)">
              <td>
                <strong>overall</strong> <span className="muted">(one code per unit)</span>
              </td>
              <td className="alpha">
                {report.overall.alpha === null ? (
                  <span className="undefined">{undefinedWords(report.overall.undefined_reason)}</span>
                ) : (
                  alpha(report.overall.alpha)
                )}
              </td>
              <td>{interval(report.overall.ci95)}</td>
              <td>{report.overall.pairable_units}</td>
              <td />
            </tr>
          )}
        </tbody>
      </table>

      <h3>Units the coders disagree on most ({report.disagreements.length})</h3>
      {report.hidden_disagreements > 0 && (
        <div className="reveal-as-lead" role="group" aria-label="coder disagreements hidden by blind coding">
          <p className="muted">
            {report.hidden_disagreements === 1
              ? '1 more unit the coders disagree on is on an item you have not finished coding (blind coding hides it).'
              : `${report.hidden_disagreements} more units the coders disagree on are on items you have not finished coding (blind coding hides them).`}
          </p>
          {confirmingReveal ? (
            <p role="alert">
              Seeing every coder&rsquo;s codes is logged in your session, and codes you give afterwards count as given after seeing the
              others&rsquo; (blind α leaves them out).{' '}
              <button type="button" onClick={revealAsLead} autoFocus>
                Show them as the lead
              </button>{' '}
              <button type="button" onClick={() => setConfirmingReveal(false)}>
                Cancel
              </button>
            </p>
          ) : (
            <button type="button" onClick={() => setConfirmingReveal(true)}>
              Show all coders&rsquo; codes (as the lead)…
            </button>
          )}
        </div>
      )}
      {report.disagreements.length === 0 ? (
        <p className="muted">No unit you can see has differing codes.</p>
      ) : (
        <table className="code-disagreements">
          <thead>
            <tr>
              <th>Unit</th>
              <th>Words</th>
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
                  <td key={c}>{d.codes[c] === undefined ? '—' : d.codes[c]!.join(', ') || <span className="muted">none</span>}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {report.codes_by_label.final.length > 0 && (
        <>
          <h3>Codes beside the labels</h3>
          <p className="muted">Codings (coder × unit) in the protocols of the items that got each label from their annotator.</p>
          {(['final', 'blind'] as const).map((which) => (
            <table key={which} className="codes-by-label" aria-label={`codes by ${which} label`}>
              <thead>
                <tr>
                  <th>{which === 'final' ? 'Final label' : 'Blind (first) label'}</th>
                  <th>Protocols</th>
                  {codeNames.map((c) => (
                    <th key={c}>{c}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {report.codes_by_label[which].map((row) => (
                  <tr key={row.label}>
                    <td>{row.label}</td>
                    <td>{row.protocols}</td>
                    {codeNames.map((c) => (
                      <td key={c}>{row.codes[c] ?? 0}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
        </>
      )}

      <h3>Codes by hesitation</h3>
      <p className="muted">
        {report.codes_by_hesitation.units_before_long_pause} of {report.codes_by_hesitation.units} units are followed by a pause of at least{' '}
        {report.codes_by_hesitation.long_pause_ms} ms before the next one.
      </p>
      <table className="codes-by-hesitation">
        <thead>
          <tr>
            <th>Code</th>
            <th>Codings</th>
            <th>Before a long pause</th>
            <th>Share</th>
          </tr>
        </thead>
        <tbody>
          {report.codes_by_hesitation.per_code.map((r) => (
            <tr key={r.code}>
              <td>{r.code}</td>
              <td>{r.codings}</td>
              <td>{r.before_long_pause}</td>
              <td>{r.share_before_long_pause === null ? '—' : `${Math.round(100 * r.share_before_long_pause)}%`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
