import type { Item } from '../../common/items/item';
import type { ItemSessionState } from '../../common/session/itemState';
import type { DeidentificationReceipt } from '../../common/deidentified/deidentifyReceipt';
import type { SpanMatcher } from '../../common/deidentify/spanMatcher';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';
import { buildExportRecord } from '../../common/export/exportRecord';
import type { OpenProject } from '../project/projectFolder';
import type { SessionSource } from '../session/sessionSource';
import { deidentifyExport } from './deidentifyProject';
import { requireDeidentifyList } from './deidentifiedRecords';
import { loadReviewDecisions } from './reviewLog';

/**
 * The item states a transcript export (txt, srt, vtt) writes, de-identified: the same records as every export
 * de-identified by the same rules (placeholders, review decisions), their transcript and segments put back.
 */
export async function deidentifiedTranscripts(
  project: OpenProject,
  sessions: SessionSource,
  annotators: readonly string[],
  items: readonly Item[],
): Promise<{
  states(annotator: string): ItemSessionState[];
  receipt: DeidentificationReceipt;
  matcher: SpanMatcher;
  keptByReview: ReadonlySet<string>;
}> {
  const loaded = await requireDeidentifyList(project);
  const review = await loadReviewDecisions(project, annotators);
  const byAnnotator = new Map<string, ItemSessionState[]>();
  const records = [];
  const originals = new Map<string, ItemSessionState>();
  for (const annotator of annotators) {
    const { items: states } = await sessions.load(project, annotator);
    const byItem = new Map(states.map((s) => [s.item_id, s]));
    for (const item of items) {
      const state = byItem.get(item.id) ?? null;
      if (state) originals.set(`${annotator}\u0000${item.id}`, state);
      records.push(
        buildExportRecord({
          project: project.config.name,
          annotator,
          item,
          itemTextSha256: '',
          itemContextSha256: null,
          state,
          notes: [],
          audioSha256: null,
          appVersion: '',
          configSha256: '',
          exportedAt: '',
        }),
      );
    }
  }
  const deidentified = deidentifyExport(loaded, records, review, AUDIO_SAMPLE_RATE);
  for (const r of deidentified.records) {
    const state = originals.get(`${r.annotator}\u0000${r.item_id}`);
    if (!state) continue;
    const list = byAnnotator.get(r.annotator) ?? [];
    list.push({
      ...state,
      transcript: r.transcript ?? '',
      segments: r.segments.map(({ utterance: _u, index: _i, ...segment }) => segment),
    });
    byAnnotator.set(r.annotator, list);
  }
  return {
    states: (annotator) => byAnnotator.get(annotator) ?? [],
    receipt: deidentified.receipt(new Map()),
    matcher: loaded.matcher,
    keptByReview: deidentified.keptByReview,
  };
}
