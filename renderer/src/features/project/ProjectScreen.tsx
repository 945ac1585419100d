import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ImportOutcome, PathKind, ProjectView } from '../../../../core/common/project/projectApi';
import { reportRefusalsTo } from '../../shared/runCall';
import { refusalText, saidText } from '../../shared/refusalText';
import { PathForm } from '../../shared/PathForm';
import { CollectPanel } from './CollectPanel';
import { useApi } from '../../shared/api';

interface Props {
  project: ProjectView;
  /** the project changed (another one opened or created: the session is closed) */
  onOpened: (project: ProjectView) => void;
  /** items imported into the open project */
  onImported: (project: ProjectView) => void;
  /** the desktop app: paths come from the native dialog (a typed path works too) */
  nativeDialogs?: boolean;
}

/** "Choose…": the desktop app's native dialog fills the field it stands beside. */
function ChooseButton({ kind, label, onPicked }: { kind: PathKind; label: string; onPicked: (path: string) => void }) {
  const client = useApi();
  return (
    <button
      type="button"
      aria-label={label}
      onClick={() =>
        void client.choosePath(kind).then(
          (picked) => picked && onPicked(picked),
          () => undefined,
        )
      }
    >
      <FormattedMessage id="project.choose" />
    </button>
  );
}

/** "Polite 1" per line → labels with their keys. */
export function parseLabelLines(text: string): Array<{ name: string; key: string | null }> {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const m = /^(.*\S)\s+(\S)$/u.exec(line);
      return m ? { name: m[1]!, key: m[2]! } : { name: line, key: null };
    });
}

function Problems({ outcome }: { outcome: ImportOutcome }) {
  const intl = useIntl();
  return (
    <div role="alert" className="import-problems">
      <p>
        <FormattedMessage
          id="project.problems.summary"
          values={{ count: outcome.problems.length, strong: (chunks) => <strong>{chunks}</strong> }}
        />
      </p>
      <table>
        <thead>
          <tr>
            <th>
              <FormattedMessage id="project.problems.file" />
            </th>
            <th>
              <FormattedMessage id="project.problems.line" />
            </th>
            <th>
              <FormattedMessage id="project.problems.field" />
            </th>
            <th>
              <FormattedMessage id="project.problems.problem" />
            </th>
          </tr>
        </thead>
        <tbody>
          {outcome.problems.slice(0, 50).map((p, n) => (
            <tr key={n}>
              <td>
                <code>{p.file.split('/').at(-1)}</code>
              </td>
              <td>{p.line ?? '—'}</td>
              <td>{p.field ? <code>{p.field}</code> : '—'}</td>
              <td>{saidText(intl, p.said, p.message)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ProjectScreen({ project, onOpened, onImported, nativeDialogs = false }: Props) {
  const client = useApi();
  const intl = useIntl();
  const [recent, setRecent] = useState<Array<{ dir: string; name: string | null; problem: string | null }>>([]);
  const [openDir, setOpenDir] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // the example labels are in the interface's language: they become the new project's labels unless changed
  const [create, setCreate] = useState(() => ({
    dir: '',
    name: '',
    labels: intl.formatMessage({ id: 'project.create.labelsExample' }),
    items: '',
  }));
  const [createOutcome, setCreateOutcome] = useState<ImportOutcome | null>(null);
  const [importFile, setImportFile] = useState('');
  const [importMode, setImportMode] = useState<'append' | 'replace'>('append');
  const [importOutcome, setImportOutcome] = useState<ImportOutcome | null>(null);

  useEffect(() => {
    client.recentProjects().then(setRecent, () => setRecent([]));
  }, [client, project.dir]);

  // a refusal is said on this screen, beside what was asked
  const run = reportRefusalsTo(setProblem, intl);
  const open = async (dir: string) => {
    setProblem(null);
    const opened = await run(() => client.openProject(dir));
    if (opened) onOpened(opened);
  };

  return (
    <div className="settings-screen">
      <section className="panel" aria-labelledby="open-title">
        <h2 id="open-title">
          <FormattedMessage id="project.projects" />
        </h2>
        <p>
          <FormattedMessage
            id="project.openNow"
            values={{
              name: project.name,
              dir: project.dir ? <code className="small">{project.dir}</code> : '',
              count: project.items.length,
              strong: (chunks) => <strong>{chunks}</strong>,
            }}
          />
        </p>
        {recent.length > 0 && (
          <ul className="recent" aria-label={intl.formatMessage({ id: 'project.recent' })}>
            {recent.map((r) => (
              <li key={r.dir}>
                {r.dir === project.dir ? (
                  <span className="recent-current">
                    <FormattedMessage
                      id="project.recent.current"
                      values={{ name: r.name ?? '', strong: (chunks) => <strong>{chunks}</strong> }}
                    />
                  </span>
                ) : (
                  <button
                    onClick={() => void open(r.dir)}
                    disabled={r.problem !== null}
                    title={r.problem ?? intl.formatMessage({ id: 'project.recent.open' }, { dir: r.dir })}
                  >
                    {r.name ?? intl.formatMessage({ id: 'project.recent.cannotOpen' })}
                  </button>
                )}{' '}
                <code className="small">{r.dir}</code>
                {r.problem && <span className="bad small"> {r.problem}</span>}
              </li>
            ))}
          </ul>
        )}
        <PathForm
          id="open-dir"
          label={intl.formatMessage({ id: 'project.open.label' })}
          value={openDir}
          onChange={setOpenDir}
          placeholder={intl.formatMessage({ id: 'project.open.placeholder' })}
          submitLabel={intl.formatMessage({ id: 'project.open.submit' })}
          onSubmit={(dir) => void open(dir)}
        >
          {nativeDialogs && (
            <ChooseButton
              kind="project-folder"
              label={intl.formatMessage({ id: 'project.open.choose' })}
              onPicked={(dir) => void open(dir)}
            />
          )}
        </PathForm>
        {problem && (
          <p role="alert" className="bad">
            {problem}
          </p>
        )}
      </section>

      <section className="panel" aria-labelledby="import-title">
        <h2 id="import-title">
          <FormattedMessage id="project.import.title" />
        </h2>
        <p className="muted small">
          <FormattedMessage id="project.import.about" />
        </p>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            setImportOutcome(null);
            void client.importItems(importFile.trim(), importMode).then(
              (change) => {
                setImportOutcome(change.items);
                if (change.items?.ok) onImported(change.project);
              },
              (err: Error) =>
                setImportOutcome({
                  ok: false,
                  added: 0,
                  unchanged: 0,
                  changed: 0,
                  removed: 0,
                  total: 0,
                  problems: [{ file: importFile, line: null, field: null, message: refusalText(intl, err) }],
                }),
            );
          }}
        >
          <label htmlFor="import-file">
            <FormattedMessage id="project.import.file" />
          </label>
          <input
            id="import-file"
            value={importFile}
            onChange={(e) => setImportFile(e.target.value)}
            placeholder={intl.formatMessage({ id: 'project.import.placeholder' })}
          />
          {nativeDialogs && (
            <ChooseButton kind="items-file" label={intl.formatMessage({ id: 'project.import.choose' })} onPicked={setImportFile} />
          )}
          <select
            aria-label={intl.formatMessage({ id: 'project.import.mode' })}
            value={importMode}
            onChange={(e) => setImportMode(e.target.value as 'append' | 'replace')}
          >
            <option value="append">{intl.formatMessage({ id: 'project.import.append' })}</option>
            <option value="replace">{intl.formatMessage({ id: 'project.import.replace' })}</option>
          </select>
          <button type="submit" disabled={!importFile.trim()}>
            <FormattedMessage id="project.import.submit" />
          </button>
        </form>
        {importOutcome &&
          (importOutcome.ok ? (
            <p role="status" className="good">
              <FormattedMessage
                id="project.import.done"
                values={{ added: importOutcome.added, unchanged: importOutcome.unchanged, total: importOutcome.total }}
              />
            </p>
          ) : (
            <Problems outcome={importOutcome} />
          ))}
      </section>

      <CollectPanel nativeDialogs={nativeDialogs} onCollected={() => void client.project().then(onImported, () => undefined)} />

      <section className="panel" aria-labelledby="create-title">
        <h2 id="create-title">
          <FormattedMessage id="project.create.title" />
        </h2>
        <form
          className="create-form"
          onSubmit={(e) => {
            e.preventDefault();
            setProblem(null);
            setCreateOutcome(null);
            void run(() =>
              client.createProject({
                dir: create.dir.trim(),
                name: create.name.trim(),
                labels: parseLabelLines(create.labels),
                items_file: create.items.trim() || null,
              }),
            ).then((change) => {
              if (!change) return;
              setCreateOutcome(change.items);
              onOpened(change.project);
            });
          }}
        >
          <label htmlFor="create-dir">
            <FormattedMessage id="project.create.dir" />
          </label>
          <input
            id="create-dir"
            value={create.dir}
            onChange={(e) => setCreate({ ...create, dir: e.target.value })}
            placeholder={intl.formatMessage({ id: 'project.create.dirPlaceholder' })}
          />
          {nativeDialogs && (
            <ChooseButton
              kind="new-project-folder"
              label={intl.formatMessage({ id: 'project.create.choose' })}
              onPicked={(dir) => setCreate((c) => ({ ...c, dir }))}
            />
          )}
          <label htmlFor="create-name">
            <FormattedMessage id="project.create.name" />
          </label>
          <input id="create-name" value={create.name} onChange={(e) => setCreate({ ...create, name: e.target.value })} />
          <label htmlFor="create-labels">
            <FormattedMessage id="project.create.labels" />
          </label>
          <textarea id="create-labels" rows={4} value={create.labels} onChange={(e) => setCreate({ ...create, labels: e.target.value })} />
          <label htmlFor="create-items">
            <FormattedMessage id="project.create.items" />
          </label>
          <input
            id="create-items"
            value={create.items}
            onChange={(e) => setCreate({ ...create, items: e.target.value })}
            placeholder={intl.formatMessage({ id: 'project.import.placeholder' })}
          />
          <button type="submit" className="primary" disabled={!create.dir.trim() || !create.name.trim()}>
            <FormattedMessage id="project.create.submit" />
          </button>
        </form>
        {createOutcome && !createOutcome.ok && <Problems outcome={createOutcome} />}
      </section>
    </div>
  );
}
