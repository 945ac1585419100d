import { describe, expect, it } from 'vitest';
import { eventStream } from '../../helpers/eventStream';
import { createApiClient, type ApiTransport } from '../../../renderer/src/contract/apiClient';

describe('the contract client', () => {
  it('the client opens one stream from the host for all its listeners, and closes it when the last one stops', () => {
    const events = eventStream();
    const transport: ApiTransport = {
      call: () => Promise.reject(new Error('no calls here')),
      onEvent: (l) => events.onEvent(l),
      itemAudioUrl: (id) => id,
      protocolAudioUrl: (id, n) => `${id}/${n}`,
    };
    const client = createApiClient(transport);
    const heard: string[] = [];
    const stops = [
      client.onItem(() => heard.push('item')),
      client.onPartial(() => heard.push('partial')),
      client.onEvent((e) => heard.push(`any ${e.type}`)),
    ];
    events.send({ type: 'partial', item_id: 'i1', utterance: 0, text: 'x', speculative: false });
    expect(events.opened).toBe(1);
    expect(heard).toEqual(['partial', 'any partial']);
    stops.forEach((stop) => stop());
    expect(events.open).toBe(0);
    client.onError(() => undefined);
    expect(events.opened).toBe(2);
  });
});
