import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';
import { DEIDENTIFY_FILE } from '../../common/deidentify/deidentifyList';
import type { DeidentificationReceipt } from '../../common/deidentified/deidentifyReceipt';
import type { DeidentifiableRecord } from '../../common/deidentify/deidentifyRecord';
import { writeFileAtomic } from '../fs/atomicFile';
import { resolveInside } from '../fs/resolveInside';
import { sha256Hex } from '../fs/sha256';
import { ProjectError } from '../fs/projectError';
import type { OpenProject } from '../project/projectFolder';
import { encodeFileName } from '../session/sessionPaths';
import { checkExportTarget } from '../exportFiles/exportTarget';
import { Deidentifier, deidentifiedRecordKey, loadDeidentifyList, refuseHiddenNames, type LoadedDeidentifyList } from './deidentifyProject';
import { loadReviewDecisions } from './reviewLog';
import { leakProblems, refuseLeaks } from './exportedTexts';
import { recordTexts } from '../../common/deidentify/leakCheck';
import { say } from '../../common/refusal/refusalMessage';

/** The project's list, required: a de-identified export without one would hide nothing and say it did. */
export async function requireDeidentifyList(project: OpenProject): Promise<LoadedDeidentifyList> {
  const loaded = await loadDeidentifyList(project);
  if (!loaded)
    throw new ProjectError(say('refusal.deidentify.notFoundDeidentifyNeedsThe', { path: path.join(project.dir, DEIDENTIFY_FILE) }));
  return loaded;
}

/** The folder beside a records export that holds its de-identified recordings: `study.jsonl` → `study.jsonl.audio/`. */
export function deidentifiedAudioFolder(out: string): string {
  return `${out}.audio`;
}

/** A records export being de-identified as its records stream by. */
export interface DeidentifiedRecords {
  /** one record with placeholders; its recording written, masked, beside the export, which the record then names */
  record<R extends DeidentifiableRecord>(record: R): Promise<R>;
  /** the receipt's statement, once every record went by */
  receipt(): DeidentificationReceipt;
}

/**
 * A jsonl/json/csv export, de-identified: texts with placeholders, and each recording written, masked, to
 * `<out>.audio/<annotator>/<item>.wav`, which the record's audio path and sha256 then name (relative to the export's
 * folder). The session WAVs are read, never written. Names holding a hidden term are refused before anything is written.
 */
export async function deidentifiedRecords(
  project: OpenProject,
  out: string,
  force: boolean,
  annotators: readonly string[],
  itemIds: readonly string[],
): Promise<DeidentifiedRecords> {
  const loaded = await requireDeidentifyList(project);
  refuseHiddenNames(loaded.matcher, [
    ...annotators.map((a) => ['annotator name', a] as const),
    ...itemIds.map((i) => ['item id', i] as const),
  ]);
  const review = await loadReviewDecisions(project, annotators);
  const deidentifier = new Deidentifier(loaded, review, AUDIO_SAMPLE_RATE);
  const folder = deidentifiedAudioFolder(out);
  let folderChecked = false;
  const paths = new Map<string, string>();
  return {
    async record(record) {
      const r = deidentifier.record(record);
      // what validate checks in every record, checked before it is written
      refuseLeaks(
        leakProblems(
          recordTexts(r as unknown as Record<string, unknown>).map((t) => ({
            where: `${out} (record ${r.annotator} / ${r.item_id}, ${t.field})`,
            text: t.text,
          })),
          loaded.matcher,
          deidentifier.kept,
        ),
      );
      if (r.audio === null || r.audio.sha256 === null) return r;
      if (!folderChecked) {
        await checkExportTarget(project, folder, 'folder', { force });
        await mkdir(folder, { recursive: true });
        folderChecked = true;
      }
      const bytes = await readFile(await resolveInside(project.dir, path.join(...r.audio.path.split('/')), 'read'));
      if (sha256Hex(bytes) !== r.audio.sha256)
        throw new ProjectError(say('refusal.deidentify.changedWhileExportingItsSha', { path: r.audio.path }));
      const masked = deidentifier.maskWav(r.annotator, r.item_id, bytes, r.audio.path);
      const relative = `${path.basename(folder)}/${encodeFileName(r.annotator, 'annotator name')}/${encodeFileName(r.item_id, 'item id')}.wav`;
      const target = path.join(path.dirname(folder), ...relative.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFileAtomic(target, masked);
      paths.set(deidentifiedRecordKey(r.annotator, r.item_id), relative);
      return { ...r, audio: { ...r.audio, path: relative, sha256: sha256Hex(masked) } };
    },
    receipt: () => deidentifier.receipt(paths),
  };
}
