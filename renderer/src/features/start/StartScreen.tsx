import { useEffect, useState } from 'react';
import { existingName as existingAnnotator } from '../../../../core/common/names/personNames';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import { useApi } from '../../shared/api';

export function StartScreen({
  project,
  lastAnnotator,
  onStart,
  onReview,
  onChooseProject,
}: {
  project: ProjectView;
  lastAnnotator: string;
  onStart: (annotator: string) => void;
  /** opens an annotator's session for review under the typed name */
  onReview?: (annotator: string, reviewer: string) => void;
  onChooseProject?: () => void;
}) {
  const client = useApi();
  const [name, setName] = useState(lastAnnotator);
  const [annotators, setAnnotators] = useState<string[]>([]);
  useEffect(() => {
    client.annotators().then(setAnnotators, () => setAnnotators([]));
  }, [client]);
  const trimmed = name.trim();
  // "ana" and "Ana" are one annotator: continue the existing session under its spelling
  const existing = trimmed ? existingAnnotator(trimmed, annotators) : null;
  return (
    <section className="start">
      <h1>{project.name}</h1>
      <p className="lead">
        {project.items.length} items · labels {project.schema.labels.map((l) => l.name).join(', ')}
        {onChooseProject && (
          <>
            {' · '}
            <button className="link" onClick={onChooseProject}>
              Open or create another project…
            </button>
          </>
        )}
      </p>
      {annotators.length > 0 && (
        <div className="annotators" role="group" aria-label="existing annotators">
          <span className="muted">Continue as</span>
          {annotators.map((a) => (
            <button key={a} onClick={() => onStart(a)}>
              {a}
            </button>
          ))}
        </div>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (trimmed) onStart(existing ?? trimmed);
        }}
      >
        <label htmlFor="annotator">Your annotator name</label>
        <input
          id="annotator"
          autoFocus
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. ana"
          maxLength={200}
          aria-describedby="annotator-hint"
        />
        <span id="annotator-hint" className="muted small">
          {existing && existing !== trimmed
            ? `Continues the session of “${existing}” (names differing only in capitals or spaces are one annotator).`
            : existing
              ? `Continues your session.`
              : trimmed
                ? 'Starts a new session under this name.'
                : '\u00a0'}
        </span>
        <button type="submit" disabled={!trimmed}>
          {existing ? `Continue as ${existing}` : 'Start labelling'}
        </button>
      </form>
      {onReview && trimmed && annotators.some((a) => a !== existing) && (
        <div className="annotators review-as" role="group" aria-label="review a session">
          <span className="muted">Review, as {trimmed}, the session of</span>
          {annotators
            .filter((a) => a !== existing)
            .map((a) => (
              <button key={a} onClick={() => onReview(a, trimmed)}>
                {a}
              </button>
            ))}
        </div>
      )}
      <div className="howto">
        <h2>How it works</h2>
        <ol>
          <li>
            Read the reply and press <kbd>Space</kbd> to record. Think aloud: hesitations and second thoughts are welcome.
          </li>
          <li>
            Commit a label by saying it: <q>I label this polite</q>, <q>My answer is impolite</q>, <q>Final answer: neutral</q>. The last
            one counts.
          </li>
          <li>
            Or press a label key (
            {project.schema.labels
              .filter((l) => l.key)
              .map((l) => `${l.key} ${l.name}`)
              .join(', ')}
            ). <kbd>Enter</kbd> completes the item and moves on
            {project.thinkaloud.require_spoken_label ? ' (in this project, only once you have said a label aloud)' : ''}; <kbd>←</kbd>{' '}
            <kbd>→</kbd> move between items, <kbd>?</kbd> lists every shortcut.
          </li>
        </ol>
        <p className="privacy">Audio and transcripts stay on this computer.</p>
      </div>
    </section>
  );
}
