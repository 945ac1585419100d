import type { TranscriptAnalysis } from '../analysis/transcriptAnalysis';
import type { Item } from '../items/item';
import type { ProjectConfig } from '../project/projectConfig';
import type { Segment } from '../transcript/segment';
import type { ItemSessionState } from './itemState';
import type { RecordingStopReason } from './sessionEvents';
import type { SessionDraft, SessionEntry } from './sessionFold';
import { SessionUsageError } from './sessionRefusals';
import { say } from '../refusal/refusalMessage';

/**
 * The session's rules decide in pure functions, as the rooms' do (roomFold's decideVote): each takes what the log
 * says (SessionFacts, the fold), the command and the session's context, and returns the events to append or throws a
 * refusal. The SessionService only runs them in its queue and appends what they return.
 */

/** What the rules read of the log; the SessionFold is it. */
export interface SessionFacts {
  readonly currentItemId: string | null;
  itemState(itemId: string): ItemSessionState | null;
  utterancesOf(itemId: string): Array<{ utterance: number; segments: readonly Segment[] }>;
  /** the item as events not yet written would leave it (a label act and the change it makes) */
  draft(itemId: string, ts: string): SessionDraft;
}

/** What the rules know besides the log: the configuration the session runs under and who annotates. */
export interface SessionRuleContext {
  config: Pick<ProjectConfig, 'schema' | 'thinkaloud' | 'reasoning'>;
  /** the project's items by id; null: any item id is accepted (a session opened without the items list) */
  items: ReadonlyMap<string, Item> | null;
  /** whose session this is */
  annotator: string;
  /** who acts, when it is not that annotator: a reviewer correcting it (their corrections and labels carry the name) */
  reviewer: string | null;
  /** sha256 of the aloud.yaml the session runs under */
  configSha256: string;
  /** the commit-phrase parser and signals of that configuration (compiled once per session) */
  analyze: (input: string | readonly Segment[]) => TranscriptAnalysis;
  /** sha256 (hex) of a text: a correction names the verbatim text it replaces */
  sha256(text: string): string;
}

/** What a person does to an open item, as the refusal names it ("open one before you record"). */
const ITEM_ACTS = {
  record: 'refusal.session.act.record',
  complete: 'refusal.session.act.complete',
  label: 'refusal.session.act.label',
  'show its reasoning': 'refusal.session.act.showReasoning',
  'judge a step': 'refusal.session.act.judgeAStep',
  'select words of its text': 'refusal.session.act.selectWords',
} as const;
export type ItemAct = keyof typeof ITEM_ACTS;

/** The item being worked on, or the refusal that says to open one first. */
export function requireOpenItem(facts: Pick<SessionFacts, 'currentItemId'>, toDo: ItemAct): string {
  const itemId = facts.currentItemId;
  if (itemId === null) throw new SessionUsageError(say('refusal.session.noItemIsOpenOpen', { toDo: say(ITEM_ACTS[toDo]) }));
  return itemId;
}

/**
 * Opening an item: one of the project's items, logged with the sha256 of the text the annotator sees. A recording
 * still running stops first, as `item_changed`: the annotator left the item, they did not press stop.
 */
export function decideOpenItem(
  context: Pick<SessionRuleContext, 'items' | 'sha256'>,
  command: { itemId: string; recording: boolean },
): { stopRecording: RecordingStopReason | null; entries: SessionEntry[] } {
  const { itemId } = command;
  if (context.items && !context.items.has(itemId)) throw new SessionUsageError(say('refusal.session.itemIsNotInThe', { itemId }));
  const item = context.items?.get(itemId);
  return {
    stopRecording: command.recording ? 'item_changed' : null,
    entries: [{ type: 'item_opened', data: { item_id: itemId, text_sha256: item ? context.sha256(item.text) : null } }],
  };
}

/**
 * Recording is the annotator's own: a reviewer's voice would land in the annotator's audio and transcript and be
 * parsed into the annotator's labels and coding units, so in review it is refused (the reviewer labels by key, click
 * or correction, which carry her name). Otherwise it records the open item, one recording at a time.
 */
export function decideRecordingStart(
  facts: Pick<SessionFacts, 'currentItemId'>,
  context: Pick<SessionRuleContext, 'annotator' | 'reviewer'>,
  recording: { item_id: string } | null,
): string {
  if (context.reviewer !== null) {
    throw new SessionUsageError(
      say('refusal.session.isReviewingSAudioTranscript', { reviewer: context.reviewer, annotator: context.annotator }),
    );
  }
  const itemId = requireOpenItem(facts, 'record');
  if (recording) throw new SessionUsageError(say('refusal.session.alreadyRecording', { itemId: recording.item_id }));
  return itemId;
}

/** Completing starts with the open item; a running recording stops as the annotator's own stop (`user`). */
export function decideCompletionStart(
  facts: Pick<SessionFacts, 'currentItemId'>,
  recording: boolean,
): { itemId: string; stopRecording: RecordingStopReason | null } {
  return { itemId: requireOpenItem(facts, 'complete'), stopRecording: recording ? 'user' : null };
}

/** A note belongs to the item open when it is written (or to none). */
export function decideNote(facts: Pick<SessionFacts, 'currentItemId'>, text: string): SessionEntry[] {
  return [{ type: 'note', data: { item_id: facts.currentItemId, text } }];
}

/**
 * The keep-talking cue is logged where it falls on the running recording's item timeline (every sample recorded so
 * far), so analyses can tell prompted speech; without a recording there is no cue.
 */
export function decideCue(recording: { item_id: string; audio_ms: number } | null, cue: 'keep_talking', silenceMs: number): SessionEntry[] {
  if (!recording) throw new SessionUsageError(say('refusal.session.theKeepTalkingCueIs'));
  return [
    { type: 'cue_shown', data: { item_id: recording.item_id, cue, silence_ms: Math.round(silenceMs), audio_ms: recording.audio_ms } },
  ];
}
