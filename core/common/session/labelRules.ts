import type { CommitmentFields } from '../parser/parseTypes';
import { PARSER_VERSION } from '../parser/parserVersion';
import type { ProjectConfig } from '../project/projectConfig';
import type { ItemSessionState, LabelSource } from './itemState';
import type { SessionDraft, SessionEntry } from './sessionFold';
import { LabelChangeNeedsConfirmationError, SessionUsageError, SpokenLabelRequiredError } from './sessionRefusals';
import { requireOpenItem, type SessionFacts, type SessionRuleContext } from './sessionRules';
import { say } from '../refusal/refusalMessage';

/** One label act as the log records it; voice acts carry their commitment's fields (where the phrase was said), the others nulls. */
export type LabelActInput = {
  label: string;
  source: LabelSource;
  /** a reviewer's act (a label from their corrections); absent or null: the annotator's own */
  reviewer?: string | null;
} & Pick<CommitmentFields, 'quote' | 'start' | 'end'> &
  Partial<Pick<CommitmentFields, 'stem' | 'audio_ms' | 'utterance'>>;

/**
 * Drafts one label act and, when it changes the item's final label, the label_changed record after it (saying when
 * the item was already completed: a change after completion is never silent). `recordChange: false` leaves the
 * record to the caller, which drafts a batch of acts and records the batch's one change (recordLabelChange).
 */
export function draftLabelAct(draft: SessionDraft, act: LabelActInput, options: { recordChange: boolean } = { recordChange: true }): void {
  const before = draft.state().final_label;
  draft.add('label_committed', {
    item_id: draft.itemId,
    label: act.label,
    source: act.source,
    quote: act.quote,
    start: act.start,
    end: act.end,
    stem: act.stem ?? null,
    audio_ms: act.audio_ms ?? null,
    utterance: act.utterance ?? null,
    parser_version: act.source === 'voice' || act.source === 'correction' ? PARSER_VERSION : null,
    reviewer: act.reviewer ?? null,
  });
  if (options.recordChange) recordLabelChange(draft, before, act.source, act.reviewer ?? null);
}

/** A label_changed record when the item's final label is no longer `before` (never silent, also after completion). */
export function recordLabelChange(draft: SessionDraft, before: string | null, source: LabelSource, reviewer: string | null = null): void {
  const after = draft.state();
  if (before !== null && after.final_label !== null && before !== after.final_label) {
    draft.add('label_changed', {
      item_id: after.item_id,
      from: before,
      to: after.final_label,
      source,
      after_completion: after.completed_at !== null,
      reviewer,
    });
  }
}

/**
 * A label given by a click or a key (or a room's final vote, written back), on the open item, from the project's
 * labels. On a completed item a key or a click that would change its label is refused until it is confirmed
 * (`confirmed`): one stray key press never changes a finished item silently. The same label again changes nothing and
 * needs no confirmation.
 */
export function decideLabelAct(
  facts: SessionFacts,
  context: Pick<SessionRuleContext, 'config'> & Partial<Pick<SessionRuleContext, 'reviewer'>>,
  command: { label: string; source: Exclude<LabelSource, 'voice'>; confirmed?: boolean },
  at: string,
): readonly SessionEntry[] {
  const itemId = requireOpenItem(facts, 'label');
  const known = context.config.schema.labels.map((l) => l.name);
  if (!known.includes(command.label))
    throw new SessionUsageError(say('refusal.session.isNotALabelOf', { label: command.label, known: known.join(', ') }));
  const state = facts.itemState(itemId);
  if (state?.completed_at && state.final_label !== null && state.final_label !== command.label && !command.confirmed) {
    throw new LabelChangeNeedsConfirmationError(
      say('refusal.session.isCompletedWithTheLabel', { itemId, finalLabel: state.final_label, label: command.label }),
      itemId,
      state.final_label,
      command.label,
    );
  }
  const draft = facts.draft(itemId, at);
  // a reviewer's click or key is the reviewer's act, never the annotator's
  draftLabelAct(draft, {
    label: command.label,
    source: command.source,
    quote: null,
    start: null,
    end: null,
    reviewer: context.reviewer ?? null,
  });
  return draft.entries;
}

/**
 * THE rule for completing an item (called once its transcriptions have landed): with thinkaloud.require_spoken_label
 * an item needs a voice commitment; click and key labels are kept but do not complete it on their own. Enter
 * pressed again on a completed item whose label has not changed since completes nothing new.
 */
export function decideCompletion(
  facts: SessionFacts,
  context: Pick<SessionRuleContext, 'config'>,
  itemId: string,
): readonly SessionEntry[] {
  const state = facts.itemState(itemId);
  const { config } = context;
  if (config.thinkaloud.require_spoken_label && (state?.commitments.length ?? 0) === 0) {
    throw new SpokenLabelRequiredError(say('refusal.session.needsASpokenLabelBefore', { itemId, exampleLabel: exampleLabel(config) }));
  }
  if (state?.completed_at && !state.changed_after_completion) return [];
  return [{ type: 'item_completed', data: { item_id: itemId } }];
}

/** The completion rule in plain words, for the Label screen, before it matters. */
export function completionRuleText(config: Pick<ProjectConfig, 'schema' | 'thinkaloud'>): string {
  return config.thinkaloud.require_spoken_label
    ? `To complete an item, say its label aloud, for example “I label this ${exampleLabel(config)}”. A key or a click sets the label too, but does not complete the item on its own.`
    : `Say the label (“I label this ${exampleLabel(config)}”), press its key or click it; Enter completes the item.`;
}

/** What the Label screen says when completing was refused for want of a spoken label (`label`: the label to suggest). */
export function spokenLabelRequiredText(config: Pick<ProjectConfig, 'schema'>, label: string | null): string {
  return `Not completed yet: this item needs a spoken label. Record and say, for example, “I label this ${(label ?? exampleLabel(config)).toLowerCase()}”, then press Enter.`;
}

function exampleLabel(config: Pick<ProjectConfig, 'schema'>): string {
  return (config.schema.labels[0]?.name ?? 'polite').toLowerCase();
}

/**
 * A label from the reviewers' corrected transcript, with the configuration in force: its final commitment becomes a
 * label act of source "correction" (logged like any other act), carrying the reviewer when it is not the annotator
 * who derives it. Nothing found: no act.
 */
export function decideLabelFromCorrections(
  facts: SessionFacts,
  context: Pick<SessionRuleContext, 'analyze' | 'reviewer'>,
  itemId: string,
  at: string,
): readonly SessionEntry[] {
  const state = facts.itemState(itemId);
  if (!state || state.transcript_corrected === null)
    throw new SessionUsageError(say('refusal.session.hasNoCorrectedTranscriptTo', { itemId }));
  const final = correctedTextCommitment(state, context.analyze);
  if (!final) return [];
  const draft = facts.draft(itemId, at);
  draftLabelAct(draft, {
    label: final.label,
    source: 'correction',
    quote: final.quote,
    start: final.start,
    end: final.end,
    stem: final.stem,
    reviewer: context.reviewer,
  });
  return draft.entries;
}

/**
 * The commitment a label from the corrected text would take (its last one), or null when the corrected text commits
 * to none: the rule above, and what Review says on its button before anyone presses it.
 */
export function correctedTextCommitment(
  state: Pick<ItemSessionState, 'transcript_corrected'>,
  analyze: SessionRuleContext['analyze'],
): ReturnType<SessionRuleContext['analyze']>['commitments'][number] | null {
  if (state.transcript_corrected === null) return null;
  return analyze([{ t0_ms: 0, t1_ms: 0, text: state.transcript_corrected }]).commitments.at(-1) ?? null;
}
