import { escapeHtml, reportPageHead } from '../agreement/agreementHtml';
import type { GoldReport } from './goldReport';

const f = (x: number, digits = 3): string => (Number.isFinite(x) ? x.toFixed(digits) : '—');
const ci = (c: readonly [number, number]): string => `[${f(c[0])}, ${f(c[1])}]`;

/** An interval as a bar on [0, 1]: the lead sees at a glance whose competence is uncertain. */
function intervalBar(value: number, interval: readonly [number, number]): string {
  const x = (v: number): number => 4 + Math.max(0, Math.min(1, v)) * 152;
  return `<svg width="160" height="14" role="img" aria-label="${f(value)} ${ci(interval)}"><rect x="4" y="6" width="152" height="2" fill="#ddd"/><rect x="${x(interval[0])}" y="3" width="${Math.max(1, x(interval[1]) - x(interval[0]))}" height="8" fill="#9bc"/><circle cx="${x(value)}" cy="7" r="3" fill="#124"/></svg>`;
}

/** A self-contained HTML page of the gold report (opens offline, no script). */
export function goldHtml(
  report: GoldReport,
  meta: { title: string; sources: readonly string[]; generatedAt: string; hesitation?: string | null },
): string {
  const annotators = [...report.annotators].sort((a, b) => b.competence - a.competence);
  const uncertain = [...report.items].sort((a, b) => a.probability - b.probability).slice(0, 50);
  return `${reportPageHead(meta.title)}
<p class="muted">Model: ${escapeHtml(report.model)} · ${report.items.length} items · ${report.annotators.length} annotators · labels ${report.labels.map(escapeHtml).join(', ')} · 95% intervals: ${escapeHtml(report.intervals.method)}, ${report.intervals.resamples} resamples, seed ${report.intervals.seed} · ${escapeHtml(meta.generatedAt)}</p>
<p class="muted">Sources: ${meta.sources.map(escapeHtml).join(', ') || '—'}</p>
<h2>Which model fits</h2>
<p class="model-fit">${escapeHtml(report.model_fit.said)}.</p>
<table><tr><th>model</th><th>held-out log-likelihood</th><th>per annotation</th><th>behind the best (95%)</th></tr>
${report.model_fit.scores.map((s) => `<tr><td>${escapeHtml(s.model)}</td><td>${f(s.log_likelihood, 1)}</td><td>${f(s.per_annotation)}</td><td>${s.behind_best_ci95 ? `${f(s.behind_best)} ${ci(s.behind_best_ci95)}` : '—'}</td></tr>`).join('\n')}
</table>
${meta.hesitation ? `<h2>Hesitation as evidence</h2><p class="hesitation">${escapeHtml(meta.hesitation)}</p>` : ''}
<h2>Annotators</h2>
<p class="muted">Competence: ${escapeHtml(report.competence_scale)}.</p>
<table><tr><th>annotator</th><th>competence</th><th>95% interval</th><th></th><th>labels</th></tr>
${annotators.map((a) => `<tr><td>${escapeHtml(a.annotator)}</td><td>${f(a.competence)}</td><td>${ci(a.ci95)}</td><td>${intervalBar(a.competence, a.ci95)}</td><td>${a.annotations}</td></tr>`).join('\n')}
</table>
<h2>Label pairs the guideline leaves confused (${report.confused_pairs.length})</h2>
${report.confused_pairs.length === 0 ? '<p class="muted">No pair is confused beyond the annotators\' general error rates.</p>' : `<table><tr><th>labels</th><th>confused by</th><th>items</th></tr>${report.confused_pairs.map((p) => `<tr><td>${escapeHtml(p.labels[0])} / ${escapeHtml(p.labels[1])}</td><td>${p.annotators.length} of ${p.of}: ${p.annotators.map(escapeHtml).join(', ')}</td><td>${p.items.map((i) => `<code>${escapeHtml(i)}</code>`).join(' ')}</td></tr>`).join('\n')}</table>`}
<h2>Least certain items (${uncertain.length} of ${report.items.length})</h2>
<table><tr><th>item</th><th>label</th><th>probability</th><th>95% interval</th><th>difficulty (1/β)</th><th>source</th></tr>
${uncertain.map((i) => `<tr><td><code>${escapeHtml(i.item_id)}</code></td><td>${escapeHtml(i.label)}</td><td>${f(i.probability)}</td><td>${ci(i.ci95)}</td><td>${i.difficulty === null ? '—' : f(i.difficulty)}</td><td>${i.source}</td></tr>`).join('\n')}
</table>
</body></html>
`;
}
