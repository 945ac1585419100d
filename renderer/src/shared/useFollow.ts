import { useCallback, useEffect, useRef, useState } from 'react';
import type { AloudEventType } from '../../../core/common/contract/eventSubscriptions';
import type { ApiClient } from '../contract/apiClient';
import { useApi } from './api';
import { reportRefusalsTo } from './runCall';

/** How often the fallback reads again what the host does not push. */
export const FALLBACK_POLL_MS = 1500;

export interface FollowOptions<S> {
  /** the host's events that say the value changed: each reads it again */
  events?: readonly AloudEventType[];
  /**
   * The one fallback for what the host does not push yet: while this holds for the value shown, it is read again every
   * FALLBACK_POLL_MS. Rooms use it: members act through the room's own listener, which sends the app no event.
   */
  pollWhile?: (value: S) => boolean;
  /** what identifies the value followed (a room's code): when it changes, following starts again from a fresh read */
  identity?: (value: S | null) => unknown;
}

/**
 * The renderer's one way to follow something a host holds: read it through the app API, then again on each of the
 * host's events that concern it (the pushed stream every screen shares), or by the fallback above. `act` runs an
 * action whose answer is the new value: a refusal is said in `error`, and the value stays as it was shown.
 */
export function useFollow<S>(read: (client: ApiClient) => Promise<S>, options: FollowOptions<S> = {}) {
  const client = useApi();
  const [value, setValue] = useState<S | null>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef({ read, options });
  latest.current = { read, options };
  const identity = options.identity ? options.identity(value) : null;
  const eventKey = (options.events ?? []).join(' ');
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = reportRefusalsTo((message) => !stopped && setError(message));
    const follow = async () => {
      clearTimeout(timer);
      const s = await run(() => latest.current.read(client));
      if (stopped || s === undefined) return;
      setValue(s);
      if (latest.current.options.pollWhile?.(s)) timer = setTimeout(() => void follow(), FALLBACK_POLL_MS);
    };
    void follow();
    const events = new Set(eventKey.split(' ').filter(Boolean));
    const stopEvents = events.size > 0 ? client.onEvent((event) => events.has(event.type) && void follow()) : () => undefined;
    return () => {
      stopped = true;
      clearTimeout(timer);
      stopEvents();
    };
  }, [client, identity, eventKey]);
  const act = useCallback(async (action: () => Promise<S>) => {
    const s = await reportRefusalsTo(setError)(action);
    if (s === undefined) return;
    setError(null);
    setValue(s);
  }, []);
  return { value, error, act };
}
