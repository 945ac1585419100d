import { useEffect, useState } from 'react';
import type { SessionView } from '../../../core/common/session/sessionApi';
import type { ItemSessionState } from '../../../core/common/session/itemState';
import { useApi } from './api';

/**
 * One item of the session in full, for the screen that shows it. The view holds the open item and every item a patch
 * or an event brought; another item the session holds (its line is in the list) is asked of the host when shown.
 * A state in the view wins over a fetched one: every change after the fetch reaches the view as a patch or an event.
 * A fetched state belongs to the view it was asked under: a new whole view (a reopened session, new settings) asks again.
 */
export function useItemState(session: SessionView, itemId: string | null, held: boolean): ItemSessionState | undefined {
  const client = useApi();
  const inView = itemId === null ? undefined : session.item_states[itemId];
  const [fetched, setFetched] = useState<{ state: ItemSessionState; viewStamp: number } | null>(null);
  const need = itemId !== null && held && inView === undefined;
  const viewStamp = session.stamp;
  useEffect(() => {
    if (!need || itemId === null) return;
    let live = true;
    client.sessionItem(itemId).then(
      (state) => {
        if (live && state) setFetched({ state, viewStamp });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, itemId, need, viewStamp]);
  if (inView) return inView;
  return fetched !== null && fetched.state.item_id === itemId && fetched.viewStamp === viewStamp ? fetched.state : undefined;
}
