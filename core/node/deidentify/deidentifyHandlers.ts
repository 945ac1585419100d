import { PATTERN_CLASSES } from '../../common/deidentify/deidentifyPatterns';
import type { SerialQueue } from '../../common/concurrency/serialQueue';
import type { DeidentifyApi } from '../../common/deidentify/deidentifyApi';
import { Refusal } from '../../common/refusal/refusal';
import type { SpanRef } from '../../common/deidentify/deidentifyRecord';
import { decideReview, ReviewFold } from '../../common/deidentify/reviewDecisions';
import { buildReviewView, type DeidentifyReviewView } from '../../common/deidentify/reviewView';
import type { ExportRecordV2, ExportSegmentV2 } from '../../common/export/exportRecord';
import type { ItemSessionState } from '../../common/session/itemState';
import { loadDeidentifyList } from './deidentifyProject';
import { appendReviewDecision, readReviewLog, recordSegmentText, recordTextSha256 } from './reviewLog';
import { sha256Hex } from '../fs/sha256';
import type { OpenProject } from '../project/projectFolder';
import type { SessionSlot } from '../session/sessionSlot';
import { say } from '../../common/refusal/refusalMessage';

/** What the review's handlers use of the app: the call queue, the open project and session. */
export interface DeidentifyHost {
  readonly calls: SerialQueue;
  readonly project: OpenProject;
  readonly session: Pick<SessionSlot, 'require'>;
}

/** An item's segments and corrections in the shape of an export record (the texts the review decides on). */
function reviewedTexts(state: ItemSessionState | null): { segments: ExportSegmentV2[]; corrections: ExportRecordV2['corrections'] } {
  if (!state) return { segments: [], corrections: [] };
  const segments = state.segments.map((s, i) => ({
    ...s,
    utterance: state.segment_refs[i]?.utterance ?? 0,
    index: state.segment_refs[i]?.segment ?? 0,
  }));
  return {
    segments,
    corrections: state.corrections.map((c) => ({
      utterance: c.utterance,
      segment: c.segment,
      text: c.text,
      original_text: c.original_text,
      annotator: c.annotator,
      at: c.at,
    })),
  };
}

/**
 * The de-identification review of the app API: what an export would hide in an item of the open session, and the
 * reviewer's decisions (accept, reject, add), appended to the annotator's review log (sessions/<annotator>/
 * deidentify.jsonl) by the pure rule decideReview. The reviewer is the open session's name.
 */
export function deidentifyHandlers(app: DeidentifyHost): DeidentifyApi {
  const view = async (itemId: string): Promise<DeidentifyReviewView> => {
    const session = app.session.require();
    const loaded = await loadDeidentifyList(app.project);
    const record = reviewedTexts(session.itemState(itemId));
    const fold = new ReviewFold();
    for (const d of await readReviewLog(app.project, session.store.annotator)) fold.apply(d);
    const decisions = fold.itemDecisions(itemId).filter((d) => recordTextSha256(record, d.span) === d.text_sha256);
    const list = loaded
      ? {
          version: loaded.list.version,
          terms: loaded.list.terms.length,
          classes: [
            ...new Set([
              ...loaded.list.terms.map((t) => t.class),
              ...loaded.list.patterns.map((p) => PATTERN_CLASSES[p]),
              'PERSON',
              'PLACE',
              'ORG',
            ]),
          ],
        }
      : null;
    return buildReviewView(itemId, record.segments, record.corrections, loaded?.matcher ?? null, list, decisions);
  };
  return {
    deidentifyReview: (itemId) => app.calls.run(() => view(itemId)),
    decideDeidentify: (itemId, decision, span: SpanRef, cls) =>
      app.calls.run(async () => {
        const session = app.session.require();
        const loaded = await loadDeidentifyList(app.project);
        if (!loaded) throw new Refusal('not_found', say('refusal.deidentify.thisProjectHasNoDeidentify'));
        const text = recordSegmentText(reviewedTexts(session.itemState(itemId)), span);
        const before = await view(itemId);
        const addedHere = before.spans.some(
          (s) =>
            s.decision === 'add' &&
            s.span.start === span.start &&
            s.span.end === span.end &&
            s.span.utterance === span.utterance &&
            s.span.segment === span.segment &&
            s.span.layer === span.layer,
        );
        const data = decideReview(
          { item_id: itemId, decision, span, class: cls },
          text === null ? null : { text, sha256: sha256Hex(text) },
          loaded.matcher,
          session.store.annotator,
          addedHere,
        );
        await appendReviewDecision(app.project, session.store.annotator, data);
        return view(itemId);
      }),
  };
}
