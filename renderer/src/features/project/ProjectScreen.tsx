import { useEffect, useState } from 'react';
import type { ImportOutcome, PathKind, ProjectView } from '../../../../core/common/project/projectApi';
import { reportRefusalsTo } from '../../shared/runCall';
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
      Choose…
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
  return (
    <div role="alert" className="import-problems">
      <p>
        <strong>Nothing was imported</strong>: the file has {outcome.problems.length} problem(s). Fix them and import again.
      </p>
      <table>
        <thead>
          <tr>
            <th>File</th>
            <th>Line</th>
            <th>Field</th>
            <th>Problem</th>
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
              <td>{p.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ProjectScreen({ project, onOpened, onImported, nativeDialogs = false }: Props) {
  const client = useApi();
  const [recent, setRecent] = useState<Array<{ dir: string; name: string | null; problem: string | null }>>([]);
  const [openDir, setOpenDir] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [create, setCreate] = useState({ dir: '', name: '', labels: 'Polite 1\nImpolite 2\nNeutral 3', items: '' });
  const [createOutcome, setCreateOutcome] = useState<ImportOutcome | null>(null);
  const [importFile, setImportFile] = useState('');
  const [importMode, setImportMode] = useState<'append' | 'replace'>('append');
  const [importOutcome, setImportOutcome] = useState<ImportOutcome | null>(null);

  useEffect(() => {
    client.recentProjects().then(setRecent, () => setRecent([]));
  }, [client, project.dir]);

  // a refusal is said on this screen, beside what was asked
  const run = reportRefusalsTo(setProblem);
  const open = async (dir: string) => {
    setProblem(null);
    const opened = await run(() => client.openProject(dir));
    if (opened) onOpened(opened);
  };

  return (
    <div className="settings-screen">
      <section className="panel" aria-labelledby="open-title">
        <h2 id="open-title">Projects</h2>
        <p>
          Open now: <strong>{project.name}</strong> {project.dir && <code className="small">{project.dir}</code>} · {project.items.length}{' '}
          items
        </p>
        {recent.length > 0 && (
          <ul className="recent" aria-label="recent projects">
            {recent.map((r) => (
              <li key={r.dir}>
                {r.dir === project.dir ? (
                  <span className="recent-current">
                    <strong>{r.name}</strong> (open now)
                  </span>
                ) : (
                  <button onClick={() => void open(r.dir)} disabled={r.problem !== null} title={r.problem ?? `open ${r.dir}`}>
                    {r.name ?? '(cannot open)'}
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
          label="Open a project folder"
          value={openDir}
          onChange={setOpenDir}
          placeholder="/full/path/to/project"
          submitLabel="Open"
          onSubmit={(dir) => void open(dir)}
        >
          {nativeDialogs && <ChooseButton kind="project-folder" label="choose a project folder" onPicked={(dir) => void open(dir)} />}
        </PathForm>
        {problem && (
          <p role="alert" className="bad">
            {problem}
          </p>
        )}
      </section>

      <section className="panel" aria-labelledby="import-title">
        <h2 id="import-title">Import items into this project</h2>
        <p className="muted small">
          JSON Lines, JSON or CSV with id and text (and optional context). All or nothing: a file with any problem changes nothing.
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
                  problems: [{ file: importFile, line: null, field: null, message: err.message }],
                }),
            );
          }}
        >
          <label htmlFor="import-file">Items file</label>
          <input
            id="import-file"
            value={importFile}
            onChange={(e) => setImportFile(e.target.value)}
            placeholder="/full/path/to/items.jsonl"
          />
          {nativeDialogs && <ChooseButton kind="items-file" label="choose an items file" onPicked={setImportFile} />}
          <select aria-label="import mode" value={importMode} onChange={(e) => setImportMode(e.target.value as 'append' | 'replace')}>
            <option value="append">add to the items</option>
            <option value="replace">replace the items</option>
          </select>
          <button type="submit" disabled={!importFile.trim()}>
            Import
          </button>
        </form>
        {importOutcome &&
          (importOutcome.ok ? (
            <p role="status" className="good">
              Imported: {importOutcome.added} new, {importOutcome.unchanged} unchanged, {importOutcome.total} items in all.
            </p>
          ) : (
            <Problems outcome={importOutcome} />
          ))}
      </section>

      <CollectPanel nativeDialogs={nativeDialogs} onCollected={() => void client.project().then(onImported, () => undefined)} />

      <section className="panel" aria-labelledby="create-title">
        <h2 id="create-title">Create a project</h2>
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
          <label htmlFor="create-dir">New (or empty) folder</label>
          <input
            id="create-dir"
            value={create.dir}
            onChange={(e) => setCreate({ ...create, dir: e.target.value })}
            placeholder="/full/path/to/new-project"
          />
          {nativeDialogs && (
            <ChooseButton
              kind="new-project-folder"
              label="choose a folder for the new project"
              onPicked={(dir) => setCreate((c) => ({ ...c, dir }))}
            />
          )}
          <label htmlFor="create-name">Name</label>
          <input id="create-name" value={create.name} onChange={(e) => setCreate({ ...create, name: e.target.value })} />
          <label htmlFor="create-labels">Labels, one per line, each with its key</label>
          <textarea id="create-labels" rows={4} value={create.labels} onChange={(e) => setCreate({ ...create, labels: e.target.value })} />
          <label htmlFor="create-items">Items file (optional)</label>
          <input
            id="create-items"
            value={create.items}
            onChange={(e) => setCreate({ ...create, items: e.target.value })}
            placeholder="/full/path/to/items.jsonl"
          />
          <button type="submit" className="primary" disabled={!create.dir.trim() || !create.name.trim()}>
            Create and open
          </button>
        </form>
        {createOutcome && !createOutcome.ok && <Problems outcome={createOutcome} />}
      </section>
    </div>
  );
}
