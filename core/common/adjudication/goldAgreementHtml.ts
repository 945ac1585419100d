import { alphaChartSvg, escapeHtml } from '../agreement/agreementHtml';
import type { GoldAgreementReport, OverturnRate } from './goldAgreement';

const fmt = (x: number | null): string => (x === null ? '—' : x.toFixed(3));
const ci = (c: [number, number] | null): string => (c ? `[${c[0].toFixed(3)}, ${c[1].toFixed(3)}]` : '—');
const percent = (x: number | null): string => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);
const ciPercent = (c: [number, number] | null): string => (c ? `[${(100 * c[0]).toFixed(1)}%, ${(100 * c[1]).toFixed(1)}%]` : '—');

/**
 * The gold section of the `--html` report, the same figures as the JSON's `gold`: each annotator against the gold
 * labels (accuracy with its Wilson interval, α with its bootstrap interval), the causes by count, and the guideline
 * flags with their items (where the codebook and label definitions get fixed). Every name and text is escaped.
 */
export function goldAgreementHtml(g: GoldAgreementReport): string {
  const sources = Object.entries(g.sources)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([source, n]) => `${escapeHtml(source)} ${n}`)
    .join(' · ');
  const annotatorRows = g.annotators
    .map(
      (a) =>
        `<tr><td>${escapeHtml(a.annotator)}</td><td>${a.items}</td><td>${a.matches}</td><td>${percent(a.accuracy)}</td><td>${ciPercent(a.accuracy_ci95)}</td><td>${fmt(a.alpha)}</td><td>${ci(a.alpha_ci95)}</td></tr>`,
    )
    .join('');
  const causes =
    g.causes.length === 0
      ? '<p class="muted">No adjudicated item yet.</p>'
      : `<table class="gold-causes"><tr><th>cause</th><th>items</th></tr>${g.causes.map((c) => `<tr><td>${escapeHtml(c.cause)}</td><td>${c.count}</td></tr>`).join('')}</table>`;
  const flags =
    g.guideline_flags.length === 0
      ? '<p class="muted">No decision flagged the guidelines.</p>'
      : `<table class="gold-flags"><tr><th>item</th><th>flag</th><th>adjudicator</th><th>decided</th></tr>${g.guideline_flags
          .map(
            (f) =>
              `<tr><td><code>${escapeHtml(f.item_id)}</code></td><td>${escapeHtml(f.text)}</td><td>${escapeHtml(f.adjudicator)}</td><td>${escapeHtml(f.decided_at)}</td></tr>`,
          )
          .join('')}</table>`;
  const h = g.hesitation;
  const overturnRow = (kind: string, r: OverturnRate) =>
    `<tr><td>${kind}</td><td>${r.labels}</td><td>${r.overturned}</td><td>${percent(r.rate)}</td><td>${ciPercent(r.ci95)}</td></tr>`;
  const hesitation = h
    ? `<h3>Hesitant vs confident labels, overturned</h3>
<p class="muted">${escapeHtml(h.definition)}. Adjudicated items only; Wilson 95% intervals${h.unmeasured > 0 ? `; ${h.unmeasured} labels without hesitation measures left out` : ''}.</p>
<table class="gold-hesitation"><tr><th>labels</th><th>n</th><th>overturned</th><th>share</th><th>95% interval</th></tr>${overturnRow('hesitant', h.hesitant)}${overturnRow('confident', h.confident)}</table>
<p>${h.difference ? `Difference (hesitant − confident): ${(100 * h.difference.rate).toFixed(1)} points, 95% [${(100 * h.difference.ci95[0]).toFixed(1)}, ${(100 * h.difference.ci95[1]).toFixed(1)}] (Newcombe)` : 'No difference to show: one of the two kinds has no labels on adjudicated items.'}</p>
`
    : '';
  return `<h2>Against the gold labels</h2>
<p class="muted">${g.gold_items} items with a gold label · sources: ${sources || '—'} · accuracy with Wilson 95% intervals, α of each annotator with the gold labels with bootstrap 95% intervals</p>
${alphaChartSvg(g.annotators.map((a) => ({ name: a.annotator, alpha: a.alpha, ci95: a.alpha_ci95 })))}
<table class="gold-annotators"><tr><th>annotator</th><th>items</th><th>gold</th><th>accuracy</th><th>95% interval</th><th>α</th><th>95% interval</th></tr>${annotatorRows}</table>
<h3>Causes of disagreement, by count</h3>
${causes}
<h3>Guideline flags (${g.guideline_flags.length})</h3>
${flags}
${hesitation}`;
}
