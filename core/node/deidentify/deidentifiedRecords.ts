import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExportRecordV2 } from '../../common/export/exportRecord';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';
import { DEIDENTIFY_FILE } from '../../common/deidentify/deidentifyList';
import type { DeidentificationReceipt } from '../../common/deidentify/deidentifyReceipt';
import { writeFileAtomic } from '../fs/atomicFile';
import { resolveInside } from '../fs/resolveInside';
import { sha256Hex } from '../fs/sha256';
import { ProjectError } from '../project/projectError';
import type { OpenProject } from '../project/projectFolder';
import { encodeFileName } from '../session/sessionPaths';
import { checkExportTarget } from '../export/exportTarget';
import { deidentifiedRecordKey, deidentifyExport, loadDeidentifyList, type LoadedDeidentifyList } from './deidentifyProject';
import { loadReviewDecisions } from './reviewLog';

/** The project's list, required: a de-identified export without one would hide nothing and say it did. */
export async function requireDeidentifyList(project: OpenProject): Promise<LoadedDeidentifyList> {
  const loaded = await loadDeidentifyList(project);
  if (!loaded) throw new ProjectError(`${path.join(project.dir, DEIDENTIFY_FILE)}: not found; --deidentify needs the project's list of what to hide (terms: [{text, class}]; see README "De-identified exports")`);
  return loaded;
}

/** The folder beside a records export that holds its de-identified recordings: `study.jsonl` → `study.jsonl.audio/`. */
export function deidentifiedAudioFolder(out: string): string {
  return `${out}.audio`;
}

/**
 * The records of a jsonl/json/csv export, de-identified: texts with placeholders, and each recording written,
 * masked, to `<out>.audio/<annotator>/<item>.wav`, which the record's audio path and sha256 then name (relative to
 * the export's folder). The session WAVs are read, never written. Returns the receipt's statement.
 */
export async function deidentifyRecordsExport(project: OpenProject, records: readonly ExportRecordV2[], out: string, force: boolean): Promise<{ records: ExportRecordV2[]; deidentification: DeidentificationReceipt }> {
  const loaded = await requireDeidentifyList(project);
  const review = await loadReviewDecisions(project, [...new Set(records.map((r) => r.annotator))]);
  const deidentified = deidentifyExport(loaded, records, review, AUDIO_SAMPLE_RATE);
  const folder = deidentifiedAudioFolder(out);
  const withAudio = deidentified.records.filter((r) => r.audio !== null && r.audio.sha256 !== null);
  if (withAudio.length > 0) {
    await checkExportTarget(project, folder, 'folder', { force });
    await mkdir(folder, { recursive: true });
  }
  const paths = new Map<string, string>();
  const result: ExportRecordV2[] = [];
  for (const r of deidentified.records) {
    if (r.audio === null || r.audio.sha256 === null) {
      result.push(r);
      continue;
    }
    const bytes = await readFile(await resolveInside(project.dir, path.join(...r.audio.path.split('/')), 'read'));
    if (sha256Hex(bytes) !== r.audio.sha256) throw new ProjectError(`${r.audio.path}: changed while exporting (its sha256 is no longer the one recorded); export again`);
    const masked = deidentified.maskWav(r.annotator, r.item_id, bytes, r.audio.path);
    const relative = `${path.basename(folder)}/${encodeFileName(r.annotator, 'annotator name')}/${encodeFileName(r.item_id, 'item id')}.wav`;
    const target = path.join(path.dirname(folder), ...relative.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFileAtomic(target, masked);
    paths.set(deidentifiedRecordKey(r.annotator, r.item_id), relative);
    result.push({ ...r, audio: { ...r.audio, path: relative, sha256: sha256Hex(masked) } });
  }
  return { records: result, deidentification: deidentified.receipt(paths) };
}
