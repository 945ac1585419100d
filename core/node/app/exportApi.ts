import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AloudApi, ExportFormat, ExportSummary } from '../../common/contract/aloudApi';
import { exportSessions } from '../export/exportSessions';
import { projectSessionSource } from '../export/projectSessions';
import { resolveInside } from '../fs/resolveInside';
import type { SessionService } from '../session/sessionService';
import type { AppContext } from './appContext';

/**
 * The export domain of the app API: the open session, or the project's sessions (one annotator's or everyone's),
 * written by the host into the exports folder (the page never names a path), after the running transcriptions land.
 */
export function exportApi(app: AppContext) {
  /** `whose`: the annotator whose session is exported (from the open session), or null for everyone's */
  const exportAs = (format: ExportFormat, whose: (open: SessionService) => string | null, options: { progress: boolean }): Promise<ExportSummary> =>
    app.calls.run(async () => {
      const session = app.session.require();
      const annotator = whose(session);
      // transcriptions still running would be missing from the export: wait for them first
      await session.drainTranscriptions();
      let shown = -1;
      const result = await exportSessions({
        project: app.project,
        ...(annotator === null ? {} : { annotator }),
        format,
        out: await exportFile(app, annotator, format),
        sessions: projectSessionSource,
        ...(options.progress
          ? {
              onProgress: ({ done, total }: { done: number; total: number }) => {
                // about a hundred updates for a large project, not one per record
                const step = Math.floor((100 * done) / Math.max(1, total));
                if (step === shown) return;
                shown = step;
                app.emit({ type: 'export_progress', done, total });
              },
            }
          : {}),
      });
      const { receipt } = result;
      return { file: result.file, receipt: result.receipt_file, records: receipt.records, gaps: receipt.counts.gaps, summary: result.summary, sha256: receipt.sha256 };
    });
  return {
    exportSession: (format) => exportAs(format, (open) => open.store.annotator, { progress: false }),
    exportProject: async (format, annotator) => ({
      ...(await exportAs(format, () => annotator, { progress: true })),
      annotators: annotator === null ? await projectSessionSource.annotators(app.project) : [annotator],
    }),
  } satisfies Partial<AloudApi>;
}

/** Where an export goes: the exports folder (inside the project unless the host chose one), named by whose sessions and when. */
async function exportFile(app: AppContext, annotator: string | null, format: ExportFormat): Promise<string> {
  const dir = app.options.exportsDir ?? path.join(app.project.dir, 'exports');
  await mkdir(dir, { recursive: true });
  if (!app.options.exportsDir) await resolveInside(app.project.dir, dir, 'write');
  const stamp = (app.options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
  const who = annotator === null ? 'all-annotators' : annotator.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'annotator';
  return path.join(dir, `${who}-${stamp}.${format}`);
}
