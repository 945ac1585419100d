import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiClient } from '../contract/apiClient';
import { reportRefusalsTo } from './runCall';

const POLL_MS = 1500;

/**
 * A room of the app (norming or shadow) as its lead sees it: read through the app API and polled while open (the
 * members' pages poll the room's listener). `act` runs a lead's action: a refusal is said in the panel, and the room
 * stays as it was shown.
 */
export function usePolledRoom<S extends { code: string }>(client: ApiClient, read: (client: ApiClient) => Promise<S | null>) {
  const [status, setStatus] = useState<S | null>(null);
  const [error, setError] = useState<string | null>(null);
  const readRef = useRef(read);
  readRef.current = read;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = reportRefusalsTo((message) => !stopped && setError(message));
    const poll = async () => {
      const s = await run(() => readRef.current(client));
      if (stopped || s === undefined) return;
      setStatus(s);
      if (s) timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [client, status?.code]);
  const act = useCallback(async (action: () => Promise<S | null>) => {
    const s = await reportRefusalsTo(setError)(action);
    if (s === undefined) return;
    setError(null);
    setStatus(s);
  }, []);
  return { status, error, act };
}
