import { useEffect, useState } from 'react';
import type { AloudEvent } from '../../../../core/common/contract/aloudApi';
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

/** What the host pushes to the Label screen besides the session: the utterance being spoken and the engine's state. */
export function useHostNotices() {
  const client = useApi();
  /** text of the utterance still being spoken (the engine's partial results): shown greyed, never a transcript */
  const [partial, setPartial] = useState<{ itemId: string; text: string; speculative: boolean } | null>(null);
  /** what happened to the transcription engine, in words: one line, replaced by the next event, never repeated */
  const [engineNotice, setEngineNotice] = useState<MessageRef | null>(null);
  useEffect(() => {
    // the text of the utterance being spoken, until the item's transcript (its final) replaces it
    const stopPartials = client.onPartial((event) =>
      setPartial({ itemId: event.item_id, text: event.text, speculative: event.speculative }),
    );
    const stopItems = client.onItem((event) => setPartial((p) => (p && p.itemId === event.item.item_id ? null : p)));
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
