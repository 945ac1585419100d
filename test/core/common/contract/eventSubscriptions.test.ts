import { describe, expect, it } from 'vitest';
import { eventStream } from '../../../helpers/eventStream';
import { ALOUD_EVENT_TYPES, eventSubscriptions, subscriptionName } from '../../../../core/common/contract/eventSubscriptions';

describe('typed event subscriptions, derived from the contract', () => {
  it('one subscription per event type of the contract, named after it', () => {
    expect(ALOUD_EVENT_TYPES.map(subscriptionName)).toEqual([
      'onItem',
      'onSessionReopened',
      'onRecording',
      'onTranscription',
      'onFinishing',
      'onPartial',
      'onError',
      'onExportProgress',
      'onCollectProgress',
      'onRoomChanged',
      'onModelDownload',
      'onEngine',
    ]);
    expect(Object.keys(eventSubscriptions(eventStream().onEvent)).sort()).toEqual(ALOUD_EVENT_TYPES.map(subscriptionName).sort());
  });

  it('a listener hears only its type, already narrowed, until it stops', () => {
    const events = eventStream();
    const on = eventSubscriptions(events.onEvent);
    const partials: string[] = [];
    const downloads: Array<string | null> = [];
    const stopPartials = on.onPartial((e) => partials.push(`${e.item_id}#${e.utterance}: ${e.text}`));
    on.onModelDownload((e) => downloads.push(e.percent === null ? null : `${e.name} ${e.percent}%`));
    events.send({ type: 'partial', item_id: 'i1', utterance: 0, text: 'I label', speculative: false });
    events.send({ type: 'recording', item_id: null, stamp: 1 });
    events.send({
      type: 'model_download',
      name: 'tiny.en',
      state: 'running',
      received_bytes: 1,
      total_bytes: 2,
      percent: 50,
      message: null,
    });
    stopPartials();
    events.send({ type: 'partial', item_id: 'i1', utterance: 0, text: 'I label this', speculative: false });
    expect(partials).toEqual(['i1#0: I label']);
    expect(downloads).toEqual(['tiny.en 50%']);
  });
});
