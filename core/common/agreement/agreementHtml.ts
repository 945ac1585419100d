import type { AgreementAnalysis } from './agreementAnalysis';
import type { AlphaResult } from './krippendorff';
import { reportWords, type ReportMessageId, type ReportWords } from './reportWords';

/** The report allows nothing but its own inline style: no scripts, no fetches, nothing from a CDN. */
// i18n-ignore: a Content-Security-Policy, not words
export const AGREEMENT_REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const fmt = (x: number | null, t: ReportWords): string => (x === null ? '—' : t.n(x, 3));

/** Why α has no value, in the report's words (the CLI's English twin: explainUndefinedAlpha). */
function whyUndefined(result: AlphaResult | null, t: ReportWords): string {
  if (result === null) return t('report.alpha.noBlind');
  const id: ReportMessageId | null =
    result.undefined_reason === 'fewer_than_two_pairable_units'
      ? result.pairable_units === 0
        ? 'report.alpha.zeroItems'
        : 'report.alpha.oneItem'
      : result.undefined_reason === 'no_variation'
        ? 'report.alpha.noVariation'
        : null;
  return id ? t(id) : '';
}

/** α blind and final as bars with their 95% intervals as whiskers, on a −1…1 axis (α can be negative). */
export function alphaChartSvg(
  rows: ReadonlyArray<{ name: string; alpha: number | null; ci95: [number, number] | null }>,
  t: ReportWords = reportWords('en'),
): string {
  const width = 520;
  const rowHeight = 44;
  const left = 150;
  const plot = width - left - 20;
  const height = rows.length * rowHeight + 40;
  const x = (a: number) => left + ((Math.max(-1, Math.min(1, a)) + 1) / 2) * plot;
  const ticks = [-1, -0.5, 0, 0.5, 0.667, 0.8, 1];
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(t('report.agreement.chart'))}">`,
  ];
  for (const tick of ticks) {
    parts.push(
      `<line x1="${x(tick)}" y1="10" x2="${x(tick)}" y2="${height - 25}" stroke="${tick === 0 ? '#888' : '#ddd'}" stroke-dasharray="${tick === 0.667 || tick === 0.8 ? '4 3' : ''}"/>`,
    );
    parts.push(
      `<text x="${x(tick)}" y="${height - 10}" font-size="11" text-anchor="middle" fill="#555">${tick === 0.667 ? '.667' : tick}</text>`,
    );
  }
  rows.forEach((row, i) => {
    const y = 20 + i * rowHeight;
    parts.push(`<text x="${left - 8}" y="${y + 16}" font-size="13" text-anchor="end">${escapeHtml(row.name)}</text>`);
    if (row.alpha === null) {
      parts.push(
        `<text x="${x(0) + 6}" y="${y + 16}" font-size="12" fill="#a00">${escapeHtml(t('report.agreement.chartUndefined'))}</text>`,
      );
      return;
    }
    const x0 = x(0);
    const xa = x(row.alpha);
    parts.push(
      `<rect x="${Math.min(x0, xa)}" y="${y + 4}" width="${Math.abs(xa - x0)}" height="16" fill="${i === 0 ? '#9bb7d4' : '#2f6fad'}"/>`,
    );
    if (row.ci95) {
      const [lo, hi] = row.ci95;
      parts.push(`<line x1="${x(lo)}" y1="${y + 12}" x2="${x(hi)}" y2="${y + 12}" stroke="#222" stroke-width="1.5"/>`);
      parts.push(
        `<line x1="${x(lo)}" y1="${y + 6}" x2="${x(lo)}" y2="${y + 18}" stroke="#222"/><line x1="${x(hi)}" y1="${y + 6}" x2="${x(hi)}" y2="${y + 18}" stroke="#222"/>`,
      );
    }
    parts.push(`<text x="${Math.max(xa, row.ci95 ? x(row.ci95[1]) : xa) + 6}" y="${y + 16}" font-size="12">${fmt(row.alpha, t)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

/** The head of a self-contained report page (opens offline, no script: the CSP allows none) up to its title heading. */
export function reportPageHead(title: string, locale = 'en'): string {
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${AGREEMENT_REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:960px;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}
th{background:#f3f3f3}.muted{color:#777}.warn{color:#a00}code{font-size:13px}
</style></head><body>
<h1>${escapeHtml(title)}</h1>`;
}

/** A self-contained HTML report (one file, opens offline): chart, disagreements, per-annotator conformity. */
export function agreementHtml(
  analysis: AgreementAnalysis,
  meta: {
    title: string;
    sources: readonly string[];
    generatedAt: string;
    counting?: readonly string[];
    scriptedItems?: number;
    /** more sections (agreement on codes), as HTML */ sections?: string;
  },
  t: ReportWords = reportWords('en'),
): string {
  const a = analysis;
  const ci = (c: [number, number] | null) => (c ? `[${t.n(c[0], 3)}, ${t.n(c[1], 3)}]` : '—');
  const chartRows = [
    ...(a.blind ? [{ name: t('report.agreement.blindFirst'), alpha: a.alpha_blind, ci95: a.ci95_blind }] : []),
    { name: t(a.blind ? 'report.agreement.final' : 'report.agreement.labels'), alpha: a.alpha_final, ci95: a.ci95_final },
  ];
  const annotators = a.annotators.map((x) => x.annotator);
  const notes = [
    a.blind && a.alpha_blind === null ? t('report.agreement.blindNote', { why: whyUndefined(a.blind, t) }) : '',
    a.alpha_final === null ? t('report.agreement.finalNote', { why: whyUndefined(a.final, t) }) : '',
  ]
    .filter(Boolean)
    .map((n) => `<p class="warn">${escapeHtml(n)}</p>`)
    .join('');
  const disagreementRows = a.disagreements
    .map(
      (d) =>
        `<tr><td><code>${escapeHtml(d.item_id)}</code></td><td>${d.distinct_labels}</td>${annotators
          .map((name) => {
            const final = d.labels[name];
            const blind = d.blind_labels[name];
            return `<td>${final === undefined ? '—' : escapeHtml(final)}${blind !== undefined && blind !== final ? ` <span class="muted">${escapeHtml(t('report.agreement.first', { label: blind }))}</span>` : ''}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('');
  const conformityRows = a.annotators
    .map(
      (x) =>
        `<tr><td>${escapeHtml(x.annotator)}</td><td>${x.labels}</td><td>${x.changes}</td><td>${x.changes_toward_majority}</td><td>${x.changes === 0 ? '—' : t.percent(x.changes_toward_majority / x.changes, 0)}</td></tr>`,
    )
    .join('');
  const e = (id: ReportMessageId, values?: Readonly<Record<string, string | number>>) => escapeHtml(t(id, values));
  const summary = t('report.agreement.summary', {
    level: a.level,
    items: a.items,
    pairable: a.pairable_units,
    values: a.pairable_values,
    method: a.bootstrap.method,
    resamples: a.bootstrap.resamples,
    seed: a.bootstrap.seed,
    generated: meta.generatedAt,
  });
  return `${reportPageHead(meta.title, t.locale)}
<p class="muted">${escapeHtml(summary)}</p>
<p class="muted">${e('report.agreement.sources', { sources: meta.sources.join(', ') || '—' })}</p>
${(meta.counting ?? []).map((line) => `<p class="muted counting">${escapeHtml(line)}</p>`).join('')}
${meta.scriptedItems ? `<p class="warn scripted">${e('report.agreement.scripted', { items: meta.scriptedItems })}</p>` : ''}
<h2>${e('report.agreement.heading')}</h2>
${alphaChartSvg(chartRows, t)}
<table><tr><th></th><th>α</th><th>${e('report.agreement.interval')}</th></tr>
${a.blind ? `<tr><td>${e('report.agreement.blindFirstLabels')}</td><td>${fmt(a.alpha_blind, t)}</td><td>${ci(a.ci95_blind)}</td></tr>` : ''}
<tr><td>${e(a.blind ? 'report.agreement.final' : 'report.agreement.labels')}</td><td>${fmt(a.alpha_final, t)}</td><td>${ci(a.ci95_final)}</td></tr>
${a.blind ? `<tr><td>${e('report.agreement.lift')}</td><td>${fmt(a.alpha_lift, t)}</td><td></td></tr>` : ''}
</table>
${notes}
<h2>${e('report.agreement.disagreements', { count: a.disagreements.length })}</h2>
${a.disagreements.length === 0 ? `<p class="muted">${e('report.agreement.noDisagreement')}</p>` : `<table><tr><th>${e('report.agreement.item')}</th><th>${e('report.agreement.distinct')}</th>${annotators.map((n) => `<th>${escapeHtml(n)}</th>`).join('')}</tr>${disagreementRows}</table>`}
<h2>${e('report.agreement.conformity')}</h2>
<table><tr><th>${e('report.agreement.conformity.annotator')}</th><th>${e('report.agreement.conformity.labels')}</th><th>${e('report.agreement.conformity.changes')}</th><th>${e('report.agreement.conformity.toward')}</th><th>${e('report.agreement.conformity.share')}</th></tr>${conformityRows}</table>
${meta.sections ?? ''}</body></html>
`;
}
