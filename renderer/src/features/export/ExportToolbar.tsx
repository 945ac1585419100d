import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ExportSummary, ProjectExportFormat } from '../../../../core/common/export/exportApi';
import { INTEROP_FORMATS } from '../../../../core/common/export/interop/interopFormats';
import { useApi } from '../../shared/api';
import type { RunCall } from '../../shared/runCall';
import { exportSummaryWords } from './exportSummary';
import type { ExportScope, ExportState } from './exportState';

interface Props {
  exporting: ExportState;
  /** the open session's annotator: "my session" exports hers */
  annotator: string | null;
  run: RunCall;
  onChoice: (choice: { format?: ProjectExportFormat; scope?: ExportScope }) => void;
  onStarted: () => void;
  onFinished: (summary: ExportSummary | null) => void;
}

/** The top bar's export: whose sessions, the format, de-identified or not, and the button that writes it. */
export function ExportToolbar({ exporting, annotator, run, onChoice, onStarted, onFinished }: Props) {
  const client = useApi();
  const intl = useIntl();
  const [deidentified, setDeidentified] = useState(false);
  const doExport = async () => {
    onStarted();
    const whose = exporting.scope === 'all' ? null : annotator;
    const summary = await run(() =>
      deidentified ? client.exportDeidentified(exporting.format, whose) : client.exportProject(exporting.format, whose),
    );
    onFinished(summary ?? null);
  };
  return (
    <>
      <select
        aria-label={intl.formatMessage({ id: 'export.scope.label' })}
        value={exporting.scope}
        onChange={(e) => onChoice({ scope: e.target.value as ExportScope })}
      >
        <option value="mine">{intl.formatMessage({ id: 'export.scope.mine' })}</option>
        <option value="all">{intl.formatMessage({ id: 'export.scope.all' })}</option>
      </select>
      <select
        aria-label={intl.formatMessage({ id: 'export.format.label' })}
        value={exporting.format}
        onChange={(e) => onChoice({ format: e.target.value as ProjectExportFormat })}
      >
        {/* the file formats by their names (JSONL, JSON, CSV): the same in every language */}
        {(['jsonl', 'json', 'csv'] as const).map((f) => (
          <option key={f} value={f}>
            {f.toUpperCase()}
          </option>
        ))}
        <optgroup label={intl.formatMessage({ id: 'export.format.otherTools' })}>
          {INTEROP_FORMATS.map((f) => (
            <option key={f} value={f}>
              {intl.formatMessage({ id: `export.format.${f}` })}
            </option>
          ))}
        </optgroup>
      </select>
      <label className="deidentified-choice" title={intl.formatMessage({ id: 'export.deidentified.title' })}>
        <input type="checkbox" checked={deidentified} onChange={(e) => setDeidentified(e.target.checked)} />{' '}
        <FormattedMessage id="export.deidentified" />
      </label>
      <button onClick={() => void doExport()} disabled={exporting.busy}>
        {intl.formatMessage({ id: exporting.busy ? 'export.busy' : 'export.button' })}
      </button>
    </>
  );
}

/** The export's banners: its progress while it runs, then its summary until dismissed. */
export function ExportBanners({ exporting, onDismiss }: { exporting: ExportState; onDismiss: () => void }) {
  const intl = useIntl();
  return (
    <>
      {exporting.busy && (
        <div className="banner info" role="status">
          <span>
            {exporting.progress
              ? intl.formatMessage({ id: 'export.progress' }, { done: exporting.progress.done, total: exporting.progress.total })
              : intl.formatMessage({ id: 'export.busy' })}
          </span>
          {exporting.progress ? (
            <progress
              aria-label={intl.formatMessage({ id: 'export.progress.label' })}
              value={exporting.progress.done}
              max={Math.max(1, exporting.progress.total)}
            />
          ) : (
            <progress aria-label={intl.formatMessage({ id: 'export.progress.label' })} />
          )}
        </div>
      )}
      {exporting.done && (
        <div className="banner info export-summary" role="status">
          <span>
            {exportSummaryWords(exporting.done, intl)}{' '}
            <FormattedMessage
              id="export.written"
              values={{ folder: exporting.done.folder ? 'yes' : 'no', file: exporting.done.file, code: (chunks) => <code>{chunks}</code> }}
            />
          </span>
          <button className="link" onClick={onDismiss} aria-label={intl.formatMessage({ id: 'export.dismiss' })}>
            ✕
          </button>
        </div>
      )}
    </>
  );
}
