import type { ItemSessionState } from '../../common/session/itemState';
import { decideTextSelection } from '../../common/session/textSelection';
import type { SessionService } from './sessionService';

/** Words of the open item's text selected (or the selection cleared, null), by the rule in textSelection; composed over the session. */
export function selectText(session: SessionService, span: { start: number; end: number } | null): Promise<ItemSessionState> {
  return session.act(
    (facts, _at, s) => decideTextSelection(facts, s.rules(), span),
    (_events, s) => s.itemChanged(session.store.facts.currentItemId!),
  );
}
