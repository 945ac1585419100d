import { useCallback, useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import type { AloudEventType } from '../../../core/common/contract/eventSubscriptions';
import type { ApiClient } from '../contract/apiClient';
import { useApi } from './api';
import { reportRefusalsTo } from './runCall';

/**
 * The one fallback: how often a value followed is read again without an event, in case one was missed (the browser's
 * event stream reconnects after the host went away for a moment; events sent meanwhile are not replayed).
 */
export const FALLBACK_REREAD_MS = 15_000;

export interface FollowOptions<S> {
  /** the host's events that say the value changed: each one reads it again */
  events: readonly AloudEventType[];
  /** while this holds for the value shown, it is also read again every FALLBACK_REREAD_MS (the fallback above) */
  rereadWhile?: (value: S) => boolean;
  /** what identifies the value followed (a room's code): when it changes, following starts again from a fresh read */
  identity?: (value: S | null) => unknown;
}

/**
 * The renderer's one way to follow something a host holds: read it through the app API, then again on each of the
 * host's events that concern it (the pushed stream every screen shares), with the single fallback above. `act` runs an
 * action whose answer is the new value: a refusal is said in `error`, and the value stays as it was shown; a read that
 * started before an act answered never overwrites the act's answer (it is read again instead).
 */
export function useFollow<S>(read: (client: ApiClient) => Promise<S>, options: FollowOptions<S>) {
  const client = useApi();
  const [value, setValue] = useState<S | null>(null);
  const [error, setError] = useState<string | null>(null);
  // the language is read when a refusal is shown, so the follow does not restart when it changes
  const intl = useIntl();
  const intlRef = useRef(intl);
  intlRef.current = intl;
  const latest = useRef({ read, options });
  latest.current = { read, options };
  /** answers of acts so far: a read that began before the last one is older than what is shown */
  const acts = useRef(0);
  const identity = options.identity ? options.identity(value) : null;
  const eventKey = options.events.join(' ');
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = reportRefusalsTo((message) => !stopped && setError(message), intlRef);
    const follow = async () => {
      clearTimeout(timer);
      const actsBefore = acts.current;
      const s = await run(() => latest.current.read(client));
      if (stopped || s === undefined) return;
      // an act answered meanwhile: this read may be older than its answer, so read once more rather than show it
      if (acts.current !== actsBefore) return void follow();
      setValue(s);
      clearTimeout(timer);
      if (latest.current.options.rereadWhile?.(s)) timer = setTimeout(() => void follow(), FALLBACK_REREAD_MS);
    };
    void follow();
    const events = new Set(eventKey.split(' '));
    const stopEvents = client.onEvent((event) => {
      if (events.has(event.type)) void follow();
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      stopEvents();
    };
  }, [client, identity, eventKey]);
  const act = useCallback(async (action: () => Promise<S>) => {
    const s = await reportRefusalsTo(setError, intlRef)(action);
    if (s === undefined) return;
    acts.current += 1;
    setError(null);
    setValue(s);
  }, []);
  return { value, error, act };
}
