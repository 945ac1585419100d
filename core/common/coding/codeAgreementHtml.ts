import { alphaChartSvg, escapeHtml } from '../agreement/agreementHtml';
import { reportWords, type ReportMessageId, type ReportWords } from '../agreement/reportWords';
import type { CodeAgreement } from './codeAgreement';

/** Which codes α counts, said where it is not the codes standing now. */
export function basisNote(a: Pick<CodeAgreement, 'basis' | 'changed_after_finished'>, t: ReportWords = reportWords('en')): string {
  const n = a.changed_after_finished;
  if (a.basis === 'current') return n > 0 ? t('report.codes.basisCurrent', { count: n }) : '';
  return n > 0 ? t('report.codes.basisBlindRecoded', { count: n }) : t('report.codes.basisBlind');
}

/** The codes section of the `--html` report: α per code (and overall), the units coders disagree on, codes beside labels and pauses. */
export function codeAgreementHtml(a: CodeAgreement & { codebook_version: string | null }, t: ReportWords = reportWords('en')): string {
  const e = (id: ReportMessageId, values?: Readonly<Record<string, string | number>>) => escapeHtml(t(id, values));
  const fmt = (x: number | null): string => (x === null ? '—' : t.n(x, 3));
  const ci = (c: [number, number] | null): string => (c ? `[${t.n(c[0], 3)}, ${t.n(c[1], 3)}]` : '—');
  const reason = (r: string | null): string =>
    r === 'no_variation' ? t('report.codes.noVariation') : r === 'fewer_than_two_pairable_units' ? t('report.codes.tooFew') : '';
  const seconds = (ms: number | null): string => (ms === null ? '' : `${t.n(ms / 1000, 1)} s`); // i18n-ignore: the SI symbol
  const coders = a.coders.map((c) => c.coder);
  const rows = a.codes
    .map(
      (c) =>
        `<tr><td>${escapeHtml(c.code)}${c.in_codebook ? '' : ` <span class="muted">${e('report.codes.notInCodebook')}</span>`}</td><td>${fmt(c.alpha)}</td><td>${ci(c.ci95)}</td><td>${c.pairable_units}</td><td>${c.applied}</td><td class="muted">${escapeHtml(reason(c.undefined_reason))}</td></tr>`,
    )
    .join('');
  const overall = a.overall
    ? `<p>${e('report.codes.overall', { categories: a.overall.categories.length, alpha: fmt(a.overall.alpha), interval: ci(a.overall.ci95), units: a.overall.pairable_units })}${a.overall.alpha === null ? ` — ${escapeHtml(reason(a.overall.undefined_reason))}` : ''}</p>`
    : '';
  const disagreements = a.disagreements
    .map(
      (d) =>
        `<tr><td><code>${escapeHtml(d.annotator)} / ${escapeHtml(d.item_id)} / ${escapeHtml(d.unit)}</code><br><span class="muted">${seconds(d.t0_ms)}</span></td><td>${escapeHtml(d.text ?? '')}</td>${coders.map((c) => `<td>${d.codes[c] === undefined ? '—' : escapeHtml(d.codes[c]!.join(', ') || t('report.codes.none'))}</td>`).join('')}</tr>`,
    )
    .join('');
  const codeNames = a.codes.map((c) => c.code);
  const byLabel = (title: string, table: CodeAgreement['codes_by_label']['final']): string =>
    table.length === 0
      ? ''
      : `<h3>${title}</h3><table><tr><th>${e('report.codes.label')}</th><th>${e('report.codes.protocols')}</th>${codeNames.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>${table.map((r) => `<tr><td>${escapeHtml(r.label)}</td><td>${r.protocols}</td>${codeNames.map((c) => `<td>${r.codes[c] ?? 0}</td>`).join('')}</tr>`).join('')}</table>`;
  const h = a.codes_by_hesitation;
  const summary =
    t('report.codes.summary', { version: a.codebook_version ?? '—', coders: coders.join(', ') || '—', units: a.pairable_units }) +
    (a.unfinished > 0 ? t('report.codes.summaryUnfinished', { count: a.unfinished }) : '') +
    basisNote(a, t);
  return `<h2>${e('report.codes.heading')}</h2>
<p class="muted">${escapeHtml(summary)}</p>
${alphaChartSvg(
  a.codes.map((c) => ({ name: c.code, alpha: c.alpha, ci95: c.ci95 })),
  t,
)}
<table><tr><th>${e('report.codes.code')}</th><th>${e('report.codes.alphaPresence')}</th><th>${e('report.agreement.interval')}</th><th>${e('report.codes.pairable')}</th><th>${e('report.codes.codings')}</th><th></th></tr>${rows}</table>
${overall}
<h3>${e('report.codes.disagree', { count: a.disagreements.length })}</h3>
${a.disagreements.length === 0 ? `<p class="muted">${e('report.codes.noDisagreement')}</p>` : `<table><tr><th>${e('report.codes.unit')}</th><th>${e('report.codes.text')}</th>${coders.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>${disagreements}</table>`}
${byLabel(e('report.codes.byFinalLabel'), a.codes_by_label.final)}
${byLabel(e('report.codes.byBlindLabel'), a.codes_by_label.blind)}
<h3>${e('report.codes.byHesitation')}</h3>
<p class="muted">${e('report.codes.hesitationNote', { before: h.units_before_long_pause, units: h.units, ms: h.long_pause_ms })}</p>
<table><tr><th>${e('report.codes.code')}</th><th>${e('report.codes.codings')}</th><th>${e('report.codes.beforeLongPause')}</th><th>${e('report.gold.share')}</th></tr>${h.per_code.map((r) => `<tr><td>${escapeHtml(r.code)}</td><td>${r.codings}</td><td>${r.before_long_pause}</td><td>${r.share_before_long_pause === null ? '—' : t.percent(r.share_before_long_pause, 0)}</td></tr>`).join('')}</table>
`;
}
