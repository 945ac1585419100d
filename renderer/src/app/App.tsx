import type { ProjectView } from '../../../core/common/contract/aloudApi';
import { applySessionPatch } from '../../../core/common/contract/sessionPatch';
import { AgreementScreen } from '../features/agreement/AgreementScreen';
import { AdjudicateScreen } from '../features/adjudicate/AdjudicateScreen';
import { LabelScreen } from '../features/label/LabelScreen';
import { ReviewScreen } from '../features/review/ReviewScreen';
import { ProjectScreen } from '../features/project/ProjectScreen';
import { SettingsScreen } from '../features/settings/SettingsScreen';
import { StartScreen } from '../features/start/StartScreen';
import { ExportBanners, ExportToolbar } from '../features/export/ExportToolbar';
import type { Tab } from './appState';
import { useAppStore } from './useAppStore';
import { useApi } from '../shared/api';

const TAB_NAMES: Record<Tab, string> = {
  label: 'Label',
  review: 'Review',
  agreement: 'Agreement',
  adjudicate: 'Adjudicate',
  project: 'Project',
  settings: 'Settings',
};

const LAST_ANNOTATOR_KEY = 'aloud.lastAnnotator';

export function App() {
  const client = useApi();
  const { state, dispatch, run, showError: setError, keepSession: onSession, chooseDevice, chooseKeepTalking } = useAppStore();
  const { info, project, session, tab, error, notice, choosingProject, exporting, deviceId, keepTalkingSeconds } = state;
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
    if (view.recovered) dispatch({ type: 'notice', message: `Recovered after a crash: ${view.recovered}` });
    dispatch({ type: 'session', session: view });
    dispatch({ type: 'info', info: await client.appInfo() });
  };

  if (!project || !info) {
    return <div className="loading">{error ?? 'Loading…'}</div>;
  }
  const labelled = session ? session.items.filter((i) => i.final_label !== null).length : 0;

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
          Skip to controls
        </a>
      )}
      <header className="topbar">
        <div className="brand">Aloud</div>
        <div className="project" title="project">
          {project.name}
        </div>
        {session && (
          <nav className="tabs" role="tablist">
            {(['label', 'review', 'agreement', 'adjudicate', 'project', 'settings'] as const).map((t) => (
              <button
                key={t}
                role="tab"
                aria-selected={tab === t}
                className={tab === t ? 'tab active' : 'tab'}
                onClick={() => dispatch({ type: 'tab', tab: t })}
              >
                {TAB_NAMES[t]}
              </button>
            ))}
          </nav>
        )}
        <div className="spacer" />
        {session && (
          <>
            <div className="progress" title={`${labelled} of ${project.items.length} items labelled`}>
              <div className="progress-bar" style={{ width: `${(100 * labelled) / Math.max(1, project.items.length)}%` }} />
              <span>
                {labelled}/{project.items.length}
                <span className="progress-word"> labelled</span>
              </span>
            </div>
            {session.pending_transcriptions > 0 && <div className="pending">transcribing {session.pending_transcriptions}…</div>}
            <div
              className="annotator"
              title={session.reviewer ? `${session.annotator}'s session, reviewed by ${session.reviewer}` : 'annotator'}
            >
              {session.annotator}
              {session.reviewer && <span className="muted"> · reviewed by {session.reviewer}</span>}
            </div>
            <ExportToolbar
              exporting={exporting}
              annotator={session.annotator}
              run={run}
              onChoice={(choice) => dispatch({ type: 'exportChoice', ...choice })}
              onStarted={() => dispatch({ type: 'exportStarted' })}
              onFinished={(summary) => dispatch({ type: 'exportFinished', summary })}
            />
          </>
        )}
      </header>
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
        <div className="banner error" role="alert">
          {error}
          <button className="link" onClick={() => setError(null)} aria-label="dismiss error">
            ✕
          </button>
        </div>
      )}
      {session?.config_changed && tab !== 'settings' && (
        <div className="banner info" role="status">
          Some spoken labels in this session were recognised under other label phrases than the project has now (labels, synonyms, languages
          or stems); they are kept as they were recorded.
        </div>
      )}
      <ExportBanners exporting={exporting} onDismiss={() => dispatch({ type: 'exportFinished', summary: null })} />
      {notice && (
        <div className="banner info" role="status">
          {notice}
          <button className="link" onClick={() => dispatch({ type: 'notice', message: null })} aria-label="dismiss">
            ✕
          </button>
        </div>
      )}
      <main>
        {!session && choosingProject ? (
          <>
            <p>
              <button className="link" onClick={() => dispatch({ type: 'choosingProject', choosing: false })}>
                ← Back to {project.name}
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
          <AdjudicateScreen />
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
