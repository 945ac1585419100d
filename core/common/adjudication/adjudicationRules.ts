import { Refusal } from '../refusal/refusal';
import { annotatorNameProblem, normalizeAnnotatorName } from '../names/personNames';
import type { AdjudicationConfig } from '../project/projectConfig';
import { looksAlike } from '../text/textFold';
import {
  ADJUDICATION_CONFIDENCES,
  type AdjudicationConfidence,
  type AdjudicationPayload,
  type DecisionRationale,
  type SpokenRationale,
} from './adjudicationEvents';
import type { AdjudicationState } from './adjudicationFold';
import type { AdjudicationQueue, ItemStanding } from './adjudicationQueue';
import { say } from '../refusal/refusalMessage';

/** What an adjudicator asks for; the rules answer with the events to log or a refusal. */
export type AdjudicationCommand =
  | {
      kind: 'decide';
      item_id: string;
      label: string;
      confidence: string;
      causes: readonly string[];
      rationale?: string | null;
      /** a rationale she spoke, recorded and transcribed by the host (instead of a typed one) */
      spoken_rationale?: SpokenRationale | null;
      guideline_flag?: string | null;
      /** the huddle room whose outcome this records */
      room?: string | null;
    }
  | { kind: 'assign'; item_id: string; annotator: string }
  | { kind: 'send_to_huddle'; item_ids: readonly string[]; room: string };

export interface AdjudicationContext {
  adjudicator: string;
  /** the schema's label names */
  labels: readonly string[];
  config: AdjudicationConfig;
  queue: AdjudicationQueue;
  /** whether an annotator's session holds the item at all (opened, labelled or completed) */
  hasSeen: (annotator: string, itemId: string) => boolean;
}

/** A command the adjudication rules refuse: one line, naming the value and what is allowed. */
export class AdjudicationRefusal extends Refusal {
  override name = 'AdjudicationRefusal';
}

/** Longest rationale or guideline flag text (characters): a paragraph, not a file. */
export const MAX_ADJUDICATION_TEXT = 4000;

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** The configured name a typed value stands for (same letters once folded), or null. */
function pick(value: string, allowed: readonly string[]): string | null {
  return allowed.find((a) => a === value) ?? allowed.find((a) => looksAlike(a, value)) ?? null;
}

function freeText(value: string | null | undefined, what: string): string | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (text === '') return null;
  if (CONTROL.test(text)) throw new AdjudicationRefusal('bad_request', say('refusal.adjudication.containsAControlCharacter', { what }));
  if (text.length > MAX_ADJUDICATION_TEXT)
    throw new AdjudicationRefusal(
      'bad_request',
      say('refusal.adjudication.isCharactersLongAtMost', { what, length: text.length, MAX_ADJUDICATION_TEXT }),
    );
  return text;
}

/** Why an item cannot be decided, in the words of where it stands. */
function notQueued(itemId: string, standing: ItemStanding | undefined, minAnnotators: number): AdjudicationRefusal {
  if (!standing) return new AdjudicationRefusal('not_found', say('refusal.adjudication.itemIsNotInThe', { itemId }));
  if (standing.status === 'unlabelled') return new AdjudicationRefusal('conflict', say('refusal.adjudication.itemIsNotInThe2', { itemId }));
  if (standing.status === 'accepted')
    return new AdjudicationRefusal(
      'conflict',
      say('refusal.adjudication.itemIsNotInThe3', { itemId, goldLabel: String(standing.gold_label), goldSource: standing.gold_source }),
    );
  return new AdjudicationRefusal(
    'conflict',
    say('refusal.adjudication.itemIsNotInThe4', {
      itemId,
      count: standing.labels.length,
      minAnnotators,
    }),
  );
}

/**
 * The adjudication rules, pure: the events a command adds to the adjudicator's log, [] when it changes nothing (the same
 * decision again, an assignment made already), or an AdjudicationRefusal. The host only appends what this returns.
 */
export function decideAdjudication(
  state: AdjudicationState,
  context: AdjudicationContext,
  command: AdjudicationCommand,
): AdjudicationPayload[] {
  const { queue } = context;
  if (command.kind === 'decide') {
    const standing = queue.items.get(command.item_id);
    if (!standing || (standing.status !== 'queued' && standing.status !== 'decided'))
      throw notQueued(command.item_id, standing, context.config.min_annotators);
    const label = pick(command.label, context.labels);
    if (label === null)
      throw new AdjudicationRefusal(
        'bad_request',
        say('refusal.adjudication.isNotOneOfThe', { label: command.label, labels: context.labels.join(', ') }),
      );
    const confidence = ADJUDICATION_CONFIDENCES.find((c) => c === command.confidence.trim().toLowerCase()) as
      AdjudicationConfidence | undefined;
    if (confidence === undefined)
      throw new AdjudicationRefusal(
        'bad_request',
        say('refusal.adjudication.confidenceIsNotOneOf', {
          confidence: command.confidence,
          ADJUDICATION_CONFIDENCES: ADJUDICATION_CONFIDENCES.join(', '),
        }),
      );
    if (command.causes.length === 0)
      throw new AdjudicationRefusal(
        'bad_request',
        say('refusal.adjudication.giveAtLeastOneCause', { causes: context.config.causes.join(', ') }),
      );
    const causes: string[] = [];
    for (const typed of command.causes) {
      const cause = pick(typed.trim(), context.config.causes);
      if (cause === null)
        throw new AdjudicationRefusal(
          'bad_request',
          say('refusal.adjudication.causeIsNotOneOf', { typed, causes: context.config.causes.join(', ') }),
        );
      if (!causes.includes(cause)) causes.push(cause);
    }
    const typed = freeText(command.rationale, 'the rationale');
    const spoken = command.spoken_rationale ?? null;
    if (typed !== null && spoken !== null)
      throw new AdjudicationRefusal('bad_request', say('refusal.adjudication.giveTheRationaleTypedOr'));
    if (spoken !== null && freeText(spoken.text, 'the spoken rationale') === null)
      throw new AdjudicationRefusal('bad_request', say('refusal.adjudication.theSpokenRationaleTranscribesTo'));
    const rationale: DecisionRationale | null = spoken ?? (typed === null ? null : { kind: 'typed', text: typed });
    const flag = freeText(command.guideline_flag, 'the guideline flag');
    const room = command.room ?? null;
    const before = standing.decision;
    if (
      before &&
      before.label === label &&
      before.confidence === confidence &&
      JSON.stringify(before.causes) === JSON.stringify(causes) &&
      JSON.stringify(before.rationale) === JSON.stringify(rationale) &&
      before.guideline_flag === flag &&
      before.room === room
    ) {
      return []; // the decision that stands, made again: nothing new to log
    }
    const adopted = standing.labels.filter((l) => l.label === label).map((l) => l.annotator);
    return [
      {
        type: 'decision_recorded',
        data: {
          item_id: command.item_id,
          label,
          adopted,
          confidence,
          causes,
          rationale,
          guideline_flag: flag,
          room,
          revises: before ? { adjudicator: before.adjudicator, seq: before.seq } : null,
          labels_seen: standing.labels.map((l) => ({ ...l })),
        },
      },
    ];
  }
  if (command.kind === 'assign') {
    const annotator = normalizeAnnotatorName(command.annotator);
    const problem = annotatorNameProblem(annotator);
    if (problem !== null) throw new AdjudicationRefusal('bad_request', problem); // i18n-ignore: the problem is core/common/names' rule text (shared with the CLI's import checks), not yet a catalog message
    const standing = queue.items.get(command.item_id);
    if (!standing || (standing.status !== 'queued' && standing.status !== 'too_few' && standing.status !== 'unlabelled')) {
      throw standing?.status === 'decided'
        ? new AdjudicationRefusal(
            'conflict',
            say('refusal.adjudication.itemIsDecidedAlreadyAssign', { itemId: command.item_id, goldLabel: String(standing.gold_label) }),
          )
        : notQueued(command.item_id, standing, context.config.min_annotators);
    }
    if (standing.assigned_to.includes(annotator)) return [];
    if (context.hasSeen(annotator, command.item_id)) {
      throw new AdjudicationRefusal(
        'conflict',
        say('refusal.adjudication.hasSeenItemAlreadyAssign', { annotator, itemId: command.item_id }),
      );
    }
    return [{ type: 'item_assigned', data: { item_id: command.item_id, annotator } }];
  }
  if (command.item_ids.length === 0) throw new AdjudicationRefusal('bad_request', say('refusal.adjudication.giveTheItemsToSend'));
  for (const id of command.item_ids) {
    const standing = queue.items.get(id);
    if (!standing || standing.status !== 'queued') throw notQueued(id, standing, context.config.min_annotators);
  }
  return [{ type: 'items_sent_to_huddle', data: { item_ids: [...new Set(command.item_ids)], room: command.room } }];
}
