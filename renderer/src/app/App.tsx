import { FormattedMessage, useIntl } from 'react-intl';
import type { ProjectView } from '../../../core/common/project/projectApi';
import { applySessionPatch } from '../../../core/common/session/sessionPatch';
import { AgreementScreen } from '../features/agreement/AgreementScreen';
import { AdjudicateScreen } from '../features/adjudicate/AdjudicateScreen';
import { GuidelinesPanel } from '../features/guidelines/GuidelinesPanel';
import { LabelScreen } from '../features/label/LabelScreen';
import { ReviewScreen } from '../features/review/ReviewScreen';
import { ProjectScreen } from '../features/project/ProjectScreen';
import { SettingsScreen } from '../features/settings/SettingsScreen';
import { StartScreen } from '../features/start/StartScreen';
import { ExportToolbar } from '../features/export/ExportToolbar';
import { AppBanners } from './AppBanners';
import { TopBar } from './TopBar';
import { useAppStore } from './useAppStore';
import { useApi } from '../shared/api';
import { saidText } from '../shared/refusalText';

const LAST_ANNOTATOR_KEY = 'aloud.lastAnnotator';

export function App() {
  const client = useApi();
  const intl = useIntl();
  const { state, dispatch, run, showError: setError, keepSession: onSession, chooseDevice, chooseKeepTalking } = useAppStore();
  const { info, project, session, tab, error, choosingProject, exporting, deviceId, keepTalkingSeconds } = state;
  const projectOpened = (p: ProjectView) => dispatch({ type: 'projectOpened', project: p });
  const refreshInfo = () =>
    void client.appInfo().then(
      (i) => dispatch({ type: 'info', info: i }),
      () => undefined,
    );

  /** reviewer: someone else opens the annotator's session to review it; their corrections and labels carry their name */
  const startSession = async (annotator: string, reviewer: string | null = null) => {
    let view = await run(() => (reviewer ? client.reviewSession(annotator, reviewer) : client.openSession(annotator)));
    if (!view) return;
    // Open the first item on the host before showing it, so no key press can act before it is open.
    const first = project?.items[0]?.id;
    if (view.current_item === null && first) {
      const opened = await run(() => client.openItem(first));
      if (!opened) return;
      view = applySessionPatch(view, opened);
    }
    localStorage.setItem(LAST_ANNOTATOR_KEY, reviewer ?? annotator);
    setError(null);
    if (view.recovered)
      dispatch({
        type: 'notice',
        message: intl.formatMessage({ id: 'app.recovered' }, { what: saidText(intl, view.recovered_said, view.recovered) }),
      });
    dispatch({ type: 'session', session: view });
    dispatch({ type: 'info', info: await client.appInfo() });
  };

  if (!project || !info) {
    return <div className="loading">{error ?? intl.formatMessage({ id: 'app.loading' })}</div>;
  }

  return (
    <div className="app">
      {session && tab === 'label' && (
        <a
          className="skip-link"
          href="#controls"
          onClick={(e) => {
            e.preventDefault();
            document.querySelector<HTMLElement>('#controls button')?.focus();
          }}
        >
          <FormattedMessage id="app.skipToControls" />
        </a>
      )}
      <TopBar project={project} session={session} tab={tab} onTab={(t) => dispatch({ type: 'tab', tab: t })}>
        {session && (
          <ExportToolbar
            exporting={exporting}
            annotator={session.annotator}
            run={run}
            onChoice={(choice) => dispatch({ type: 'exportChoice', ...choice })}
            onStarted={() => dispatch({ type: 'exportStarted' })}
            onFinished={(summary) => dispatch({ type: 'exportFinished', summary })}
          />
        )}
      </TopBar>
      <AppBanners state={state} info={info} project={project} dispatch={dispatch} />
      <main>
        {!session && choosingProject ? (
          <>
            <p>
              <button className="link" onClick={() => dispatch({ type: 'choosingProject', choosing: false })}>
                <FormattedMessage id="app.backTo" values={{ project: project.name }} />
              </button>
            </p>
            <ProjectScreen
              project={project}
              onOpened={projectOpened}
              onImported={(p) => dispatch({ type: 'project', project: p })}
              nativeDialogs={info.mode === 'electron'}
            />
          </>
        ) : !session ? (
          <StartScreen
            onChooseProject={() => dispatch({ type: 'choosingProject', choosing: true })}
            project={project}
            lastAnnotator={localStorage.getItem(LAST_ANNOTATOR_KEY) ?? ''}
            onStart={(name) => void startSession(name)}
            onReview={(annotator, reviewer) => void startSession(annotator, reviewer)}
          />
        ) : tab === 'label' ? (
          <LabelScreen
            project={project}
            session={session}
            onSession={onSession}
            onError={setError}
            run={run}
            deviceId={deviceId}
            keepTalkingSeconds={keepTalkingSeconds}
          />
        ) : tab === 'review' ? (
          <ReviewScreen project={project} session={session} onSession={onSession} run={run} />
        ) : tab === 'adjudicate' ? (
          <>
            <AdjudicateScreen />
            <GuidelinesPanel names={project.schema.labels} kind="labels" projectLanguage={project.thinkaloud.languages[0] ?? 'en'} />
          </>
        ) : tab === 'project' ? (
          <ProjectScreen
            project={project}
            nativeDialogs={info.mode === 'electron'}
            onOpened={projectOpened}
            onImported={(p) => {
              dispatch({ type: 'project', project: p });
              void client.session().then(onSession, () => undefined);
            }}
          />
        ) : tab === 'settings' ? (
          <SettingsScreen
            project={project}
            onProject={(p) => {
              dispatch({ type: 'project', project: p });
              refreshInfo();
            }}
            deviceId={deviceId}
            onDevice={chooseDevice}
            untranscribed={{
              count: session.items.filter((i) => i.audio_ms > 0 && i.segments === 0).length,
              engineReady: info.engine.available,
              transcribe: async () => {
                const view = await run(() => client.transcribeLater(null));
                if (view) onSession(view);
              },
            }}
            keepTalkingSeconds={keepTalkingSeconds}
            onKeepTalking={chooseKeepTalking}
            onError={setError}
            run={run}
          />
        ) : (
          <AgreementScreen project={project} />
        )}
      </main>
    </div>
  );
}
