import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';
import { DEIDENTIFY_FILE } from '../../common/deidentify/deidentifyList';
import type { DeidentificationReceipt } from '../../common/deidentified/deidentifyReceipt';
import type { DeidentifiableRecord } from '../../common/deidentify/deidentifyRecord';
import type { SpanMatcher } from '../../common/deidentify/spanMatcher';
import { ProjectError } from '../fs/projectError';
import type { OpenProject } from '../project/projectFolder';
import { deidentifiedRecordKey, deidentifyExport } from './deidentifyProject';
import { requireDeidentifyList } from './deidentifiedRecords';
import { loadReviewDecisions } from './reviewLog';
import { say } from '../../common/refusal/refusalMessage';

/** The masked copy of each session recording an interop export writes, by its path in the project. */
export interface WavMasks {
  masked(sessionRelative: string, bytes: Uint8Array): Buffer;
}

/**
 * An interop export's records de-identified, and the masks its recordings get on the way out: ELAN, Praat, QDA,
 * Hugging Face and MAXQDA files are made from these records, so every text they carry holds the placeholders,
 * and every WAV they carry (copied, zipped or in the dataset) is the masked one.
 */
export async function deidentifiedInterop<R extends DeidentifiableRecord>(
  project: OpenProject,
  records: readonly R[],
): Promise<{
  records: R[];
  masks: WavMasks;
  /** what the export's own check looks for, the same matcher validate builds from the list */
  matcher: SpanMatcher;
  /** what reviewers said is not to be hidden (folded): not a leak */
  keptByReview: ReadonlySet<string>;
  receipt(files: ReadonlyArray<{ path: string; wav: string }>): DeidentificationReceipt;
}> {
  const loaded = await requireDeidentifyList(project);
  const hit = loaded.matcher.find(project.config.name)[0];
  if (hit)
    throw new ProjectError(
      say('refusal.deidentify.projectNameHoldsWhatHides', { name: JSON.stringify(project.config.name), DEIDENTIFY_FILE, class: hit.class }),
    );
  const review = await loadReviewDecisions(project, [...new Set(records.map((r) => r.annotator))]);
  const deidentified = deidentifyExport(loaded, records, review, AUDIO_SAMPLE_RATE);
  const bySessionPath = new Map(records.flatMap((r) => (r.audio ? [[r.audio.path, r] as const] : [])));
  return {
    records: deidentified.records,
    matcher: loaded.matcher,
    keptByReview: deidentified.keptByReview,
    masks: {
      masked(sessionRelative, bytes) {
        const r = bySessionPath.get(sessionRelative);
        if (!r) throw new ProjectError(say('refusal.deidentify.noRecordOfThisExport', { sessionRelative }));
        return deidentified.maskWav(r.annotator, r.item_id, bytes, sessionRelative);
      },
    },
    receipt(files) {
      const paths = new Map<string, string>();
      for (const f of files) {
        const r = bySessionPath.get(f.wav);
        if (r) paths.set(deidentifiedRecordKey(r.annotator, r.item_id), f.path);
      }
      return deidentified.receipt(paths);
    },
  };
}
