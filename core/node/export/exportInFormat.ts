import type { ExportFormat } from '../../common/export/exportFormats';
import { isInteropFormat, type InteropFormat } from '../../common/export/interop/interopFormats';
import { exportSessions, type ExportOptions, type ExportResult } from './exportSessions';
import { exportInteropWithInstalledVad, type InteropExportResult } from './interop/interopExport';

/** A format of the Export menu (and of `aloud export` besides transcripts, process-reward, qdc and --gold). */
export type SessionsExportFormat = ExportFormat | InteropFormat;

/** What one export wrote: records to a file (with its receipt beside), or a folder for another tool (its receipt inside). */
export type SessionsExport = { folder: false; result: ExportResult } | { folder: true; result: InteropExportResult };

/** An export of records is a file; of an interop format, a folder: the target policy checks the one or the other. */
export function exportTargetKind(format: SessionsExportFormat): 'file' | 'folder' {
  return isInteropFormat(format) ? 'folder' : 'file';
}

/**
 * THE format dispatch of an export of the project's sessions, for the app (exportHandlers.ts) and the CLI
 * (cli/commands/export.ts): records through exportSessions, the interop formats through their writers (with the
 * installed VAD where the format marks pauses). `out` is the file, or the folder for an interop format.
 */
export async function exportInFormat(options: Omit<ExportOptions, 'format'> & { format: SessionsExportFormat }): Promise<SessionsExport> {
  const { format, out, withItems, ...common } = options;
  if (isInteropFormat(format)) return { folder: true, result: await exportInteropWithInstalledVad({ ...common, format, outDir: out }) };
  return { folder: false, result: await exportSessions({ ...common, format, out, ...(withItems === undefined ? {} : { withItems }) }) };
}
