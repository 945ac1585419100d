import { useState } from 'react';
import type { ProjectView } from '../../../core/common/contract/aloudApi';

export function StartScreen({ project, lastAnnotator, onStart }: { project: ProjectView; lastAnnotator: string; onStart: (annotator: string) => void }) {
  const [name, setName] = useState(lastAnnotator);
  const trimmed = name.trim();
  return (
    <section className="start">
      <h1>{project.name}</h1>
      <p className="lead">
        {project.items.length} items · labels {project.schema.labels.map((l) => l.name).join(', ')}
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (trimmed) onStart(trimmed);
        }}
      >
        <label htmlFor="annotator">Your annotator name</label>
        <input id="annotator" autoFocus value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. ana" maxLength={200} />
        <button type="submit" disabled={!trimmed}>
          Start labelling
        </button>
      </form>
      <div className="howto">
        <h2>How it works</h2>
        <ol>
          <li>Read the reply and press <kbd>Space</kbd> to record. Think aloud: hesitations and second thoughts are welcome.</li>
          <li>
            Commit a label by saying it: <q>I label this polite</q>, <q>My answer is impolite</q>, <q>Final answer: neutral</q>. The last one counts.
          </li>
          <li>
            Or press a label key ({project.schema.labels.filter((l) => l.key).map((l) => `${l.key} ${l.name}`).join(', ')}). <kbd>Enter</kbd> completes the
            item and moves on{project.thinkaloud.require_spoken_label ? ' (this project needs a spoken label for that)' : ''}; <kbd>←</kbd> <kbd>→</kbd> move between
            items.
          </li>
        </ol>
        <p className="privacy">Audio and transcripts stay on this computer.</p>
      </div>
    </section>
  );
}
