import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SerialQueue } from '../../common/concurrency/serialQueue';
import type { ExportApi, ExportEvent, ExportSummary, ProjectExportFormat } from '../../common/export/exportApi';
import { exportSummaryFacts } from '../../common/export/exportSummaryFacts';
import { exportInFormat, exportTargetKind } from './exportInFormat';
import { checkExportTarget } from '../exportFiles/exportTarget';
import { projectSessionSource } from '../session/projectSessions';
import { resolveInside } from '../fs/resolveInside';
import { sha256Hex } from '../fs/sha256';
import type { SessionService } from '../session/sessionService';
import type { OpenProject } from '../project/projectFolder';
import type { SessionSlot } from '../session/sessionSlot';
import { loadDeidentifyList } from '../deidentify/deidentifyProject';

type ExportProgress = (p: { done: number; total: number }) => void;

/**
 * The export domain of the app API: the open session, or the project's sessions (one annotator's or everyone's),
 * written by the host into the exports folder (the page never names a path), after the running transcriptions land.
 */
/** What the export handlers use of the app: the call queue, the open project and session, where exports go, the page's events. */
export interface ExportHost {
  readonly calls: SerialQueue;
  readonly project: OpenProject;
  readonly session: Pick<SessionSlot, 'require'>;
  readonly options: { readonly exportsDir?: string; now?: () => Date };
  emit(event: ExportEvent): void;
}

export function exportHandlers(app: ExportHost): ExportApi {
  /** about a hundred updates for a large project, not one per record */
  const progressEvents = (): ExportProgress => {
    let shown = -1;
    return ({ done, total }) => {
      const step = Math.floor((100 * done) / Math.max(1, total));
      if (step === shown) return;
      shown = step;
      app.emit({ type: 'export_progress', done, total });
    };
  };
  /** `whose`: the annotator whose session is exported (from the open session), or null for everyone's */
  const exportAs = (
    format: ProjectExportFormat,
    whose: (open: SessionService) => string | null,
    options: { progress: boolean; deidentify?: boolean },
  ): Promise<ExportSummary> =>
    app.calls.run(async () => {
      const session = app.session.require();
      const annotator = whose(session);
      // transcriptions still running would be missing from the export: wait for them first
      await session.drainTranscriptions();
      const onProgress = options.progress ? { onProgress: progressEvents() } : {};
      const whoseSessions = { ...(annotator === null ? {} : { annotator }), ...(options.deidentify ? { deidentify: true } : {}) };
      // a project with a list whose export is not de-identified says so, in one line of the summary
      const notDeidentified = !options.deidentify && (await loadDeidentifyList(app.project)) !== null;
      const plain = notDeidentified ? '; NOT de-identified (the project has deidentify.yaml)' : '';
      const exported = await exportInFormat({
        project: app.project,
        ...whoseSessions,
        format,
        out: await exportTarget(app, annotator, format),
        sessions: projectSessionSource,
        ...onProgress,
      });
      if (exported.folder) {
        // a folder per export: the files for the tool, and <format>.receipt.json with each file's sha256
        const { result } = exported;
        return {
          file: result.out,
          folder: true,
          receipt: result.receipt_file,
          records: result.receipt.records,
          gaps: result.receipt.gaps.length,
          summary: result.summary + plain,
          facts: exportSummaryFacts(result.receipt, {
            interop: {
              recordings: result.receipt.recordings,
              annotators: result.receipt.annotators.length,
              files: result.receipt.files.length,
            },
            notDeidentified,
          }),
          sha256: sha256Hex(await readFile(result.receipt_file)),
        };
      }
      const { result } = exported;
      return {
        file: result.file,
        receipt: result.receipt_file,
        records: result.receipt.records,
        gaps: result.receipt.counts.gaps,
        summary: result.summary + plain,
        facts: exportSummaryFacts(result.receipt, { notDeidentified }),
        sha256: result.receipt.sha256,
      };
    });
  return {
    exportSession: (format) => exportAs(format, (open) => open.store.annotator, { progress: false }),
    exportProject: async (format, annotator) => ({
      ...(await exportAs(format, () => annotator, { progress: true })),
      annotators: annotator === null ? await projectSessionSource.annotators(app.project) : [annotator],
    }),
    exportDeidentified: async (format, annotator) => ({
      ...(await exportAs(format, () => annotator, { progress: true, deidentify: true })),
      annotators: annotator === null ? await projectSessionSource.annotators(app.project) : [annotator],
    }),
  };
}

/**
 * Where an export goes: the exports folder (inside the project unless the host chose one), named by whose sessions
 * and when; a folder of its own for the interop formats. The target policy speaks first (the project's data, links),
 * then the folder is made.
 */
async function exportTarget(app: ExportHost, annotator: string | null, format: ProjectExportFormat): Promise<string> {
  const dir = app.options.exportsDir ?? path.join(app.project.dir, 'exports');
  const stamp = (app.options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
  const who = annotator === null ? 'all-annotators' : annotator.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'annotator';
  const kind = exportTargetKind(format);
  const out = path.join(dir, kind === 'folder' ? `${who}-${stamp}-${format}` : `${who}-${stamp}.${format}`);
  await checkExportTarget(app.project, out, kind, { force: false });
  await mkdir(dir, { recursive: true });
  if (!app.options.exportsDir) await resolveInside(app.project.dir, dir, 'write');
  return out;
}
