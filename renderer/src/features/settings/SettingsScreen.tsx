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
import { saidText } from '../../shared/refusalText';
import { PathForm } from '../../shared/PathForm';
import { useApi } from '../../shared/api';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { AppMessageId } from '../../shared/i18n/catalogs';
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

/** A size in MiB in the interface's number format ("4,5 MiB"). */
const mib = (intl: IntlShape, bytes: number | null): string =>
  bytes === null
    ? '?'
    : intl.formatMessage(
        { id: 'settings.models.mib' },
        { mib: intl.formatNumber(bytes / (1024 * 1024), { maximumFractionDigits: bytes < 10 * 1024 * 1024 ? 1 : 0 }) },
      );

/** What each threshold means, in the words the settings show beside it. */
const THRESHOLDS: ReadonlyArray<{
  key: 'silence_threshold_dbfs' | 'min_pause_ms' | 'long_pause_ms' | 'chunk_seconds';
  label: AppMessageId;
  unit: string;
  step: number;
  meaning: AppMessageId;
}> = [
  {
    key: 'silence_threshold_dbfs',
    label: 'settings.thresholds.silence',
    unit: 'dBFS',
    step: 1,
    meaning: 'settings.thresholds.silence.meaning',
  },
  { key: 'min_pause_ms', label: 'settings.thresholds.minPause', unit: 'ms', step: 10, meaning: 'settings.thresholds.minPause.meaning' },
  { key: 'long_pause_ms', label: 'settings.thresholds.longPause', unit: 'ms', step: 50, meaning: 'settings.thresholds.longPause.meaning' },
  { key: 'chunk_seconds', label: 'settings.thresholds.chunk', unit: 's', step: 0.5, meaning: 'settings.thresholds.chunk.meaning' },
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
  const intl = useIntl();
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
        <h2 id="cue-title">
          <FormattedMessage id="settings.cue" />
        </h2>
        <p className="muted">
          <FormattedMessage id="settings.cue.about" />
        </p>
        <label className="inline">
          <input type="checkbox" checked={keepTalkingSeconds !== null} onChange={(e) => onKeepTalking(e.target.checked ? 10 : null)} />{' '}
          <FormattedMessage id="settings.cue.show" />
        </label>
        {keepTalkingSeconds !== null && (
          <label className="inline">
            <FormattedMessage
              id="settings.cue.after"
              values={{
                field: (
                  <input
                    type="number"
                    aria-label={intl.formatMessage({ id: 'settings.cue.seconds' })}
                    min={2}
                    max={120}
                    value={keepTalkingSeconds}
                    onChange={(e) => onKeepTalking(Math.min(120, Math.max(2, Number(e.target.value) || 10)))}
                  />
                ),
              }}
            />
          </label>
        )}
      </section>
    </div>
  );
}

function ModelsPanel({ project, run, untranscribed }: { project: ProjectView; run: RunCall; untranscribed?: Props['untranscribed'] }) {
  const client = useApi();
  const intl = useIntl();
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
      <h2 id="models-title">
        <FormattedMessage id="settings.models" />
      </h2>
      <p className="muted">
        <FormattedMessage
          id="settings.models.about"
          values={{ model: <strong>{project.thinkaloud.model}</strong>, dir: <code>{view?.dir ?? '…'}</code> }}
        />
      </p>
      {view && (
        <table className="models-table">
          <thead>
            <tr>
              <th>
                <FormattedMessage id="settings.models.model" />
              </th>
              <th>
                <FormattedMessage id="settings.models.size" />
              </th>
              <th>
                <FormattedMessage id="settings.models.state" />
              </th>
              <th>
                <span className="visually-hidden">
                  <FormattedMessage id="settings.models.actions" />
                </span>
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
                    {m.name === view.project_model && (
                      <span className="tag">
                        <FormattedMessage id="settings.models.projectModel" />
                      </span>
                    )}
                    {m.kind === 'vad' && (
                      <span className="tag">
                        <FormattedMessage id="settings.models.vad" />
                      </span>
                    )}
                    <div className="muted small">
                      {intl.formatMessage({ id: m.english_only ? 'settings.models.englishOnly' : 'settings.models.multilingual' })}
                    </div>
                  </td>
                  <td>
                    {m.bytes !== null
                      ? mib(intl, m.bytes)
                      : intl.formatMessage({ id: 'settings.models.about.size' }, { mib: m.approx_mib })}
                  </td>
                  <td>
                    {running ? (
                      <div className="download">
                        <progress
                          aria-label={intl.formatMessage({ id: 'settings.models.downloading' }, { name: m.name })}
                          max={100}
                          value={d?.percent ?? undefined}
                        />
                        <span className="small">
                          {d
                            ? d.total_bytes
                              ? intl.formatMessage(
                                  { id: 'settings.models.received.of' },
                                  { received: mib(intl, d.received_bytes), total: mib(intl, d.total_bytes) },
                                )
                              : mib(intl, d.received_bytes)
                            : intl.formatMessage({ id: 'settings.models.starting' })}
                        </span>
                      </div>
                    ) : m.installed ? (
                      m.problem ? (
                        <span className="bad">
                          <FormattedMessage id="settings.models.unusable" values={{ problem: saidText(intl, m.problem_said, m.problem) }} />
                        </span>
                      ) : m.verified ? (
                        <span className="good">
                          <FormattedMessage id="settings.models.verified" />
                        </span>
                      ) : (
                        <span>
                          <FormattedMessage id="settings.models.installed" />
                        </span>
                      )
                    ) : (
                      <span className="muted">
                        <FormattedMessage id="settings.models.notInstalled" />
                      </span>
                    )}
                    {d && d.state !== 'running' && d.message && (
                      <div className={d.state === 'failed' ? 'bad small' : 'muted small'}>{saidText(intl, d.message_said, d.message)}</div>
                    )}
                  </td>
                  <td className="actions">
                    {running ? (
                      <button onClick={() => void act(() => client.cancelModelDownload(m.name))}>
                        <FormattedMessage id="common.cancel" />
                      </button>
                    ) : !m.installed && m.in_manifest ? (
                      <button className="primary" onClick={() => void act(() => client.downloadModel(m.name))}>
                        {intl.formatMessage({
                          id: d?.state === 'cancelled' || d?.state === 'failed' ? 'settings.models.resume' : 'settings.models.download',
                        })}
                      </button>
                    ) : m.installed ? (
                      <button
                        onClick={() => void act(() => client.removeModel(m.name))}
                        aria-label={intl.formatMessage({ id: 'settings.models.remove.name' }, { name: m.name })}
                      >
                        <FormattedMessage id="settings.models.remove" />
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
          <span>
            <FormattedMessage id="settings.models.untranscribed" values={{ count: untranscribed.count }} />
          </span>
          <button
            className="primary"
            disabled={transcribing}
            onClick={() => {
              setTranscribing(true);
              void untranscribed.transcribe().finally(() => setTranscribing(false));
            }}
          >
            {intl.formatMessage({ id: transcribing ? 'settings.models.transcribing' : 'settings.models.transcribe' })}
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
          {intl.formatMessage({ id: verifying ? 'settings.models.verifying' : 'settings.models.verify' })}
        </button>
      </div>
      <PathForm
        id="import-model"
        label={intl.formatMessage({ id: 'settings.models.import' })}
        value={importPath}
        onChange={setImportPath}
        placeholder={intl.formatMessage({ id: 'settings.models.import.placeholder' })}
        submitLabel={intl.formatMessage({ id: 'settings.models.import.submit' })}
        onSubmit={(file) => void act(() => client.importModel(file)).then(() => setImportPath(''))}
      />
    </section>
  );
}

function MicrophonePanel({ deviceId, onDevice }: { deviceId: string | null; onDevice: (id: string | null) => void }) {
  const intl = useIntl();
  const [devices, setDevices] = useState<InputDevice[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [level, setLevel] = useState<number | null>(null);
  const testRef = useRef<CaptureSession | null>(null);

  useEffect(() => {
    listInputDevices({ unlockLabels: true }).then(setDevices, (e: unknown) => setProblem(describeCaptureError(e, intl)));
    return () => void testRef.current?.stop();
    // the devices are listed once; a problem is told in the language of that moment
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
      setProblem(describeCaptureError(e, intl));
    }
  };
  return (
    <section className="panel" aria-labelledby="mic-title">
      <h2 id="mic-title">
        <FormattedMessage id="settings.mic" />
      </h2>
      <div className="row">
        <label htmlFor="mic">
          <FormattedMessage id="settings.mic.from" />
        </label>
        <select id="mic" value={deviceId ?? ''} onChange={(e) => onDevice(e.target.value || null)}>
          <option value="">{intl.formatMessage({ id: 'settings.mic.default' })}</option>
          {devices
            .filter((d) => !d.isDefault)
            .map((d, n) => (
              <option key={d.deviceId} value={d.deviceId}>
                {d.label || intl.formatMessage({ id: 'settings.mic.numbered' }, { n: n + 1 })}
              </option>
            ))}
        </select>
        <button onClick={() => void toggleTest()}>
          {intl.formatMessage({ id: level === null ? 'settings.mic.test' : 'settings.mic.stop' })}
        </button>
        <LevelMeter label={intl.formatMessage({ id: 'settings.mic.level' })} db={level} />
        {level !== null && (
          <span className="small muted">
            {level <= METER_FLOOR_DB
              ? intl.formatMessage({ id: 'settings.mic.silence' })
              : intl.formatMessage({ id: 'settings.mic.dbfs' }, { db: Math.round(level) })}
          </span>
        )}
      </div>
      {problem && <p className="bad">{problem}</p>}
      <p className="muted small">
        <FormattedMessage id="settings.mic.about" />
      </p>
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
  const intl = useIntl();
  const current = project.thinkaloud;
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [undo, setUndo] = useState<ThinkAloudSettings | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<AppMessageId | null>(null);
  const changed = THRESHOLDS.filter((t) => draft[t.key] !== undefined && Number(draft[t.key]) !== current[t.key]);

  const apply = async (patch: Partial<ThinkAloudSettings>, isUndo: boolean) => {
    setProblem(null);
    // a refused change is said beside the thresholds, not in the banner
    const change = await reportRefusalsTo(setProblem, intl)(() => client.updateThinkAloud(patch));
    if (!change) return;
    onProject(change.project);
    setDraft({});
    setUndo(isUndo ? null : change.previous);
    setSaved(isUndo ? 'settings.thresholds.undone' : 'settings.thresholds.saved');
    onError(null);
  };

  return (
    <section className="panel" aria-labelledby="thresholds-title">
      <h2 id="thresholds-title">
        <FormattedMessage id="settings.thresholds" />
      </h2>
      <p className="muted small">
        <FormattedMessage id="settings.thresholds.about" />
      </p>
      <div className="thresholds">
        {THRESHOLDS.map((t) => (
          <div key={t.key} className="threshold">
            <label htmlFor={`t-${t.key}`}>
              <FormattedMessage id="settings.thresholds.field" values={{ label: intl.formatMessage({ id: t.label }), unit: t.unit }} />
            </label>
            <input
              id={`t-${t.key}`}
              type="number"
              step={t.step}
              value={draft[t.key] ?? String(current[t.key])}
              onChange={(e) => setDraft({ ...draft, [t.key]: e.target.value })}
            />
            <p className="muted small">
              <FormattedMessage id={t.meaning} />
            </p>
          </div>
        ))}
      </div>
      <label className="inline">
        <input
          type="checkbox"
          checked={current.require_spoken_label}
          onChange={(e) => void apply({ require_spoken_label: e.target.checked }, false)}
        />{' '}
        <FormattedMessage id="settings.thresholds.spoken" />
      </label>
      <div className="row">
        <button
          className="primary"
          disabled={changed.length === 0}
          onClick={() => void apply(Object.fromEntries(changed.map((t) => [t.key, Number(draft[t.key])])), false)}
        >
          <FormattedMessage id="settings.thresholds.save" values={{ count: changed.length }} />
        </button>
        {undo && (
          <button onClick={() => void apply(undo, true)}>
            <FormattedMessage id="settings.thresholds.undo" />
          </button>
        )}
        {saved && !problem && (
          <span role="status" className="good small">
            <FormattedMessage id={saved} />
          </span>
        )}
      </div>
      {problem && (
        <p role="alert" className="bad">
          <FormattedMessage id="settings.thresholds.notSaved" values={{ problem }} />
        </p>
      )}
    </section>
  );
}
