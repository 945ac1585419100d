import { mkdir, realpath, unlink } from 'node:fs/promises';
import path from 'node:path';
import {
  formatSrt,
  formatTranscriptTxt,
  formatVtt,
  TRANSCRIPT_RECEIPT,
  type TranscriptFormat,
} from '../../common/export/transcriptFormats';
import { sha256Hex } from '../fs/sha256';
import { ProjectError } from '../fs/projectError';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';
import { encodeFileName } from '../session/sessionPaths';
import { appVersion } from '../exportFiles/appVersion';
import { writeFileAtomic } from '../fs/atomicFile';
import { AtomicFileBatch } from '../fs/atomicFileBatch';
import { resolveInside, writableTarget } from '../fs/resolveInside';
import { checkExportTarget } from '../exportFiles/exportTarget';
import type { SessionSource } from '../session/sessionSource';
import type { DeidentificationReceipt } from '../../common/deidentified/deidentifyReceipt';
import { deidentifiedTranscripts } from '../deidentify/deidentifiedTranscripts';
import { exportedTexts, leakProblems, refuseLeaks } from '../deidentify/exportedTexts';
import { DEIDENTIFIED_SENTENCE } from '../../common/deidentified/deidentifiedMark';

export interface TranscriptFileEntry {
  annotator: string;
  item_id: string;
  /** relative to the output folder, "/" separated */
  path: string;
  sha256: string;
  bytes: number;
}

export interface TranscriptExportReceipt {
  receipt_version: 1;
  kind: 'transcripts';
  format: TranscriptFormat;
  project: string;
  files: TranscriptFileEntry[];
  /** items of the exported annotators with no transcript: no file is written for them */
  gaps: Array<{ annotator: string; item_id: string; reason: 'no_transcript' }>;
  app_version: string;
  created_at: string;
  /** present only on a de-identified export (core/common/deidentify) */
  deidentification?: DeidentificationReceipt;
}

/**
 * Transcript-only export: OUT/<annotator>/<item>.<txt|srt|vtt> for each item with a transcript, names encoded as
 * the session store encodes them (safe on every file system). The folder goes through the same target policy as
 * every export (never the project's data, never through a link), and so does every file in it (a link planted in
 * OUT is refused, not followed). Each file is written atomically (in synced batches: AtomicFileBatch); the receipt
 * OUT/transcripts.receipt.json (sha256 of every file) is written last, once every file is in place and durable.
 */
export async function exportTranscripts(options: {
  project: OpenProject;
  annotator?: string;
  format: TranscriptFormat;
  outDir: string;
  sessions: SessionSource;
  now?: () => Date;
  /** placeholders for what deidentify.yaml lists and the patterns find */
  deidentify?: boolean;
}): Promise<TranscriptExportReceipt> {
  const { project, format } = options;
  await checkExportTarget(project, options.outDir, 'folder', { force: false });
  const items = await loadProjectItems(project);
  const known = await options.sessions.annotators(project);
  if (options.annotator !== undefined && !known.includes(options.annotator))
    throw new ProjectError(`${project.dir}: no session for annotator "${options.annotator}"`);
  const annotators = options.annotator === undefined ? known : [options.annotator];
  if (annotators.length === 0) throw new ProjectError(`${project.dir}: no annotator sessions to export yet`);
  const hide = options.deidentify ? await deidentifiedTranscripts(project, options.sessions, annotators, items) : null;
  await mkdir(options.outDir, { recursive: true });
  const outDir = await realpath(options.outDir);
  // an earlier receipt must not vouch for files this export is about to replace
  await unlink(path.join(outDir, TRANSCRIPT_RECEIPT)).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
  const files: TranscriptFileEntry[] = [];
  const gaps: TranscriptExportReceipt['gaps'] = [];
  const batch = new AtomicFileBatch();
  try {
    for (const annotator of annotators) {
      const { items: states } = hide ? { items: hide.states(annotator) } : await options.sessions.load(project, annotator);
      const byItem = new Map(states.map((s) => [s.item_id, s]));
      const folder = encodeFileName(annotator, 'annotator name');
      /** the annotator's folder as a real path, checked once: each file in it is then checked by its own name */
      let realFolder: string | null = null;
      for (const item of items) {
        const state = byItem.get(item.id);
        if (!state || (state.transcript === '' && state.segments.length === 0)) {
          gaps.push({ annotator, item_id: item.id, reason: 'no_transcript' });
          continue;
        }
        const plain =
          format === 'txt'
            ? formatTranscriptTxt(state.transcript)
            : format === 'srt'
              ? formatSrt(state.segments)
              : formatVtt(state.segments);
        // a de-identified transcript says so inside: a first line, the WebVTT header, and in SRT (which has no header
        // or comment) a cue 0 that lasts no time, so players show nothing and the numbered cues keep their numbers
        const content = !hide
          ? plain
          : format === 'txt'
            ? `${DEIDENTIFIED_SENTENCE}\n\n${plain}`
            : format === 'vtt'
              ? plain.replace(/^WEBVTT/u, `WEBVTT ${DEIDENTIFIED_SENTENCE}`)
              : `0\n00:00:00,000 --> 00:00:00,000\n${DEIDENTIFIED_SENTENCE}\n\n${plain}`;
        const name = `${encodeFileName(item.id, 'item id')}.${format}`;
        const relative = `${folder}/${name}`;
        if (realFolder === null) {
          await resolveInside(outDir, folder, 'write');
          await mkdir(path.join(outDir, folder), { recursive: true });
          realFolder = await resolveInside(outDir, folder, 'read');
        }
        const bytes = Buffer.from(content, 'utf8');
        if (hide) refuseLeaks(leakProblems((await exportedTexts(relative, bytes))!, hide.matcher, hide.keptByReview));
        await batch.add(await writableTarget(realFolder, name, path.join(outDir, relative)), bytes);
        files.push({ annotator, item_id: item.id, path: relative, sha256: sha256Hex(bytes), bytes: bytes.length });
      }
    }
    // every file in place and durable before the receipt that lists them
    await batch.flush();
  } catch (e) {
    await batch.abandon();
    throw e;
  }
  const receipt: TranscriptExportReceipt = {
    receipt_version: 1,
    kind: 'transcripts',
    format,
    project: project.config.name,
    files,
    gaps,
    app_version: await appVersion(),
    created_at: (options.now ?? (() => new Date()))().toISOString(),
    ...(hide ? { deidentification: hide.receipt } : {}),
  };
  await writeFileAtomic(await resolveInside(outDir, TRANSCRIPT_RECEIPT, 'write'), `${JSON.stringify(receipt, null, 2)}\n`);
  return receipt;
}
