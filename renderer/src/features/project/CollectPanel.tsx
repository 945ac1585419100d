import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
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

/** What a collected pack did, in the interface's language. */
const says = (intl: IntlShape, r: CollectSummary): string =>
  intl.formatMessage(
    {
      id:
        r.status === 'added' ? 'project.collect.added' : r.status === 'extended' ? 'project.collect.extended' : 'project.collect.upToDate',
    },
    { annotator: r.annotator, events: r.events, appended: r.appended, audio: r.audio_files },
  );

/**
 * Project → Collect…: an annotator's session pack (`aloud session pack` on their laptop) into this project. Every
 * check runs before anything is written; a refusal says what differs, and the project is as it was.
 */
export function CollectPanel({ nativeDialogs, onCollected }: Props) {
  const client = useApi();
  const intl = useIntl();
  const [file, setFile] = useState('');
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => client.onCollectProgress((event) => setProgress({ done: event.done, total: event.total })), [client]);

  // a refusal (what differs, a lock, a damaged pack) is said in this panel, beside the pack
  const run = reportRefusalsTo((message) => setOutcome({ ok: false, text: message }), intl);
  const collect = async (path: string) => {
    setBusy(true);
    setOutcome(null);
    setProgress(null);
    const result = await run(() => client.collectPack(path));
    setBusy(false);
    if (!result) return;
    setOutcome({ ok: true, text: says(intl, result) });
    onCollected();
  };

  return (
    <section className="panel" aria-labelledby="collect-title">
      <h2 id="collect-title">
        <FormattedMessage id="project.collect.title" />
      </h2>
      <p className="muted small">
        <FormattedMessage id="project.collect.about" values={{ code: (chunks) => <code>{chunks}</code> }} />
      </p>
      <PathForm
        id="collect-file"
        label={intl.formatMessage({ id: 'project.collect.pack' })}
        value={file}
        onChange={setFile}
        placeholder={intl.formatMessage({ id: 'project.collect.packPlaceholder' })}
        submitLabel={intl.formatMessage({ id: 'project.collect.submit' })}
        onSubmit={(pack) => void collect(pack)}
        busy={busy}
      >
        {nativeDialogs && (
          <button
            type="button"
            aria-label={intl.formatMessage({ id: 'project.collect.choose' })}
            disabled={busy}
            onClick={() =>
              void client.choosePath('pack-file').then(
                (picked) => picked && (setFile(picked), void collect(picked)),
                () => undefined,
              )
            }
          >
            <FormattedMessage id="project.collect.chooseButton" />
          </button>
        )}
      </PathForm>
      {busy &&
        (progress ? (
          <progress
            aria-label={intl.formatMessage({ id: 'project.collect.progress' })}
            value={progress.done}
            max={Math.max(1, progress.total)}
          />
        ) : (
          <progress aria-label={intl.formatMessage({ id: 'project.collect.progress' })} />
        ))}
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? 'good' : 'bad'}>
          {outcome.text}
        </p>
      )}
    </section>
  );
}
