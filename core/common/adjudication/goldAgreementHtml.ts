import { alphaChartSvg, escapeHtml } from '../agreement/agreementHtml';
import { reportWords, type ReportMessageId, type ReportWords } from '../agreement/reportWords';
import type { GoldAgreementReport, OverturnRate } from './goldAgreement';

/**
 * The gold section of the `--html` report, the same figures as the JSON's `gold`: each annotator against the gold
 * labels (accuracy with its Wilson interval, α with its bootstrap interval), the causes by count, and the guideline
 * flags with their items (where the codebook and label definitions get fixed). Every name and text is escaped.
 */
export function goldAgreementHtml(g: GoldAgreementReport, t: ReportWords = reportWords('en')): string {
  const e = (id: ReportMessageId, values?: Readonly<Record<string, string | number>>) => escapeHtml(t(id, values));
  const fmt = (x: number | null): string => (x === null ? '—' : t.n(x, 3));
  const ci = (c: [number, number] | null): string => (c ? `[${t.n(c[0], 3)}, ${t.n(c[1], 3)}]` : '—');
  const percent = (x: number | null): string => (x === null ? '—' : t.percent(x, 1));
  const ciPercent = (c: [number, number] | null): string => (c ? `[${t.percent(c[0], 1)}, ${t.percent(c[1], 1)}]` : '—');
  const sources = Object.entries(g.sources)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([source, n]) => `${source} ${n}`)
    .join(' · ');
  const annotatorRows = g.annotators
    .map(
      (a) =>
        `<tr><td>${escapeHtml(a.annotator)}</td><td>${a.items}</td><td>${a.matches}</td><td>${percent(a.accuracy)}</td><td>${ciPercent(a.accuracy_ci95)}</td><td>${fmt(a.alpha)}</td><td>${ci(a.alpha_ci95)}</td></tr>`,
    )
    .join('');
  const causes =
    g.causes.length === 0
      ? `<p class="muted">${e('report.gold.noDecision')}</p>`
      : `<table class="gold-causes"><tr><th>${e('report.gold.cause')}</th><th>${e('report.gold.items')}</th></tr>${g.causes.map((c) => `<tr><td>${escapeHtml(c.cause)}</td><td>${c.count}</td></tr>`).join('')}</table>`;
  const flags =
    g.guideline_flags.length === 0
      ? `<p class="muted">${e('report.gold.noFlag')}</p>`
      : `<table class="gold-flags"><tr><th>${e('report.gold.item')}</th><th>${e('report.gold.flag')}</th><th>${e('report.gold.adjudicator')}</th><th>${e('report.gold.decided')}</th></tr>${g.guideline_flags
          .map(
            (f) =>
              `<tr><td><code>${escapeHtml(f.item_id)}</code></td><td>${escapeHtml(f.text)}</td><td>${escapeHtml(f.adjudicator)}</td><td>${escapeHtml(f.decided_at)}</td></tr>`,
          )
          .join('')}</table>`;
  const h = g.hesitation;
  const overturnRow = (kind: ReportMessageId, r: OverturnRate) =>
    `<tr><td>${e(kind)}</td><td>${r.labels}</td><td>${r.overturned}</td><td>${percent(r.rate)}</td><td>${ciPercent(r.ci95)}</td></tr>`;
  const hesitationNote = h
    ? h.unmeasured > 0
      ? t('report.gold.hesitationNoteUnmeasured', { definition: h.definition, count: h.unmeasured })
      : t('report.gold.hesitationNote', { definition: h.definition })
    : '';
  const difference = h?.difference
    ? t('report.gold.difference', {
        points: t.n(100 * h.difference.rate, 1),
        low: t.n(100 * h.difference.ci95[0], 1),
        high: t.n(100 * h.difference.ci95[1], 1),
      })
    : t('report.gold.noDifference');
  const hesitation = h
    ? `<h3>${e('report.gold.hesitation')}</h3>
<p class="muted">${escapeHtml(hesitationNote)}</p>
<table class="gold-hesitation"><tr><th>${e('report.gold.labels')}</th><th>n</th><th>${e('report.gold.overturned')}</th><th>${e('report.gold.share')}</th><th>${e('report.agreement.interval')}</th></tr>${overturnRow('report.gold.hesitant', h.hesitant)}${overturnRow('report.gold.confident', h.confident)}</table>
<p>${escapeHtml(difference)}</p>
`
    : '';
  return `<h2>${e('report.gold.heading')}</h2>
<p class="muted">${e('report.gold.summary', { items: g.gold_items, sources: sources || '—' })}</p>
${alphaChartSvg(
  g.annotators.map((a) => ({ name: a.annotator, alpha: a.alpha, ci95: a.alpha_ci95 })),
  t,
)}
<table class="gold-annotators"><tr><th>${e('report.gold.annotator')}</th><th>${e('report.gold.items')}</th><th>${e('report.gold.gold')}</th><th>${e('report.gold.accuracy')}</th><th>${e('report.agreement.interval')}</th><th>α</th><th>${e('report.agreement.interval')}</th></tr>${annotatorRows}</table>
<h3>${e('report.gold.causes')}</h3>
${causes}
<h3>${e('report.gold.flags', { count: g.guideline_flags.length })}</h3>
${flags}
${hesitation}`;
}
