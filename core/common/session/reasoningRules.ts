import type { StepReward } from '../parser/stepJudgment';
import { reasoningWithheld, type ReasoningView } from '../reasoning/reasoningReveal';
import { itemModelReasoning } from '../reasoning/reasoningSteps';
import type { SessionEntry } from './sessionFold';
import { SessionUsageError } from './sessionRefusals';
import { requireOpenItem, type SessionFacts, type SessionRuleContext } from './sessionRules';
import { say } from '../refusal/refusalMessage';

/** The open item's model reasoning, as the items file holds it, and whether aloud.yaml `reasoning.reveal` withholds it now. */
function reasoningAccess(facts: SessionFacts, context: Pick<SessionRuleContext, 'config' | 'items'>) {
  const itemId = requireOpenItem(facts, 'show its reasoning');
  const { reveal, split } = context.config.reasoning;
  const item = context.items?.get(itemId);
  const model = item ? itemModelReasoning(item, split) : null;
  const state = facts.itemState(itemId);
  const withheld = reasoningWithheld(
    reveal,
    model !== null && model.steps.length > 0,
    state?.blind_label ?? null,
    Boolean(state?.reasoning),
  );
  return { itemId, reveal, model, state, withheld };
}

/**
 * Showing the open item's model reasoning, if `reasoning.reveal` allows it now (after_blind: once the item has a
 * label): the first showing is logged with the steps as shown and the item's audio length then (`audioSamples`: what
 * the WAV holds, a running recording's samples included).
 * Withheld reasoning is not sent.
 */
export function decideShowReasoning(
  facts: SessionFacts,
  context: Pick<SessionRuleContext, 'config' | 'items'>,
  audioSamples: (itemId: string) => number,
): readonly SessionEntry[] {
  const { itemId, reveal, model, state, withheld } = reasoningAccess(facts, context);
  if (withheld !== null || state?.reasoning || !model) return [];
  return [
    {
      type: 'reasoning_shown',
      data: {
        item_id: itemId,
        steps: model.steps,
        model_label: model.label,
        split: model.split,
        reveal,
        audio_samples: audioSamples(itemId),
      },
    },
  ];
}

/** What the Label screen may show of the open item's reasoning: the steps as first shown, or why they are withheld. */
export function reasoningViewOf(facts: SessionFacts, context: Pick<SessionRuleContext, 'config' | 'items'>): ReasoningView {
  const { itemId, reveal, state, withheld } = reasoningAccess(facts, context);
  const shown = state?.reasoning ?? null;
  return {
    item_id: itemId,
    reveal,
    shown: shown ? { shown_at: shown.shown_at, model_label: shown.model_label, steps: shown.steps } : null,
    withheld,
  };
}

/** A step of the shown reasoning judged by a key or a click (null withdraws the step's judgment). */
export function decideJudgeStep(
  facts: SessionFacts,
  command: { index: number; reward: StepReward | null; source: 'click' | 'key' },
): readonly SessionEntry[] {
  const itemId = requireOpenItem(facts, 'judge a step');
  const shown = facts.itemState(itemId)?.reasoning;
  if (!shown) throw new SessionUsageError(say('refusal.session.theModelSReasoningOf', { itemId }));
  const { index, reward, source } = command;
  if (!Number.isInteger(index) || index < 1 || index > shown.steps.length) {
    throw new SessionUsageError(say('refusal.session.stepIsNotAStep', { index, length: shown.steps.length }));
  }
  return [
    {
      type: 'step_judged',
      data: { item_id: itemId, index, reward, source, kind: 'step', quote: null, start: null, end: null, utterance: null, audio_ms: null },
    },
  ];
}
