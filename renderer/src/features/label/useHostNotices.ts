import { useEffect, useState } from 'react';
import type { AloudEvent } from '../../../../core/common/contract/aloudApi';
import type { ItemSessionState } from '../../../../core/common/session/itemState';
import { useApi } from '../../shared/api';
import type { MessageRef } from '../../shared/Dialogs';

/** The Label screen's line about the transcription engine: a crash, its restart, or transcription stopping for the session. */
export function engineNoticeText(event: Extract<AloudEvent, { type: 'engine' }>): MessageRef {
  switch (event.state) {
    case 'crashed':
      return { id: 'label.engine.crashed' };
    case 'restarted':
      return { id: 'label.engine.restarted' };
    case 'stopped':
      // the host's reason stays in its words (refusals and host messages are English for now)
      return { id: 'label.engine.stopped', values: { reason: event.message } };
  }
}

/**
 * Whether an item's state has caught up with the utterance a partial (or speculative final) shows: that utterance's final
 * is in the transcript (or a later one's), or the recording stopped. Other changes (audio saved, signals) leave it shown.
 */
export function finalReplaces(item: Pick<ItemSessionState, 'segment_refs' | 'recordings'>, utterance: number): boolean {
  if (item.segment_refs.some((ref) => ref.utterance >= utterance)) return true;
  const last = item.recordings?.at(-1);
  return last !== undefined && last.stopped_at !== null;
}

/** What the host pushes to the Label screen besides the session: the utterance being spoken and the engine's state. */
export function useHostNotices() {
  const client = useApi();
  /** text of the utterance still being spoken (the engine's partial results): shown greyed, never a transcript */
  const [partial, setPartial] = useState<{ itemId: string; utterance: number; text: string; speculative: boolean } | null>(null);
  /** what happened to the transcription engine, in words: one line, replaced by the next event, never repeated */
  const [engineNotice, setEngineNotice] = useState<MessageRef | null>(null);
  useEffect(() => {
    // the text of the utterance being spoken, until the item's transcript (its final) replaces it
    const stopPartials = client.onPartial((event) =>
      setPartial({ itemId: event.item_id, utterance: event.utterance, text: event.text, speculative: event.speculative }),
    );
    // (not on every change of the item: saved audio changes it about once a second, and the text would blink away)
    const stopItems = client.onItem((event) =>
      setPartial((p) => (p && p.itemId === event.item.item_id && finalReplaces(event.item, p.utterance) ? null : p)),
    );
    // what happened to the transcription engine, in words
    const stopEngine = client.onEngine((event) => setEngineNotice(engineNoticeText(event)));
    return () => {
      stopPartials();
      stopItems();
      stopEngine();
    };
  }, [client]);
  return { partial, engineNotice };
}
