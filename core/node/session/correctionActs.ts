import type { ItemSessionState } from '../../common/session/itemState';
import { correctedTextCommitment, decideLabelFromCorrections } from '../../common/session/labelRules';
import { decideCorrection } from '../../common/session/transcriptionRules';
import type { SessionService } from './sessionService';

/**
 * A reviewer's corrections of a transcript, composed over the session (SessionService.act): the correction is a
 * layer over the verbatim text (decideCorrection), and a label may be derived again from the corrected text
 * (decideLabelFromCorrections); each act is one commit point in the session's queue.
 */

/** A reviewer's correction of one segment's text, as a layer over the verbatim one (decideCorrection). */
export function correctSegment(
  session: SessionService,
  itemId: string,
  utterance: number,
  segment: number,
  text: string,
): Promise<ItemSessionState> {
  return session.act(
    (facts, _at, s) => decideCorrection(facts, s.rules(), { itemId, utterance, segment, text }),
    (_events, s) => s.itemChanged(itemId),
  );
}

/** A label act of source "correction" from the item's corrected transcript, if it commits to one (decideLabelFromCorrections). */
export function rederiveFromCorrections(
  session: SessionService,
  itemId: string,
): Promise<{ state: ItemSessionState; label: string | null }> {
  return session.act(
    (facts, at, s) => decideLabelFromCorrections(facts, s.rules(), itemId, at),
    (events, s) => {
      const act = events.find((e) => e.type === 'label_committed');
      return { state: s.itemChanged(itemId), label: act?.type === 'label_committed' ? act.data.label : null };
    },
  );
}

/** The label a re-derivation from the corrected text would set (correctedTextCommitment), without logging anything. */
export function labelFromCorrections(session: SessionService, itemId: string): { label: string; quote: string } | null {
  const state = session.store.itemState(itemId);
  const found = state ? correctedTextCommitment(state, session.ruleContext.analyze) : null;
  return found ? { label: found.label, quote: found.quote } : null;
}
