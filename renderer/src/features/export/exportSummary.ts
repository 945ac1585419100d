import type { IntlShape } from 'react-intl';
import type { ExportSummary } from '../../../../core/common/export/exportApi';
import { EXPORT_GAP_ORDER, type ExportSummaryFacts } from '../../../../core/common/export/exportSummaryFacts';

/** What the export holds and lacks ("26 records; 12 have no audio, 13 have no label"), from its facts, in the interface's language. */
export function exportFactsWords(facts: ExportSummaryFacts, intl: IntlShape): string {
  let said: string;
  if (facts.interop) {
    const withoutAudio = facts.records - facts.interop.recordings;
    said = intl.formatMessage(
      { id: withoutAudio > 0 ? 'export.facts.interop.withoutAudio' : 'export.facts.interop' },
      { ...facts.interop, withoutAudio },
    );
  } else {
    const gaps = EXPORT_GAP_ORDER.filter((r) => (facts.gaps[r] ?? 0) > 0).map((r) =>
      intl.formatMessage({ id: `export.facts.gap.${r}` }, { count: facts.gaps[r] }),
    );
    said =
      gaps.length === 0
        ? intl.formatMessage({ id: 'export.facts.records.complete' }, { records: facts.records })
        : intl.formatMessage({ id: 'export.facts.records' }, { records: facts.records, gaps: intl.formatList(gaps, { type: 'unit' }) });
  }
  const d = facts.deidentification;
  if (d) {
    const spans = Object.entries(d.spans_by_class).map(([spanClass, count]) =>
      intl.formatMessage({ id: 'export.facts.deidentified.span' }, { spanClass, count: intl.formatNumber(count) }),
    );
    const more = intl.formatMessage(
      { id: 'export.facts.deidentified' },
      {
        version: d.list_version,
        spans:
          spans.length > 0 ? intl.formatList(spans, { type: 'unit' }) : intl.formatMessage({ id: 'export.facts.deidentified.nothing' }),
        audio: d.audio,
        margin: d.margin_ms,
      },
    );
    said = intl.formatMessage({ id: 'export.facts.more' }, { said, more });
  }
  if (facts.not_deidentified)
    said = intl.formatMessage({ id: 'export.facts.more' }, { said, more: intl.formatMessage({ id: 'export.facts.notDeidentified' }) });
  return said;
}

/** "Exported 20 records; 18 have no audio, 19 have no label (ana)." — the export's gaps in words, and whose sessions. */
export function exportSummaryWords(summary: ExportSummary, intl: IntlShape): string {
  const said = exportFactsWords(summary.facts, intl);
  const annotators = summary.annotators && summary.annotators.length > 0 ? summary.annotators.join(', ') : null;
  return annotators === null
    ? intl.formatMessage({ id: 'export.summary' }, { summary: said })
    : intl.formatMessage({ id: 'export.summary.whose' }, { summary: said, annotators });
}
