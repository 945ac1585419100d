import type { StepReward } from '../../common/parser/stepJudgment';
import type { ReasoningView } from '../../common/reasoning/reasoningReveal';
import type { ItemSessionState } from '../../common/session/itemState';
import { decideJudgeStep, decideShowReasoning, reasoningViewOf } from '../../common/session/reasoningRules';
import type { SessionService } from './sessionService';

/**
 * The model's reasoning on a session, composed over it (SessionService.act): the rules are decideShowReasoning and
 * decideJudgeStep (core/common/session/reasoningRules); each act is one commit point in the session's queue.
 */

/** The current item's model reasoning, shown (and the first showing logged) when aloud.yaml `reasoning.reveal` allows it now. */
export function showReasoning(session: SessionService): Promise<ReasoningView> {
  return session.act(
    (facts, _at, s) => decideShowReasoning(facts, s.rules(), (itemId) => s.audioSamples(itemId)),
    (shown, s) => {
      for (const event of shown) if (event.type === 'reasoning_shown') s.itemChanged(event.data.item_id);
      return reasoningViewOf(session.store.facts, s.rules());
    },
  );
}

/** A step of the shown reasoning judged by a key or a click (null withdraws the step's judgment). */
export function judgeStep(
  session: SessionService,
  index: number,
  reward: StepReward | null,
  source: 'click' | 'key',
): Promise<ItemSessionState> {
  return session.act(
    (facts) => decideJudgeStep(facts, { index, reward, source }),
    (_events, s) => s.itemChanged(session.store.facts.currentItemId!),
  );
}
