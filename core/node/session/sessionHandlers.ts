import type { SerialQueue } from '../../common/concurrency/serialQueue';
import type { SessionApi, SessionPatch } from '../../common/session/sessionApi';
import { Refusal } from '../../common/refusal/refusal';
import { existingName as existingAnnotator, lookAlikeOf } from '../../common/names/personNames';
import { readWav } from '../audio/wavFile';
import { normalizeAnnotatorName } from './sessionPaths';
import type { SessionService } from './sessionService';
import type { OpenProject } from '../project/projectFolder';
import type { SessionSlot } from './sessionSlot';
import { correctSegment, labelFromCorrections, rederiveFromCorrections } from './correctionActs';
import { judgeStep, showReasoning } from './reasoningActs';
import { selectText } from './textSelectionActs';
import { logPlayback } from './playbackActs';
import { say } from '../../common/refusal/refusalMessage';

/** What the session's handlers use of the app: its call queue, the open project, the session slot, the project's sessions. */
export interface SessionHost {
  readonly calls: SerialQueue;
  readonly project: OpenProject;
  readonly session: SessionSlot;
  /** the annotators with a session in the open project (one spelling each) */
  sessionNames(): Promise<string[]>;
}

/**
 * The session domain of the app API: the annotator's session, navigation, recording, labels, completion, the model's
 * reasoning, notes, cues, corrections and transcribing again. Each handler hands the call to the session (where the
 * rules decide; its one queue orders the call up to the log's fsync) and answers with what changed (a SessionPatch: the changed items and the
 * session's fields), so an act costs the same at the 10,000th item as at the first; only opening a session answers the
 * whole view. None re-checks a session rule.
 */
export function sessionHandlers(app: SessionHost): SessionApi {
  /** a call on the open session (whose own queue orders it up to the log's fsync), answered with what it changed */
  const withPatch = (task: (s: SessionService) => Promise<unknown>): Promise<SessionPatch> => app.session.act(task);
  return {
    openSession: (annotator) =>
      app.calls.run(async () => {
        // one annotator, one spelling: "ana" continues the session of "Ana"
        const existing = existingAnnotator(annotator, await app.sessionNames());
        return app.session.openSession(existing ?? annotator);
      }),
    reviewSession: (annotator, reviewer) =>
      app.calls.run(async () => {
        // a reviewer opens a session that exists, under its spelling; their own name is theirs (never the annotator's)
        const existing = existingAnnotator(annotator, await app.sessionNames());
        if (!existing) throw new Refusal('not_found', say('refusal.session.hasNoSessionInThis', { annotator }));
        if (normalizeAnnotatorName(reviewer) === existing) return app.session.openSession(existing);
        const like = lookAlikeOf(normalizeAnnotatorName(reviewer), await app.sessionNames());
        if (like !== null)
          throw new Refusal(
            'bad_request',
            say('refusal.session.theReviewerLooksLikeThe', { normalizeAnnotatorName: normalizeAnnotatorName(reviewer), like }),
          );
        return app.session.openSession(existing, normalizeAnnotatorName(reviewer));
      }),
    // both in the call queue: asked while the session reopens (new settings, a model arriving), they wait for it
    session: () => app.calls.run(async () => app.session.view()),
    sessionItem: (itemId) => app.calls.run(async () => app.session.require().itemState(itemId)),
    // the item left behind keeps its pending transcriptions: they land on it while the annotator goes on
    openItem: (itemId) => withPatch((s) => s.openItem(itemId)),
    startRecording: (device) => withPatch((s) => s.startRecording({ device })),
    // one queue from here to the log's fsync: the session's (the app's queue is for opening and switching)
    appendAudio: (frame) => app.session.appendAudio(frame),
    // not waiting for the last utterance here: a click right after stopping is logged when it happens
    stopRecording: () => withPatch((s) => s.stopRecording()),
    commitLabel: (label, source) => withPatch((s) => s.commitLabel(label, source)),
    confirmLabelChange: (label, source) => withPatch((s) => s.commitLabel(label, source, { confirmed: true })),
    /** waits (bounded) for the item's transcriptions outside the session's queue, so other calls go on meanwhile */
    completeItem: () => withPatch((s) => s.completeItem()),
    showReasoning: () => showReasoning(app.session.require()),
    judgeStep: (index, reward, source) => withPatch((s) => judgeStep(s, index, reward, source)),
    selectText: (start, end) =>
      withPatch((s) => {
        if ((start === null) !== (end === null)) throw new Refusal('bad_request', say('refusal.session.selecttextGiveBothStartAnd'));
        return selectText(s, start === null || end === null ? null : { start, end });
      }),
    logCue: (cue, silenceMs) => withPatch((s) => s.logCue(cue, silenceMs)),
    logPlayback: (itemId, audioFromMs, audioToMs, playedMs) =>
      withPatch((s) => logPlayback(s, { itemId, audioFromMs, audioToMs, playedMs })),
    addNote: (text) => withPatch((s) => s.addNote(text)),
    correctSegment: (itemId, utterance, segment, text) => withPatch((s) => correctSegment(s, itemId, utterance, segment, text)),
    rederiveLabelsFromCorrections: (itemId) => withPatch((s) => rederiveFromCorrections(s, itemId)),
    labelFromCorrections: async (itemId) => labelFromCorrections(app.session.require(), itemId),
    /** audio recorded before a model existed (or any item's, again): transcribed now, earlier transcripts superseded */
    transcribeLater: (itemId) =>
      withPatch(async (s) => {
        const ids =
          itemId !== null
            ? [itemId]
            : s.store
                .summaries()
                .filter((i) => i.audio_ms > 0 && i.segments === 0)
                .map((i) => i.item_id);
        const read = async (file: string) => (await readWav(file)).samples;
        for (const id of ids)
          await s.transcribeAgain(
            id,
            read,
            itemId === null ? 'transcribed later (no model when recorded)' : 'transcribed again from the app',
          );
      }),
  };
}
