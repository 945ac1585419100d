import { useCallback, useEffect, useState } from 'react';
import type { AppInfo, ExportSummary, ProjectExportFormat, ProjectView, SessionView } from '../../core/common/contract/aloudApi';
import { INTEROP_FORMATS, INTEROP_FORMAT_TITLES } from '../../core/common/export/interop/interopFormats';
import type { ItemSessionState } from '../../core/common/session/itemState';
import type { ApiClient } from './contract/apiClient';
import { AgreementScreen } from './screens/AgreementScreen';
import { LabelScreen } from './screens/LabelScreen';
import { ReviewScreen } from './screens/ReviewScreen';
import { ProjectScreen } from './screens/ProjectScreen';
import { SettingsScreen } from './screens/SettingsScreen';
import { StartScreen } from './screens/StartScreen';
import { loadKeepTalkingSeconds, saveKeepTalkingSeconds } from './app/keepTalking';
import { exportSummaryWords } from './app/exportSummary';

type Tab = 'label' | 'review' | 'agreement' | 'project' | 'settings';
const TAB_NAMES: Record<Tab, string> = { label: 'Label', review: 'Review', agreement: 'Agreement', project: 'Project', settings: 'Settings' };
const DEVICE_KEY = 'aloud.microphone';

const LAST_ANNOTATOR_KEY = 'aloud.lastAnnotator';

/** Merges a pushed item state into the session view (events can arrive before or after a call's result). */
function withItem(view: SessionView, item: ItemSessionState): SessionView {
  const at = view.items.findIndex((i) => i.item_id === item.item_id);
  const items = at < 0 ? [...view.items, item] : view.items.map((i, n) => (n === at ? item : i));
  return { ...view, items };
}

export function App({ client }: { client: ApiClient }) {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [project, setProject] = useState<ProjectView | null>(null);
  const [session, setSession] = useState<SessionView | null>(null);
  const [tab, setTab] = useState<Tab>('label');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [exportFormat, setExportFormat] = useState<ProjectExportFormat>('jsonl');
  const [exportScope, setExportScope] = useState<'mine' | 'all'>('mine');
  const [exported, setExported] = useState<ExportSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const [exportProgress, setExportProgress] = useState<{ done: number; total: number } | null>(null);
  const [deviceId, setDeviceId] = useState<string | null>(() => localStorage.getItem(DEVICE_KEY));
  const [keepTalking, setKeepTalking] = useState<number | null>(() => loadKeepTalkingSeconds(localStorage));
  const [choosingProject, setChoosingProject] = useState(false);
  /** another project is open: its annotators start again from the start screen */
  const projectOpened = (p: ProjectView) => {
    setProject(p);
    setSession(null);
    setExported(null);
    setChoosingProject(false);
    setTab('label');
    setError(null);
  };

  useEffect(() => {
    Promise.all([client.appInfo(), client.project()]).then(
      ([i, p]) => {
        setInfo(i);
        setProject(p);
      },
      (e: Error) => setError(`Cannot reach Aloud: ${e.message}`),
    );
    return client.onEvent((event) => {
      if (event.type === 'item') setSession((s) => (s ? withItem(s, event.item) : s));
      else if (event.type === 'recording') setSession((s) => (s ? { ...s, recording_item: event.item_id } : s));
      else if (event.type === 'transcription') setSession((s) => (s ? { ...s, pending_transcriptions: event.pending } : s));
      else if (event.type === 'error') setError(event.message);
      else if (event.type === 'finishing') setSession((s) => (s ? { ...s, finishing_item: event.item_id } : s));
      else if (event.type === 'export_progress') setExportProgress({ done: event.done, total: event.total });
      else if (event.type === 'model_download' && event.state === 'done') void client.appInfo().then(setInfo, () => undefined);
    });
  }, [client]);

  /** Runs a call, shows its error in the banner, and keeps the view it returns. */
  const run = useCallback(async <T,>(task: () => Promise<T>): Promise<T | null> => {
    try {
      const result = await task();
      return result;
    } catch (e) {
      setError((e as Error).message);
      return null;
    }
  }, []);

  const startSession = async (annotator: string) => {
    let view = await run(() => client.openSession(annotator));
    if (!view) return;
    // Open the first item on the host before showing it, so no key press can act before it is open.
    const first = project?.items[0]?.id;
    if (view.current_item === null && first) {
      const opened = await run(() => client.openItem(first));
      if (!opened) return;
      view = opened;
    }
    localStorage.setItem(LAST_ANNOTATOR_KEY, annotator);
    setError(null);
    if (view.recovered) setNotice(`Recovered after a crash: ${view.recovered}`);
    setSession(view);
    setInfo(await client.appInfo());
  };

  const doExport = async () => {
    setBusy(true);
    setExportProgress(null);
    setExported(null);
    const summary = await run(() => client.exportProject(exportFormat, exportScope === 'all' ? null : (session?.annotator ?? null)));
    setBusy(false);
    if (summary) setExported(summary);
  };

  if (!project || !info) {
    return <div className="loading">{error ?? 'Loading…'}</div>;
  }
  const labelled = session ? session.items.filter((i) => i.final_label !== null).length : 0;

  return (
    <div className="app">
      {session && tab === 'label' && (
        <a className="skip-link" href="#controls" onClick={(e) => {
          e.preventDefault();
          document.querySelector<HTMLElement>('#controls button')?.focus();
        }}>
          Skip to controls
        </a>
      )}
      <header className="topbar">
        <div className="brand">Aloud</div>
        <div className="project" title="project">{project.name}</div>
        {session && (
          <nav className="tabs" role="tablist">
            {(['label', 'review', 'agreement', 'project', 'settings'] as const).map((t) => (
              <button key={t} role="tab" aria-selected={tab === t} className={tab === t ? 'tab active' : 'tab'} onClick={() => setTab(t)}>
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
                {labelled}/{project.items.length} labelled
              </span>
            </div>
            {session.pending_transcriptions > 0 && <div className="pending">transcribing {session.pending_transcriptions}…</div>}
            <div className="annotator" title="annotator">{session.annotator}</div>
            <select aria-label="export whose sessions" value={exportScope} onChange={(e) => setExportScope(e.target.value as 'mine' | 'all')}>
              <option value="mine">my session</option>
              <option value="all">all annotators</option>
            </select>
            <select aria-label="export format" value={exportFormat} onChange={(e) => setExportFormat(e.target.value as ProjectExportFormat)}>
              <option value="jsonl">JSONL</option>
              <option value="json">JSON</option>
              <option value="csv">CSV</option>
              <optgroup label="for other tools (a folder)">
                {INTEROP_FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {INTEROP_FORMAT_TITLES[f]}
                  </option>
                ))}
              </optgroup>
            </select>
            <button onClick={() => void doExport()} disabled={busy}>
              {busy ? 'Exporting…' : 'Export'}
            </button>
          </>
        )}
      </header>
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
            No transcription yet: the speech model “{project.thinkaloud.model}” is not available. Audio is still recorded and kept, and labels can be given by key or
            click{project.thinkaloud.require_spoken_label ? '; completing an item needs a spoken label, so it waits until a model is installed' : ''}.
            {info.engine.problem && (
              <details className="small">
                <summary>Details</summary>
                {info.engine.problem}
              </details>
            )}
          </span>
          {tab !== 'settings' && (
            <button className="primary" onClick={() => setTab('settings')}>
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
          Some spoken labels in this session were recognised under an earlier version of the project settings; they are kept as they were recorded.
        </div>
      )}
      {busy && (
        <div className="banner info" role="status">
          <span>Exporting…{exportProgress ? ` ${exportProgress.done} of ${exportProgress.total} records` : ''}</span>
          {exportProgress ? <progress aria-label="export progress" value={exportProgress.done} max={Math.max(1, exportProgress.total)} /> : <progress aria-label="export progress" />}
        </div>
      )}
      {exported && (
        <div className="banner info export-summary" role="status">
          <span>
            {exportSummaryWords(exported)} File: <code>{exported.file}</code>
          </span>
          <button className="link" onClick={() => setExported(null)} aria-label="dismiss">
            ✕
          </button>
        </div>
      )}
      {notice && (
        <div className="banner info" role="status">
          {notice}
          <button className="link" onClick={() => setNotice(null)} aria-label="dismiss">
            ✕
          </button>
        </div>
      )}
      <main>
        {!session && choosingProject ? (
          <>
            <p>
              <button className="link" onClick={() => setChoosingProject(false)}>
                ← Back to {project.name}
              </button>
            </p>
            <ProjectScreen client={client} project={project} onOpened={projectOpened} onImported={setProject} nativeDialogs={info.mode === 'electron'} />
          </>
        ) : !session ? (
          <StartScreen
            onChooseProject={() => setChoosingProject(true)} client={client} project={project} lastAnnotator={localStorage.getItem(LAST_ANNOTATOR_KEY) ?? ''} onStart={(name) => void startSession(name)} />
        ) : tab === 'label' ? (
          <LabelScreen client={client} project={project} session={session} onSession={setSession} onError={setError} run={run} deviceId={deviceId} keepTalkingSeconds={keepTalking} />
        ) : tab === 'review' ? (
          <ReviewScreen client={client} project={project} session={session} onSession={setSession} onError={setError} />
        ) : tab === 'project' ? (
          <ProjectScreen
            client={client}
            project={project}
            nativeDialogs={info.mode === 'electron'}
            onOpened={projectOpened}
            onImported={(p) => {
              setProject(p);
              void client.session().then(setSession, () => undefined);
            }}
          />
        ) : tab === 'settings' ? (
          <SettingsScreen
            client={client}
            project={project}
            onProject={(p) => {
              setProject(p);
              void client.appInfo().then(setInfo, () => undefined);
            }}
            deviceId={deviceId}
            onDevice={(id) => {
              setDeviceId(id);
              if (id) localStorage.setItem(DEVICE_KEY, id);
              else localStorage.removeItem(DEVICE_KEY);
            }}
            untranscribed={{
              count: session.items.filter((i) => i.audio_ms > 0 && i.segments.length === 0).length,
              engineReady: info.engine.available,
              transcribe: async () => {
                const view = await run(() => client.transcribeLater(null));
                if (view) setSession(view);
              },
            }}
            keepTalkingSeconds={keepTalking}
            onKeepTalking={(s) => {
              setKeepTalking(s);
              saveKeepTalkingSeconds(localStorage, s);
            }}
            onError={setError}
          />
        ) : (
          <AgreementScreen client={client} project={project} />
        )}
      </main>
    </div>
  );
}
