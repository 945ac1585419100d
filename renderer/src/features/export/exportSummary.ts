import type { IntlShape } from 'react-intl';
import type { ExportSummary } from '../../../../core/common/export/exportApi';

/**
 * "Exported 20 records; 18 have no audio, 19 have no label (ana)." — the export's own gaps in words, and whose sessions.
 * The gaps sentence is the host's (as the CLI prints it); the frame around it is the interface's language.
 */
export function exportSummaryWords(summary: ExportSummary, intl: IntlShape): string {
  const annotators = summary.annotators && summary.annotators.length > 0 ? summary.annotators.join(', ') : null;
  return annotators === null
    ? intl.formatMessage({ id: 'export.summary' }, { summary: summary.summary })
    : intl.formatMessage({ id: 'export.summary.whose' }, { summary: summary.summary, annotators });
}
