import { describe, expect, it } from 'vitest';
import type { AloudEvent } from '../../../core/common/contract/aloudApi';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../../core/common/contract/transportNames';
import { createAloudBridge, type BridgeIpc } from '../../../electron/preload/aloudBridge';

type Listener = (event: unknown, ...args: unknown[]) => void;

function recordingIpc() {
  const invoked: unknown[][] = [];
  const listeners = new Map<string, Set<Listener>>();
  const ipc: BridgeIpc = {
    invoke: async (...args) => {
      invoked.push(args);
      return { ok: true, result: 'answer' };
    },
    on: (channel, listener) => listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener)),
    removeListener: (channel, listener) => listeners.get(channel)?.delete(listener),
  };
  const emit = (channel: string, payload: unknown) => {
    for (const listener of listeners.get(channel) ?? []) listener({ sender: { id: 1 }, ports: [] }, payload);
  };
  return { ipc, invoked, listeners, emit };
}

describe('createAloudBridge (what the preload exposes as window.aloudBridge)', () => {
  it('exposes exactly call and onEvent, frozen', () => {
    const bridge = createAloudBridge(recordingIpc().ipc);
    expect(Object.keys(bridge).sort()).toEqual(['call', 'onEvent']);
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('call invokes the call channel with the method and its argument list, and returns the outcome', async () => {
    const { ipc, invoked } = recordingIpc();
    const frame = new Uint8Array([1, 2, 3]);
    expect(await createAloudBridge(ipc).call('appendAudio', [frame])).toEqual({ ok: true, result: 'answer' });
    expect(invoked).toEqual([[IPC_CALL_CHANNEL, 'appendAudio', [frame]]]);
  });

  it('onEvent hands listeners the payload only, never the IPC event with its sender', () => {
    const { ipc, emit } = recordingIpc();
    const received: unknown[][] = [];
    createAloudBridge(ipc).onEvent((...args) => received.push(args));
    const event: AloudEvent = { type: 'recording', item_id: 'demo-01', stamp: 1 };
    emit(IPC_EVENT_CHANNEL, event);
    emit('some-other-channel', { type: 'error', message: 'not ours' });
    expect(received).toEqual([[event]]);
  });

  it('the returned function stops that listener only', () => {
    const { ipc, emit, listeners } = recordingIpc();
    const bridge = createAloudBridge(ipc);
    const first: AloudEvent[] = [];
    const second: AloudEvent[] = [];
    const stopFirst = bridge.onEvent((e) => first.push(e));
    bridge.onEvent((e) => second.push(e));
    emit(IPC_EVENT_CHANNEL, { type: 'transcription', pending: 1, stamp: 1 });
    stopFirst();
    emit(IPC_EVENT_CHANNEL, { type: 'transcription', pending: 0, stamp: 2 });
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(2);
    expect(listeners.get(IPC_EVENT_CHANNEL)?.size).toBe(1);
  });

  it('refuses a listener that is not a function', () => {
    const bridge = createAloudBridge(recordingIpc().ipc);
    expect(() => bridge.onEvent('alert(1)' as unknown as () => void)).toThrow(TypeError);
  });
});
