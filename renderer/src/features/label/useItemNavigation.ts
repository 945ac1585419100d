import { useIntl } from 'react-intl';
import { refusalText } from '../../shared/refusalText';
import { useCallback, useMemo, useState, type MutableRefObject } from 'react';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import type { SessionUpdate } from '../../../../core/common/session/sessionPatch';
import { useApi } from '../../shared/api';
import { NavigationQueue } from './navigation';
import type { RecorderControls } from './useRecorder';

/**
 * Moving between items: presses queue, each moves the target, and the host opens the latest one when the call before
 * has answered; a recording under way is stopped (its last chunk stored) before the host opens another item.
 */
export function useItemNavigation(
  items: ProjectView['items'],
  indexRef: MutableRefObject<number>,
  recorder: Pick<RecorderControls, 'idle' | 'isActive' | 'stop'>,
  onSession: (update: SessionUpdate) => void,
  onError: (message: string | null) => void,
) {
  const client = useApi();
  const intl = useIntl();
  const queue = useMemo(
    () =>
      new NavigationQueue(
        () => items.length,
        () => indexRef.current,
        async (to) => {
          // a stop under way delivers its last chunk first, then the host opens the other item
          await recorder.idle();
          if (recorder.isActive()) await recorder.stop();
          const view = await client.openItem(items[to]!.id);
          indexRef.current = to;
          onSession(view);
        },
      ),
    // one queue per item list: the recorder and onSession it calls are read when a call runs
    [client, items],
  );
  /** navigation calls under way: the item pane says it is busy (aria-busy) until the host has opened the item */
  const [navigating, setNavigating] = useState(0);
  const navigate = useCallback(
    async (to: () => Promise<void>) => {
      setNavigating((n) => n + 1);
      try {
        await to();
      } catch (e) {
        onError(refusalText(intl, e));
      } finally {
        setNavigating((n) => n - 1);
      }
    },
    [intl, onError],
  );
  const go = useCallback((to: number) => navigate(() => queue.goTo(to)), [navigate, queue]);
  const move = useCallback((delta: number) => navigate(() => queue.move(delta)), [navigate, queue]);
  return { queue, navigating, go, move };
}
