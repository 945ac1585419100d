import type { UtteranceOutcome, UtteranceRequest } from '../engine/transcriptionScheduler';
import { parseStepJudgments } from '../parser/stepJudgment';
import { PARSER_VERSION } from '../parser/parserVersion';
import type { AudioSignals } from '../signals/signalTypes';
import type { VadSignals } from '../signals/vadSignals';
import { joinSegments, timeAtOffset } from '../transcript/joinSegments';
import type { Segment } from '../transcript/segment';
import { draftLabelAct, recordLabelChange } from './labelRules';
import type { SessionDraft, SessionEntry } from './sessionFold';
import type { ModelIdentity, SessionEventData } from './sessionEvents';
import { SessionUsageError } from './sessionRefusals';
import type { SessionFacts, SessionRuleContext } from './sessionRules';
import { voiceCommitmentsOf } from './voiceCommitments';
import { say } from '../refusal/refusalMessage';

/** An utterance the engine transcribed: where its audio lies on the item's timeline, and what came back. */
export interface LandedTranscription {
  request: Omit<UtteranceRequest, 'pcm'>;
  outcome: Extract<UtteranceOutcome, { kind: 'accepted' }>;
  engine: EngineIdentity;
}

/** What the engine says of itself with every transcription: its whisper.cpp version and the VAD that cut the audio. */
export interface EngineIdentity {
  whisperCpp: string | null;
  /** the voice-activity model of the cutter (null: the energy rule) */
  vad: ModelIdentity | null;
}

function transcribedData({ request, outcome, engine }: LandedTranscription): SessionEventData['utterance_transcribed'] {
  return {
    item_id: request.item_id,
    utterance: request.utterance,
    request_id: outcome.request_id,
    start_sample: request.start_sample,
    end_sample: request.end_sample,
    segments: outcome.segments,
    model: { name: outcome.model.name, sha256: outcome.model.sha256, whisper_cpp: engine.whisperCpp, vad: engine.vad },
  };
}

/**
 * A live transcription landing: the utterance, then what the parser finds (parseAndDraft), then the step judgments
 * spoken in it. A stale outcome is logged as such and changes nothing.
 */
export function decideTranscriptionLanded(
  facts: SessionFacts,
  context: SessionRuleContext,
  request: Omit<UtteranceRequest, 'pcm'>,
  outcome: UtteranceOutcome,
  engine: EngineIdentity,
  at: string,
): readonly SessionEntry[] {
  if (outcome.kind === 'stale')
    return [{ type: 'stale_result', data: { item_id: request.item_id, request_id: outcome.request_id, reason: outcome.reason } }];
  const draft = facts.draft(request.item_id, at);
  draft.add('utterance_transcribed', transcribedData({ request, outcome, engine }));
  parseAndDraft(draft, context, new Set([request.utterance]));
  draftVoiceStepJudgments(draft, context, request.utterance, outcome.segments);
  return draft.entries;
}

/** A transcription that failed in the engine: logged as a stale result of its utterance, the audio kept. */
export function decideTranscriptionFailed(request: Omit<UtteranceRequest, 'pcm'>, message: string): readonly SessionEntry[] {
  return [
    {
      type: 'stale_result',
      data: { item_id: request.item_id, request_id: `utterance-${request.utterance}`, reason: `transcription failed: ${message}` },
    },
  ];
}

/**
 * An item's recorded audio transcribed again (recorded without a model, or with another one): all or nothing. Its
 * current utterances are marked superseded (kept, never deleted), the new ones logged and parsed like live ones, the
 * VAD signals of this pass beside them, and one label_changed record when the batch changes the final label.
 */
export function decideTranscribedAgain(
  facts: SessionFacts,
  context: SessionRuleContext,
  command: {
    itemId: string;
    reason: string;
    transcriptions: ReadonlyArray<{ request: Omit<UtteranceRequest, 'pcm'>; outcome: UtteranceOutcome }>;
    engine: EngineIdentity;
    /** the VAD signals of this pass, within the item's takes (their starts, in samples) */
    signals: { samples: number; audio: AudioSignals; vad: VadSignals | null; takes: number[] } | null;
  },
  at: string,
): readonly SessionEntry[] {
  const { itemId } = command;
  const stale = command.transcriptions.find((t) => t.outcome.kind === 'stale')?.outcome;
  if (stale?.kind === 'stale')
    throw new SessionUsageError(say('refusal.session.wasNotTranscribedAgainIts', { itemId, reason: stale.reason }));
  const before = facts.itemState(itemId)?.final_label ?? null;
  const current = facts.utterancesOf(itemId).map((u) => u.utterance);
  const draft = facts.draft(itemId, at);
  if (current.length > 0) draft.add('transcripts_superseded', { item_id: itemId, utterances: current, reason: command.reason });
  for (const { request, outcome } of command.transcriptions) {
    draft.add(
      'utterance_transcribed',
      transcribedData({ request, outcome: outcome as LandedTranscription['outcome'], engine: command.engine }),
    );
  }
  if (command.signals?.vad) {
    const { samples, audio, vad, takes } = command.signals;
    draft.add('signals_computed', { item_id: itemId, audio_samples: samples, audio, vad, vad_model: command.engine.vad, takes });
  }
  parseAndDraft(draft, context, new Set(command.transcriptions.map((t) => t.request.utterance)), { batchFinalBefore: before });
  return draft.entries;
}

/**
 * The parser runs once, here, when transcriptions land: over the item's current transcript with the session's
 * configuration (a phrase may begin in an earlier utterance). What it found is logged — its diagnostics, and each
 * commitment that ends in the utterances that just landed, with its quote, offsets, audio time and utterance — so
 * the fold reads labels and never parses. Earlier utterances keep the labels logged when they landed, whatever the
 * configuration is now (only `session reparse` re-derives them). A batch records its one label change at the end.
 */
function parseAndDraft(
  draft: SessionDraft,
  context: SessionRuleContext,
  landed: ReadonlySet<number>,
  batch?: { batchFinalBefore: string | null },
): void {
  const itemId = draft.itemId;
  const found = voiceCommitmentsOf(draft.utterances(), context.analyze);
  draft.add('transcript_parsed', {
    item_id: itemId,
    parser_version: PARSER_VERSION,
    config_sha256: context.configSha256,
    diagnostics: found.diagnostics,
  });
  for (const c of found.commitments) {
    if (c.utterance !== null && landed.has(c.utterance)) draftLabelAct(draft, { ...c, source: 'voice' }, { recordChange: !batch });
  }
  if (batch) recordLabelChange(draft, batch.batchFinalBefore, 'voice');
}

/**
 * Step judgments spoken in one utterance, logged as it lands. Only phrases begun after the reasoning was shown
 * count (nobody judges steps they have not seen); a phrase split across two utterances is not heard.
 */
function draftVoiceStepJudgments(draft: SessionDraft, context: SessionRuleContext, utterance: number, segments: readonly Segment[]): void {
  const shown = draft.state().reasoning;
  if (!shown || shown.steps.length === 0) return;
  const { thinkaloud } = context.config;
  const joined = joinSegments(segments);
  const { judgments } = parseStepJudgments(joined.text, {
    languages: thinkaloud.languages,
    stepCount: shown.steps.length,
    fillers: thinkaloud.fillers,
  });
  for (const j of judgments) {
    if ((timeAtOffset(joined.spans, j.start) ?? 0) < shown.audio_ms) continue;
    draft.add('step_judged', {
      item_id: draft.itemId,
      index: j.index,
      reward: j.reward,
      source: 'voice',
      kind: j.kind,
      quote: j.quote,
      start: j.start,
      end: j.end,
      utterance,
      audio_ms: timeAtOffset(joined.spans, j.end),
    });
  }
}

/**
 * A reviewer's correction of one segment's text, as a layer: the verbatim segment is never changed (its text is named
 * by its sha256), and no label changes unless labels are re-derived from the corrected text.
 */
export function decideCorrection(
  facts: SessionFacts,
  context: Pick<SessionRuleContext, 'annotator' | 'reviewer' | 'sha256'>,
  command: { itemId: string; utterance: number; segment: number; text: string },
): readonly SessionEntry[] {
  const { itemId, utterance, segment, text } = command;
  const original = facts.utterancesOf(itemId).find((u) => u.utterance === utterance)?.segments[segment];
  if (!original) throw new SessionUsageError(say('refusal.session.hasNoSegmentInUtterance', { itemId, segment, utterance }));
  return [
    {
      type: 'transcript_corrected',
      data: {
        item_id: itemId,
        utterance,
        segment,
        original_sha256: context.sha256(original.text),
        text,
        annotator: context.annotator,
        reviewer: context.reviewer,
      },
    },
  ];
}
