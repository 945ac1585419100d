import { describe, expect, it } from 'vitest';
import type { AloudEvent } from '../../../core/common/contract/aloudApi';
import { createApiClient, type ApiTransport } from '../../../renderer/src/contract/apiClient';

/** An event stream the test feeds by hand, counting how many streams were opened and are open. */
function stream() {
  const listeners = new Set<(event: AloudEvent) => void>();
  let opened = 0;
  return {
    onEvent(listener: (event: AloudEvent) => void): () => void {
      opened++;
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    send: (event: AloudEvent) => [...listeners].forEach((l) => l(event)),
    get opened() {
      return opened;
    },
    get open() {
      return listeners.size;
    },
  };
}

describe('the contract client', () => {
  it('the client opens one stream from the host for all its listeners, and closes it when the last one stops', () => {
    const events = stream();
    const transport: ApiTransport = { call: () => Promise.reject(new Error('no calls here')), onEvent: (l) => events.onEvent(l), itemAudioUrl: (id) => id };
    const client = createApiClient(transport);
    const heard: string[] = [];
    const stops = [client.onItem(() => heard.push('item')), client.onPartial(() => heard.push('partial')), client.onEvent((e) => heard.push(`any ${e.type}`))];
    events.send({ type: 'partial', item_id: 'i1', utterance: 0, text: 'x' });
    expect(events.opened).toBe(1);
    expect(heard).toEqual(['partial', 'any partial']);
    stops.forEach((stop) => stop());
    expect(events.open).toBe(0);
    client.onError(() => undefined);
    expect(events.opened).toBe(2);
  });
});
