import { useEffect, useState } from 'react';
import type { CollectSummary } from '../../../../core/common/packs/packsApi';
import { reportRefusalsTo } from '../../shared/runCall';
import { PathForm } from '../../shared/PathForm';
import { useApi } from '../../shared/api';

interface Props {
  /** the desktop app: the native dialog picks the pack (a typed path works too) */
  nativeDialogs: boolean;
  /** a pack was collected: the project's annotators changed */
  onCollected: () => void;
}

const says = (r: CollectSummary): string =>
  r.status === 'added'
    ? `Added the session of ${r.annotator}: ${r.events} events, ${r.audio_files} audio files.`
    : r.status === 'extended'
      ? `Extended the session of ${r.annotator}: ${r.appended} new events (${r.events} in all), ${r.audio_files} audio files written.`
      : `The session of ${r.annotator} is already up to date (${r.events} events).`;

/**
 * Project → Collect…: an annotator's session pack (`aloud session pack` on their laptop) into this project. Every
 * check runs before anything is written; a refusal says what differs, and the project is as it was.
 */
export function CollectPanel({ nativeDialogs, onCollected }: Props) {
  const client = useApi();
  const [file, setFile] = useState('');
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => client.onCollectProgress((event) => setProgress({ done: event.done, total: event.total })), [client]);

  // a refusal (what differs, a lock, a damaged pack) is said in this panel, beside the pack
  const run = reportRefusalsTo((message) => setOutcome({ ok: false, text: message }));
  const collect = async (path: string) => {
    setBusy(true);
    setOutcome(null);
    setProgress(null);
    const result = await run(() => client.collectPack(path));
    setBusy(false);
    if (!result) return;
    setOutcome({ ok: true, text: says(result) });
    onCollected();
  };

  return (
    <section className="panel" aria-labelledby="collect-title">
      <h2 id="collect-title">Collect annotators' sessions</h2>
      <p className="muted small">
        A session pack (<code>aloud session pack</code> on the annotator's computer) adds their session here, or its new events when this
        project already holds an earlier pack. It is checked first (the same project and items, every file's checksum, a log that continues
        the one held); a pack that does not fit changes nothing.
      </p>
      <PathForm
        id="collect-file"
        label="Session pack"
        value={file}
        onChange={setFile}
        placeholder="/full/path/to/annotator.aloudpack"
        submitLabel="Collect"
        onSubmit={(pack) => void collect(pack)}
        busy={busy}
      >
        {nativeDialogs && (
          <button
            type="button"
            aria-label="choose a session pack"
            disabled={busy}
            onClick={() =>
              void client.choosePath('pack-file').then(
                (picked) => picked && (setFile(picked), void collect(picked)),
                () => undefined,
              )
            }
          >
            Collect…
          </button>
        )}
      </PathForm>
      {busy &&
        (progress ? (
          <progress aria-label="collect progress" value={progress.done} max={Math.max(1, progress.total)} />
        ) : (
          <progress aria-label="collect progress" />
        ))}
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? 'good' : 'bad'}>
          {outcome.text}
        </p>
      )}
    </section>
  );
}
