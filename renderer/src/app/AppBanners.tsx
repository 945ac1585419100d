import type { Dispatch } from 'react';
import type { AppInfo } from '../../../core/common/settings/settingsApi';
import type { ProjectView } from '../../../core/common/project/projectApi';
import { ExportBanners } from '../features/export/ExportToolbar';
import type { AppAction, AppState } from './appState';

/** The app's banners under the top bar: review, scripted or missing transcription, the error, old label phrases, the export, a notice. */
export function AppBanners({
  state,
  info,
  project,
  dispatch,
}: {
  state: AppState;
  info: AppInfo;
  project: ProjectView;
  dispatch: Dispatch<AppAction>;
}) {
  const { session, tab, error, notice, exporting } = state;
  return (
    <>
      {session?.reviewer && (
        <div className="banner info" role="status">
          <span>
            Reviewing <strong>{session.annotator}</strong>’s session as <strong>{session.reviewer}</strong>: your corrections, and labels
            you give or derive from them, are recorded as yours — never as {session.annotator}’s own. Recording is off: your voice would
            become {session.annotator}’s.
          </span>
        </div>
      )}
      {info.engine.model?.sha256.startsWith('scripted:') && (
        <div className="banner warn" role="status">
          <span>
            Transcription is <strong>scripted</strong> (test or demo data from an engine script), not whisper.cpp: nothing said is really
            transcribed, and exports say so.
          </span>
        </div>
      )}
      {!info.engine.available && session && (
        <div className="banner warn" role="status">
          <span>
            No transcription yet: the speech model “{project.thinkaloud.model}” is not available. Audio is still recorded and kept, and
            labels can be given by key or click
            {project.thinkaloud.require_spoken_label
              ? '; completing an item needs a spoken label, so it waits until a model is installed'
              : ''}
            .
            {info.engine.problem && (
              <details className="small">
                <summary>Details</summary>
                {info.engine.problem}
              </details>
            )}
          </span>
          {tab !== 'settings' && (
            <button className="primary" onClick={() => dispatch({ type: 'tab', tab: 'settings' })}>
              Get a model…
            </button>
          )}
        </div>
      )}
      {error && (
        <DismissibleBanner
          kind="error"
          role="alert"
          dismissLabel="dismiss error"
          onDismiss={() => dispatch({ type: 'error', message: null })}
        >
          {error}
        </DismissibleBanner>
      )}
      {session?.config_changed && tab !== 'settings' && (
        <div className="banner info" role="status">
          Some spoken labels in this session were recognised under other label phrases than the project has now (labels, synonyms, languages
          or stems); they are kept as they were recorded.
        </div>
      )}
      <ExportBanners exporting={exporting} onDismiss={() => dispatch({ type: 'exportFinished', summary: null })} />
      {notice && (
        <DismissibleBanner kind="info" role="status" dismissLabel="dismiss" onDismiss={() => dispatch({ type: 'notice', message: null })}>
          {notice}
        </DismissibleBanner>
      )}
    </>
  );
}

/** A banner with a ✕ that takes it away (the error, a notice). */
function DismissibleBanner(props: {
  kind: 'error' | 'info';
  role: 'alert' | 'status';
  dismissLabel: string;
  onDismiss: () => void;
  children: React.ReactNode;
}) {
  return (
    <div className={`banner ${props.kind}`} role={props.role}>
      {props.children}
      <button className="link" onClick={props.onDismiss} aria-label={props.dismissLabel}>
        ✕
      </button>
    </div>
  );
}
