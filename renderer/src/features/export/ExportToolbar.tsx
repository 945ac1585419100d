import { useState } from 'react';
import type { ExportSummary, ProjectExportFormat } from '../../../../core/common/export/exportApi';
import { INTEROP_FORMATS, INTEROP_FORMAT_TITLES } from '../../../../core/common/export/interop/interopFormats';
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
        aria-label="export whose sessions"
        value={exporting.scope}
        onChange={(e) => onChoice({ scope: e.target.value as ExportScope })}
      >
        <option value="mine">my session</option>
        <option value="all">all annotators</option>
      </select>
      <select
        aria-label="export format"
        value={exporting.format}
        onChange={(e) => onChoice({ format: e.target.value as ProjectExportFormat })}
      >
        <option value="jsonl">JSONL</option>
        <option value="json">JSON</option>
        <option value="csv">CSV</option>
        <optgroup label="for other tools (a folder)">
          {INTEROP_FORMATS.map((f) => (
            <option key={f} value={f}>
              {INTEROP_FORMAT_TITLES[f]}
            </option>
          ))}
        </optgroup>
      </select>
      <label className="deidentified-choice" title="placeholders for what deidentify.yaml lists; those spans silenced in the recordings">
        <input type="checkbox" checked={deidentified} onChange={(e) => setDeidentified(e.target.checked)} /> de-identified
      </label>
      <button onClick={() => void doExport()} disabled={exporting.busy}>
        {exporting.busy ? 'Exporting…' : 'Export'}
      </button>
    </>
  );
}

/** The export's banners: its progress while it runs, then its summary until dismissed. */
export function ExportBanners({ exporting, onDismiss }: { exporting: ExportState; onDismiss: () => void }) {
  return (
    <>
      {exporting.busy && (
        <div className="banner info" role="status">
          <span>Exporting…{exporting.progress ? ` ${exporting.progress.done} of ${exporting.progress.total} records` : ''}</span>
          {exporting.progress ? (
            <progress aria-label="export progress" value={exporting.progress.done} max={Math.max(1, exporting.progress.total)} />
          ) : (
            <progress aria-label="export progress" />
          )}
        </div>
      )}
      {exporting.done && (
        <div className="banner info export-summary" role="status">
          <span>
            {exportSummaryWords(exporting.done)} {exporting.done.folder ? 'Folder' : 'File'}: <code>{exporting.done.file}</code>
          </span>
          <button className="link" onClick={onDismiss} aria-label="dismiss">
            ✕
          </button>
        </div>
      )}
    </>
  );
}
