import { useCallback, useEffect, useRef, useState } from 'react';
import type { AloudEvent } from '../../../../core/common/contract/aloudApi';
import type { ModelsView } from '../../../../core/common/models/modelsApi';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import type { ThinkAloudSettings } from '../../../../core/common/settings/settingsApi';
import { WORKLET_URL } from '../../capture/workletUrl';
import { describeCaptureError } from '../label/recorder';
import { listInputDevices, type InputDevice } from '../../capture/inputDevices';
import { startCapture, type CaptureSession } from '../../capture/microphoneCapture';
import { METER_FLOOR_DB } from '../label/useRecorder';
import { LevelMeter } from '../label/LevelMeter';
import { reportRefusalsTo, type RunCall } from '../../shared/runCall';
import { PathForm } from '../../shared/PathForm';
import { useApi } from '../../shared/api';
import { FormattedMessage } from 'react-intl';
import { LanguageChoice } from '../../shared/i18n/LanguageChoice';

type Download = Extract<AloudEvent, { type: 'model_download' }>;

interface Props {
  project: ProjectView;
  onProject: (project: ProjectView) => void;
  deviceId: string | null;
  onDevice: (deviceId: string | null) => void;
  keepTalkingSeconds: number | null;
  onKeepTalking: (seconds: number | null) => void;
  onError: (message: string | null) => void;
  /** runs a call, showing a refusal in the app's banner */
  run: RunCall;
  /** recordings with audio and no transcript, and whether a model can transcribe them now */
  untranscribed?: { count: number; engineReady: boolean; transcribe: () => Promise<void> };
}

const mib = (bytes: number | null): string =>
  bytes === null ? '?' : `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;

/** What each threshold means, in the words the settings show beside it. */
const THRESHOLDS: ReadonlyArray<{
  key: 'silence_threshold_dbfs' | 'min_pause_ms' | 'long_pause_ms' | 'chunk_seconds';
  label: string;
  unit: string;
  step: number;
  meaning: string;
}> = [
  {
    key: 'silence_threshold_dbfs',
    label: 'Silence threshold',
    unit: 'dBFS',
    step: 1,
    meaning: 'Audio quieter than this counts as silence (for pauses and silent chunks). Closer to 0 calls more of the audio silence.',
  },
  {
    key: 'min_pause_ms',
    label: 'Shortest pause',
    unit: 'ms',
    step: 10,
    meaning: 'Silence between two stretches of speech counts as a pause only when it lasts at least this long.',
  },
  {
    key: 'long_pause_ms',
    label: 'Long pause',
    unit: 'ms',
    step: 50,
    meaning: 'Pauses at least this long are counted as long pauses (a hesitation signal).',
  },
  {
    key: 'chunk_seconds',
    label: 'Chunk length',
    unit: 's',
    step: 0.5,
    meaning: 'Audio is judged silent or not in chunks of this length (the silent-chunk count).',
  },
];

export function SettingsScreen({
  project,
  onProject,
  deviceId,
  onDevice,
  keepTalkingSeconds,
  onKeepTalking,
  onError,
  run,
  untranscribed,
}: Props) {
  return (
    <div className="settings-screen">
      <section className="panel" aria-labelledby="language-title">
        <h2 id="language-title">
          <FormattedMessage id="app.settings.language" />
        </h2>
        <LanguageChoice headingId="language-title" />
      </section>
      <ModelsPanel project={project} run={run} untranscribed={untranscribed} />
      <MicrophonePanel deviceId={deviceId} onDevice={onDevice} />
      <ThresholdsPanel project={project} onProject={onProject} onError={onError} />
      <section className="panel" aria-labelledby="cue-title">
        <h2 id="cue-title">Keep-talking cue</h2>
        <p className="muted">
          While recording, after this much silence the app shows one neutral “Please keep talking” (the only prompt the think-aloud method
          allows). Each cue is logged with its time, so analyses can tell prompted from unprompted speech. Off by default.
        </p>
        <label className="inline">
          <input type="checkbox" checked={keepTalkingSeconds !== null} onChange={(e) => onKeepTalking(e.target.checked ? 10 : null)} /> Show
          the cue
        </label>
        {keepTalkingSeconds !== null && (
          <label className="inline">
            after{' '}
            <input
              type="number"
              aria-label="seconds of silence before the cue"
              min={2}
              max={120}
              value={keepTalkingSeconds}
              onChange={(e) => onKeepTalking(Math.min(120, Math.max(2, Number(e.target.value) || 10)))}
            />{' '}
            s of silence
          </label>
        )}
      </section>
    </div>
  );
}

function ModelsPanel({ project, run, untranscribed }: { project: ProjectView; run: RunCall; untranscribed?: Props['untranscribed'] }) {
  const client = useApi();
  const [transcribing, setTranscribing] = useState(false);
  const [view, setView] = useState<ModelsView | null>(null);
  const [downloads, setDownloads] = useState<Record<string, Download>>({});
  const [importPath, setImportPath] = useState('');
  const [verifying, setVerifying] = useState(false);

  const act = useCallback(
    async (task: () => Promise<ModelsView>) => {
      const next = await run(task);
      if (next) setView(next);
    },
    [run],
  );
  const refresh = useCallback((rehash = false) => act(() => client.models(rehash)), [act, client]);
  useEffect(() => {
    void refresh();
    return client.onModelDownload((event) => {
      setDownloads((d) => ({ ...d, [event.name]: event }));
      if (event.state !== 'running') void refresh();
    });
  }, [client, refresh]);

  return (
    <section className="panel" aria-labelledby="models-title">
      <h2 id="models-title">Models</h2>
      <p className="muted">
        Transcription runs on this computer with a whisper model. This project uses <strong>{project.thinkaloud.model}</strong>. Models are
        kept in <code>{view?.dir ?? '…'}</code>.
      </p>
      {view && (
        <table className="models-table">
          <thead>
            <tr>
              <th>Model</th>
              <th>Size</th>
              <th>State</th>
              <th>
                <span className="visually-hidden">actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {view.models.map((m) => {
              const d = downloads[m.name];
              const running = m.downloading || d?.state === 'running';
              return (
                <tr key={m.name}>
                  <td>
                    <strong>{m.name}</strong>
                    {m.name === view.project_model && <span className="tag">project model</span>}
                    {m.kind === 'vad' && <span className="tag">voice activity</span>}
                    <div className="muted small">{m.english_only ? 'English only' : 'multilingual'}</div>
                  </td>
                  <td>{m.bytes !== null ? mib(m.bytes) : `about ${m.approx_mib} MiB`}</td>
                  <td>
                    {running ? (
                      <div className="download">
                        <progress aria-label={`downloading ${m.name}`} max={100} value={d?.percent ?? undefined} />
                        <span className="small">
                          {d ? `${mib(d.received_bytes)}${d.total_bytes ? ` of ${mib(d.total_bytes)}` : ''}` : 'starting…'}
                        </span>
                      </div>
                    ) : m.installed ? (
                      m.problem ? (
                        <span className="bad">unusable: {m.problem}</span>
                      ) : m.verified ? (
                        <span className="good">installed, checksum verified</span>
                      ) : (
                        <span>installed (not a manifest file)</span>
                      )
                    ) : (
                      <span className="muted">not installed</span>
                    )}
                    {d && d.state !== 'running' && d.message && (
                      <div className={d.state === 'failed' ? 'bad small' : 'muted small'}>{d.message}</div>
                    )}
                  </td>
                  <td className="actions">
                    {running ? (
                      <button onClick={() => void act(() => client.cancelModelDownload(m.name))}>Cancel</button>
                    ) : !m.installed && m.in_manifest ? (
                      <button className="primary" onClick={() => void act(() => client.downloadModel(m.name))}>
                        {d?.state === 'cancelled' || d?.state === 'failed' ? 'Resume download' : 'Download'}
                      </button>
                    ) : m.installed ? (
                      <button onClick={() => void act(() => client.removeModel(m.name))} aria-label={`remove ${m.name}`}>
                        Remove
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {untranscribed && untranscribed.count > 0 && untranscribed.engineReady && (
        <div className="row transcribe-later" role="status">
          <span>{untranscribed.count} recording(s) have no transcript yet (made before a model was installed).</span>
          <button
            className="primary"
            disabled={transcribing}
            onClick={() => {
              setTranscribing(true);
              void untranscribed.transcribe().finally(() => setTranscribing(false));
            }}
          >
            {transcribing ? 'Transcribing…' : 'Transcribe them now'}
          </button>
        </div>
      )}
      <div className="row">
        <button
          onClick={() => {
            setVerifying(true);
            void refresh(true).finally(() => setVerifying(false));
          }}
          disabled={verifying}
        >
          {verifying ? 'Verifying…' : 'Verify installed models'}
        </button>
      </div>
      <PathForm
        id="import-model"
        label="Import a model file"
        value={importPath}
        onChange={setImportPath}
        placeholder="/full/path/to/ggml-model.bin"
        submitLabel="Import"
        onSubmit={(file) => void act(() => client.importModel(file)).then(() => setImportPath(''))}
      />
    </section>
  );
}

function MicrophonePanel({ deviceId, onDevice }: { deviceId: string | null; onDevice: (id: string | null) => void }) {
  const [devices, setDevices] = useState<InputDevice[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [level, setLevel] = useState<number | null>(null);
  const testRef = useRef<CaptureSession | null>(null);

  useEffect(() => {
    listInputDevices({ unlockLabels: true }).then(setDevices, (e: unknown) => setProblem(describeCaptureError(e)));
    return () => void testRef.current?.stop();
  }, []);

  const toggleTest = async () => {
    if (testRef.current) {
      const t = testRef.current;
      testRef.current = null;
      setLevel(null);
      await t.stop();
      return;
    }
    try {
      setProblem(null);
      testRef.current = await startCapture({
        ...(deviceId ? { deviceId } : {}),
        workletModuleUrl: WORKLET_URL,
        onChunk: () => undefined, // a level test records nothing
        onMeter: (r) => setLevel(Math.max(METER_FLOOR_DB, r.peakDbfs)),
      });
      setLevel(METER_FLOOR_DB);
    } catch (e) {
      setProblem(describeCaptureError(e));
    }
  };
  return (
    <section className="panel" aria-labelledby="mic-title">
      <h2 id="mic-title">Microphone</h2>
      <div className="row">
        <label htmlFor="mic">Record from</label>
        <select id="mic" value={deviceId ?? ''} onChange={(e) => onDevice(e.target.value || null)}>
          <option value="">System default</option>
          {devices
            .filter((d) => !d.isDefault)
            .map((d, n) => (
              <option key={d.deviceId} value={d.deviceId}>
                {d.label || `Microphone ${n + 1}`}
              </option>
            ))}
        </select>
        <button onClick={() => void toggleTest()}>{level === null ? 'Test level' : 'Stop test'}</button>
        <LevelMeter label="microphone test level" db={level} />
        {level !== null && <span className="small muted">{level <= METER_FLOOR_DB ? 'silence' : `${Math.round(level)} dBFS`}</span>}
      </div>
      {problem && <p className="bad">{problem}</p>}
      <p className="muted small">The test only shows the level: nothing is recorded or saved.</p>
    </section>
  );
}

function ThresholdsPanel({
  project,
  onProject,
  onError,
}: {
  project: ProjectView;
  onProject: (p: ProjectView) => void;
  onError: (m: string | null) => void;
}) {
  const client = useApi();
  const current = project.thinkaloud;
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [undo, setUndo] = useState<ThinkAloudSettings | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const changed = THRESHOLDS.filter((t) => draft[t.key] !== undefined && Number(draft[t.key]) !== current[t.key]);

  const apply = async (patch: Partial<ThinkAloudSettings>, isUndo: boolean) => {
    setProblem(null);
    // a refused change is said beside the thresholds, not in the banner
    const change = await reportRefusalsTo(setProblem)(() => client.updateThinkAloud(patch));
    if (!change) return;
    onProject(change.project);
    setDraft({});
    setUndo(isUndo ? null : change.previous);
    setSaved(isUndo ? 'Undone: aloud.yaml has its earlier values again.' : 'Saved to aloud.yaml.');
    onError(null);
  };

  return (
    <section className="panel" aria-labelledby="thresholds-title">
      <h2 id="thresholds-title">Think-aloud thresholds of this project</h2>
      <p className="muted small">
        Changes are written to the project’s aloud.yaml after the same checks as when it is loaded. They apply to audio recorded from now
        on.
      </p>
      <div className="thresholds">
        {THRESHOLDS.map((t) => (
          <div key={t.key} className="threshold">
            <label htmlFor={`t-${t.key}`}>
              {t.label} ({t.unit})
            </label>
            <input
              id={`t-${t.key}`}
              type="number"
              step={t.step}
              value={draft[t.key] ?? String(current[t.key])}
              onChange={(e) => setDraft({ ...draft, [t.key]: e.target.value })}
            />
            <p className="muted small">{t.meaning}</p>
          </div>
        ))}
      </div>
      <label className="inline">
        <input
          type="checkbox"
          checked={current.require_spoken_label}
          onChange={(e) => void apply({ require_spoken_label: e.target.checked }, false)}
        />{' '}
        An item is completed only with a spoken label
      </label>
      <div className="row">
        <button
          className="primary"
          disabled={changed.length === 0}
          onClick={() => void apply(Object.fromEntries(changed.map((t) => [t.key, Number(draft[t.key])])), false)}
        >
          Save {changed.length > 0 ? `${changed.length} change(s)` : ''}
        </button>
        {undo && <button onClick={() => void apply(undo, true)}>Undo last change</button>}
        {saved && !problem && (
          <span role="status" className="good small">
            {saved}
          </span>
        )}
      </div>
      {problem && (
        <p role="alert" className="bad">
          Not saved: {problem}
        </p>
      )}
    </section>
  );
}
