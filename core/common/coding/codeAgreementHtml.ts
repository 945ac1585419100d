import { alphaChartSvg } from '../agreement/agreementHtml';
import type { CodeAgreement } from './codeAgreement';

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const fmt = (x: number | null): string => (x === null ? '—' : x.toFixed(3));
const ci = (c: [number, number] | null): string => (c ? `[${c[0].toFixed(3)}, ${c[1].toFixed(3)}]` : '—');
const reason = (r: string | null): string =>
  r === 'no_variation'
    ? 'not enough data: the code never varies'
    : r === 'fewer_than_two_pairable_units'
      ? 'not enough data: fewer than two units coded by two coders'
      : '';
const seconds = (ms: number | null): string => (ms === null ? '' : `${(ms / 1000).toFixed(1)} s`);

/** Which codes α counts, said where it is not the codes standing now. */
export function basisNote(a: Pick<CodeAgreement, 'basis' | 'changed_after_finished'>): string {
  const n = a.changed_after_finished;
  const recoded = `${n} ${n === 1 ? 'unit' : 'units'} recoded after finishing`;
  if (a.basis === 'current') return n > 0 ? ` · ${recoded}, counted as they stand now` : '';
  return ` · blind coding: α on the codes each coder gave before the others' were shown${n > 0 ? ` (${recoded} ${n === 1 ? 'counts' : 'count'} as first given)` : ''}`;
}

/** The codes section of the `--html` report: α per code (and overall), the units coders disagree on, codes beside labels and pauses. */
export function codeAgreementHtml(a: CodeAgreement & { codebook_version: string | null }): string {
  const coders = a.coders.map((c) => c.coder);
  const rows = a.codes
    .map(
      (c) =>
        `<tr><td>${escapeHtml(c.code)}${c.in_codebook ? '' : ' <span class="muted">(not in the codebook now)</span>'}</td><td>${fmt(c.alpha)}</td><td>${ci(c.ci95)}</td><td>${c.pairable_units}</td><td>${c.applied}</td><td class="muted">${reason(c.undefined_reason)}</td></tr>`,
    )
    .join('');
  const overall = a.overall
    ? `<p>Overall (exclusive codebook, nominal over ${a.overall.categories.length} categories): α ${fmt(a.overall.alpha)} ${ci(a.overall.ci95)}, ${a.overall.pairable_units} units${a.overall.alpha === null ? ` — ${reason(a.overall.undefined_reason)}` : ''}</p>`
    : '';
  const disagreements = a.disagreements
    .map(
      (d) =>
        `<tr><td><code>${escapeHtml(d.annotator)} / ${escapeHtml(d.item_id)} / ${escapeHtml(d.unit)}</code><br><span class="muted">${seconds(d.t0_ms)}</span></td><td>${escapeHtml(d.text ?? '')}</td>${coders.map((c) => `<td>${d.codes[c] === undefined ? '—' : escapeHtml(d.codes[c]!.join(', ') || '(none)')}</td>`).join('')}</tr>`,
    )
    .join('');
  const codeNames = a.codes.map((c) => c.code);
  const byLabel = (title: string, table: CodeAgreement['codes_by_label']['final']): string =>
    table.length === 0
      ? ''
      : `<h3>${title}</h3><table><tr><th>label</th><th>protocols</th>${codeNames.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>${table.map((r) => `<tr><td>${escapeHtml(r.label)}</td><td>${r.protocols}</td>${codeNames.map((c) => `<td>${r.codes[c] ?? 0}</td>`).join('')}</tr>`).join('')}</table>`;
  const h = a.codes_by_hesitation;
  return `<h2>Agreement on codes</h2>
<p class="muted">Codebook version ${escapeHtml(a.codebook_version ?? '—')} · coders: ${coders.map(escapeHtml).join(', ') || '—'} · ${a.pairable_units} units coded by two or more coders who finished the item${a.unfinished > 0 ? ` · ${a.unfinished} protocol(s) coded but not finished, left out` : ''}${basisNote(a)}</p>
${alphaChartSvg(a.codes.map((c) => ({ name: c.code, alpha: c.alpha, ci95: c.ci95 })))}
<table><tr><th>code</th><th>α (presence)</th><th>95% interval</th><th>pairable units</th><th>codings</th><th></th></tr>${rows}</table>
${overall}
<h3>Units the coders disagree on most (${a.disagreements.length})</h3>
${a.disagreements.length === 0 ? '<p class="muted">No unit has differing codes.</p>' : `<table><tr><th>unit</th><th>text</th>${coders.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>${disagreements}</table>`}
${byLabel('Codes in the items of each final label', a.codes_by_label.final)}
${byLabel('Codes in the items of each blind (first) label', a.codes_by_label.blind)}
<h3>Codes by hesitation</h3>
<p class="muted">${h.units_before_long_pause} of ${h.units} units are followed by a pause of at least ${h.long_pause_ms} ms before the next unit.</p>
<table><tr><th>code</th><th>codings</th><th>before a long pause</th><th>share</th></tr>${h.per_code.map((r) => `<tr><td>${escapeHtml(r.code)}</td><td>${r.codings}</td><td>${r.before_long_pause}</td><td>${r.share_before_long_pause === null ? '—' : `${Math.round(100 * r.share_before_long_pause)}%`}</td></tr>`).join('')}</table>
`;
}
