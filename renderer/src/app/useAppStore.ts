import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { useIntl } from 'react-intl';
import type { SessionUpdate } from '../../../core/common/session/sessionPatch';
import { appReducer, initialAppState } from './appState';
import { loadKeepTalkingSeconds, saveKeepTalkingSeconds } from '../features/label/keepTalking';
import { reportRefusalsTo, type RunCall } from '../shared/runCall';
import { useApi } from '../shared/api';

const DEVICE_KEY = 'aloud.microphone';

/**
 * The app's one store: the reducer over what the host says and what the annotator chose, fed by the host's events,
 * with `run`, the one wrapper that shows a refused call in the banner, and the choices kept in this browser profile.
 */
export function useAppStore() {
  const client = useApi();
  const intl = useIntl();
  // read when the host cannot be reached (the effect runs once per client)
  const intlRef = useRef(intl);
  intlRef.current = intl;
  const [state, dispatch] = useReducer(appReducer, undefined, () =>
    initialAppState({ deviceId: localStorage.getItem(DEVICE_KEY), keepTalkingSeconds: loadKeepTalkingSeconds(localStorage) }),
  );
  useEffect(() => {
    Promise.all([client.appInfo(), client.project()]).then(
      ([info, project]) => dispatch({ type: 'loaded', info, project }),
      (e: Error) => dispatch({ type: 'error', message: intlRef.current.formatMessage({ id: 'app.unreachable' }, { reason: e.message }) }),
    );
    const stopEvents = client.onEvent((event) => dispatch({ type: 'event', event }));
    // a model that arrived may be the one the session transcribes with now
    const stopDownloads = client.onModelDownload((event) => {
      if (event.state === 'done')
        void client.appInfo().then(
          (info) => dispatch({ type: 'info', info }),
          () => undefined,
        );
    });
    return () => {
      stopEvents();
      stopDownloads();
    };
  }, [client]);
  // a whole view that arrived after a newer answer was dropped (appState): the page asks for the view again
  useEffect(() => {
    if (state.staleViews === 0) return;
    void client.session().then(
      (fresh) => dispatch({ type: 'session', session: fresh }),
      () => undefined,
    );
  }, [client, state.staleViews]);
  const run: RunCall = useMemo(() => reportRefusalsTo((message) => dispatch({ type: 'error', message }), intlRef), []);
  // stable across renders, like the setters they replace: screens keep them in their callbacks' dependencies
  const showError = useCallback((message: string | null) => dispatch({ type: 'error', message }), []);
  // a call's answer about the session: a whole view replaces the one kept, an act's patch is applied to it
  const keepSession = useCallback((session: SessionUpdate) => dispatch({ type: 'session', session }), []);
  const chooseDevice = useCallback((deviceId: string | null) => {
    dispatch({ type: 'device', deviceId });
    if (deviceId) localStorage.setItem(DEVICE_KEY, deviceId);
    else localStorage.removeItem(DEVICE_KEY);
  }, []);
  const chooseKeepTalking = useCallback((seconds: number | null) => {
    dispatch({ type: 'keepTalking', seconds });
    saveKeepTalkingSeconds(localStorage, seconds);
  }, []);
  return { state, dispatch, run, showError, keepSession, chooseDevice, chooseKeepTalking };
}
