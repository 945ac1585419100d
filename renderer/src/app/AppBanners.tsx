import { FormattedMessage, useIntl } from 'react-intl';
import type { Dispatch } from 'react';
import type { AppInfo } from '../../../core/common/settings/settingsApi';
import type { ProjectView } from '../../../core/common/project/projectApi';
import { ExportBanners } from '../features/export/ExportToolbar';
import { saidText } from '../shared/refusalText';
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
  const intl = useIntl();
  const b = (text: React.ReactNode) => <strong>{text}</strong>;
  return (
    <>
      {session?.reviewer && (
        <div className="banner info" role="status">
          <span>
            <FormattedMessage id="app.banner.reviewing" values={{ annotator: session.annotator, reviewer: session.reviewer, b }} />
          </span>
        </div>
      )}
      {info.engine.model?.sha256.startsWith('scripted:') && (
        <div className="banner warn" role="status">
          <span>
            <FormattedMessage id="app.banner.scripted" values={{ b }} />
          </span>
        </div>
      )}
      {!info.engine.available && session && (
        <div className="banner warn" role="status">
          <span>
            <FormattedMessage
              id="app.banner.noModel"
              values={{ model: project.thinkaloud.model, spoken: project.thinkaloud.require_spoken_label ? 'yes' : 'no' }}
            />
            {info.engine.problem && (
              <details className="small">
                <summary>
                  <FormattedMessage id="app.banner.details" />
                </summary>
                {saidText(intl, info.engine.problem_said, info.engine.problem)}
              </details>
            )}
          </span>
          {tab !== 'settings' && (
            <button className="primary" onClick={() => dispatch({ type: 'tab', tab: 'settings' })}>
              <FormattedMessage id="app.banner.getModel" />
            </button>
          )}
        </div>
      )}
      {error && (
        <DismissibleBanner
          kind="error"
          role="alert"
          dismissLabel={intl.formatMessage({ id: 'app.banner.dismissError' })}
          onDismiss={() => dispatch({ type: 'error', message: null })}
        >
          {error}
        </DismissibleBanner>
      )}
      {session?.config_changed && tab !== 'settings' && (
        <div className="banner info" role="status">
          <FormattedMessage id="app.banner.configChanged" />
        </div>
      )}
      <ExportBanners exporting={exporting} onDismiss={() => dispatch({ type: 'exportFinished', summary: null })} />
      {notice && (
        <DismissibleBanner
          kind="info"
          role="status"
          dismissLabel={intl.formatMessage({ id: 'app.banner.dismiss' })}
          onDismiss={() => dispatch({ type: 'notice', message: null })}
        >
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
