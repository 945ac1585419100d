import type { AloudEvent } from '../../../core/common/contract/aloudApi';
import type { AppInfo } from '../../../core/common/settings/settingsApi';
import type { ExportSummary, ProjectExportFormat } from '../../../core/common/export/exportApi';
import type { ProjectView } from '../../../core/common/project/projectApi';
import type { SessionView } from '../../../core/common/session/sessionApi';
import {
  isSessionPatch,
  staleView,
  updateSessionView,
  withFields,
  withItem,
  type HeldSessionView,
  type SessionUpdate,
} from '../../../core/common/session/sessionPatch';
import { INITIAL_EXPORT, type ExportScope, type ExportState } from '../features/export/exportState';

export type Tab = 'label' | 'review' | 'agreement' | 'adjudicate' | 'project' | 'settings';

/** Everything the app's frame keeps: what the host said (info, project, session, as events update them) and the annotator's choices. */
export interface AppState {
  info: AppInfo | null;
  project: ProjectView | null;
  /** the open session as the page holds it (the host's view, patches and events applied by their stamps) */
  session: HeldSessionView | null;
  tab: Tab;
  /** the banner: a refusal, an unreachable host, a failed write */
  error: string | null;
  notice: string | null;
  choosingProject: boolean;
  exporting: ExportState;
  /** microphone chosen in Settings (null: the system default) */
  deviceId: string | null;
  /** seconds of silence before the keep-talking cue; null: off */
  keepTalkingSeconds: number | null;
  /** whole views dropped as older than what the page applied: each asks the host for the view again (useAppStore) */
  staleViews: number;
}

export type AppAction =
  | { type: 'loaded'; info: AppInfo; project: ProjectView }
  | { type: 'info'; info: AppInfo }
  /** the open project's view changed (settings, imported items) */
  | { type: 'project'; project: ProjectView }
  /** another project is open: its annotators start again from the start screen */
  | { type: 'projectOpened'; project: ProjectView }
  /** a call's answer: a whole view (opening the session) replaces it, a patch (every act) is applied to it */
  | { type: 'session'; session: SessionUpdate }
  | { type: 'event'; event: AloudEvent }
  | { type: 'tab'; tab: Tab }
  | { type: 'error'; message: string | null }
  | { type: 'notice'; message: string | null }
  | { type: 'choosingProject'; choosing: boolean }
  | { type: 'exportChoice'; format?: ProjectExportFormat; scope?: ExportScope }
  | { type: 'exportStarted' }
  | { type: 'exportFinished'; summary: ExportSummary | null }
  | { type: 'device'; deviceId: string | null }
  | { type: 'keepTalking'; seconds: number | null };

export function initialAppState(saved: { deviceId: string | null; keepTalkingSeconds: number | null }): AppState {
  return {
    info: null,
    project: null,
    session: null,
    tab: 'label',
    error: null,
    notice: null,
    choosingProject: false,
    exporting: INITIAL_EXPORT,
    staleViews: 0,
    ...saved,
  };
}

/** What an event of the host changes in the app's state (events about a session change nothing before one is open). */
function applyEvent(state: AppState, event: AloudEvent): AppState {
  const session = (change: (s: HeldSessionView) => HeldSessionView): AppState =>
    state.session ? { ...state, session: change(state.session) } : state;
  switch (event.type) {
    case 'item':
      return session((s) => withItem(s, event.item, event.stamp));
    case 'session_reopened':
      // the same annotator's session under new settings, items or a model (a page without one open stays so)
      return state.session && state.session.annotator === event.view.annotator ? keepView(state, event.view) : state;
    case 'recording':
      return session((s) => withFields(s, { recording_item: event.item_id }, event.stamp));
    case 'transcription':
      return session((s) => withFields(s, { pending_transcriptions: event.pending, pending_items: event.items }, event.stamp));
    case 'finishing':
      return session((s) => withFields(s, { finishing_item: event.item_id }, event.stamp));
    case 'error':
      return { ...state, error: event.message };
    case 'export_progress':
      return { ...state, exporting: { ...state.exporting, progress: { done: event.done, total: event.total } } };
    default:
      // partial texts belong to the Label screen, downloads to the models panel
      return state;
  }
}

/** A whole view replaces the page's, unless it is older than what the page applied: then it is counted, to be asked again. */
function keepView(state: AppState, view: SessionView): AppState {
  if (state.session && staleView(state.session, view)) return { ...state, staleViews: state.staleViews + 1 };
  return { ...state, session: view };
}

/** The app's one reducer: every change of the frame's state is an action here. */
export function appReducer(state: AppState, action: AppAction): AppState {
  switch (action.type) {
    case 'loaded':
      return { ...state, info: action.info, project: action.project };
    case 'info':
      return { ...state, info: action.info };
    case 'project':
      return { ...state, project: action.project };
    case 'projectOpened':
      return {
        ...state,
        project: action.project,
        session: null,
        exporting: { ...state.exporting, done: null },
        choosingProject: false,
        tab: 'label',
        error: null,
      };
    case 'session':
      return isSessionPatch(action.session)
        ? { ...state, session: updateSessionView(state.session, action.session) }
        : keepView(state, action.session);
    case 'event':
      return applyEvent(state, action.event);
    case 'tab':
      return { ...state, tab: action.tab };
    case 'error':
      return { ...state, error: action.message };
    case 'notice':
      return { ...state, notice: action.message };
    case 'choosingProject':
      return { ...state, choosingProject: action.choosing };
    case 'exportChoice':
      return {
        ...state,
        exporting: {
          ...state.exporting,
          ...(action.format ? { format: action.format } : {}),
          ...(action.scope ? { scope: action.scope } : {}),
        },
      };
    case 'exportStarted':
      return { ...state, exporting: { ...state.exporting, busy: true, progress: null, done: null } };
    case 'exportFinished':
      return { ...state, exporting: { ...state.exporting, busy: false, done: action.summary } };
    case 'device':
      return { ...state, deviceId: action.deviceId };
    case 'keepTalking':
      return { ...state, keepTalkingSeconds: action.seconds };
  }
}
