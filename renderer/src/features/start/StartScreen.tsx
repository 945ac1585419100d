import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { existingName as existingAnnotator } from '../../../../core/common/names/personNames';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import { useApi } from '../../shared/api';

/** three label names for the spoken examples (the first again when the schema has fewer) */
function exampleLabels(names: string[]): { first: string; second: string; third: string } {
  const at = (n: number) => names[n] ?? names[0] ?? '…';
  return { first: at(0), second: at(1), third: at(2) };
}

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
  const intl = useIntl();
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
        <FormattedMessage
          id="start.summary"
          values={{
            count: project.items.length,
            labels: intl.formatList(
              project.schema.labels.map((l) => l.name),
              { type: 'unit' },
            ),
          }}
        />
        {onChooseProject && (
          <>
            {' · '}
            <button className="link" onClick={onChooseProject}>
              <FormattedMessage id="start.otherProject" />
            </button>
          </>
        )}
      </p>
      {annotators.length > 0 && (
        <div className="annotators" role="group" aria-label={intl.formatMessage({ id: 'start.existingAnnotators' })}>
          <span className="muted">
            <FormattedMessage id="start.continueAsLead" />
          </span>
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
        <label htmlFor="annotator">
          <FormattedMessage id="start.name" />
        </label>
        <input
          id="annotator"
          autoFocus
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder={intl.formatMessage({ id: 'start.name.placeholder' })}
          maxLength={200}
          aria-describedby="annotator-hint"
        />
        <span id="annotator-hint" className="muted small">
          {existing && existing !== trimmed
            ? intl.formatMessage({ id: 'start.hint.sameAnnotator' }, { name: existing })
            : existing
              ? intl.formatMessage({ id: 'start.hint.continues' })
              : trimmed
                ? intl.formatMessage({ id: 'start.hint.new' })
                : '\u00a0'}
        </span>
        <button type="submit" disabled={!trimmed}>
          {existing ? intl.formatMessage({ id: 'start.continueAs' }, { name: existing }) : intl.formatMessage({ id: 'start.begin' })}
        </button>
      </form>
      {onReview && trimmed && annotators.some((a) => a !== existing) && (
        <div className="annotators review-as" role="group" aria-label={intl.formatMessage({ id: 'start.reviewGroup' })}>
          <span className="muted">
            <FormattedMessage id="start.reviewAs" values={{ name: trimmed }} />
          </span>
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
        <h2>
          <FormattedMessage id="start.howto" />
        </h2>
        <ol>
          <li>
            <FormattedMessage
              id="start.howto.record"
              values={{ kbd: (k) => <kbd>{k}</kbd>, space: intl.formatMessage({ id: 'shared.key.space' }) }}
            />
          </li>
          <li>
            {/* the example phrases are in the language the project listens to, not the interface's */}
            {project.thinkaloud.languages.includes('en') || !project.thinkaloud.languages.includes('de') ? (
              <FormattedMessage id="start.howto.say" values={{ q: (k) => <q>{k}</q> }} />
            ) : (
              <FormattedMessage
                id="start.howto.say.german"
                values={{ q: (k) => <q>{k}</q>, ...exampleLabels(project.schema.labels.map((l) => l.name.toLowerCase())) }}
              />
            )}
          </li>
          <li>
            <FormattedMessage
              id={project.thinkaloud.require_spoken_label ? 'start.howto.keys.spoken' : 'start.howto.keys'}
              values={{
                keys: intl.formatList(
                  project.schema.labels.filter((l) => l.key).map((l) => `${l.key} ${l.name}`),
                  { type: 'unit' },
                ),
                kbd: (k) => <kbd>{k}</kbd>,
              }}
            />
          </li>
        </ol>
        <p className="privacy">
          <FormattedMessage id="start.privacy" />
        </p>
      </div>
    </section>
  );
}
