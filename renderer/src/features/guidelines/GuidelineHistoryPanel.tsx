import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import type { GuidelineHistory } from '../../../../core/common/guidelines/guidelineHistory';
import { useApi } from '../../shared/api';
import { reportRefusalsTo } from '../../shared/runCall';

/**
 * The lead's guideline history (Agreement tab): each version the logs recorded, oldest first, with when and by whom it
 * was first used, how many acts were given under it, what changed from the version before (label, part, old → new),
 * and the adjudication guideline flags against it. `aloud guidelines export` writes the same as JSON.
 */
export function GuidelineHistoryPanel({ reloads }: { reloads: number }) {
  const intl = useIntl();
  const client = useApi();
  const [history, setHistory] = useState<GuidelineHistory | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void reportRefusalsTo(setError, intl)(() => client.guidelineHistory()).then((h) => h && setHistory(h));
  }, [client, reloads]);
  const date = (iso: string) => intl.formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
  const title = intl.formatMessage({ id: 'guidelines.history.title' });
  return (
    <section className="guideline-history" aria-label={title}>
      <h3>{title}</h3>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {history && history.versions.length === 0 && <p className="muted">{intl.formatMessage({ id: 'guidelines.history.empty' })}</p>}
      {history && history.versions.length > 0 && (
        <ol>
          {history.versions.map((v) => (
            <li key={`${v.scope}:${v.version}`}>
              <strong>
                {intl.formatMessage(
                  { id: 'guidelines.history.version' },
                  {
                    scope: intl.formatMessage({
                      id: v.scope === 'labels' ? 'guidelines.history.scope.labels' : 'guidelines.history.scope.codes',
                    }),
                    version: v.version,
                  },
                )}
              </strong>{' '}
              {v.current && <span className="badge">{intl.formatMessage({ id: 'guidelines.history.inForce' })}</span>}{' '}
              <span className="muted">
                {v.first_used === null
                  ? intl.formatMessage({ id: 'guidelines.history.notUsed' })
                  : intl.formatMessage(
                      { id: 'guidelines.history.firstUsed' },
                      { date: date(v.first_used), annotators: v.annotators.join(', ') },
                    )}
                {' · '}
                {intl.formatMessage({ id: 'guidelines.history.acts' }, { count: v.acts })}
              </span>
              {(v.changes.length > 0 || v.flags.length > 0) && (
                <ul>
                  {v.changes.map((c, n) => (
                    <li key={`c${n}`}>
                      {c.part === 'added'
                        ? intl.formatMessage({ id: 'guidelines.history.added' }, { name: c.name })
                        : c.part === 'removed'
                          ? intl.formatMessage({ id: 'guidelines.history.removed' }, { name: c.name })
                          : intl.formatMessage(
                              { id: 'guidelines.history.change' },
                              {
                                name: c.name,
                                part: intl.formatMessage({ id: `guidelines.history.part.${c.part}` }),
                                language: c.language,
                                from: c.from ?? '—',
                                to: c.to ?? '—',
                              },
                            )}
                    </li>
                  ))}
                  {v.flags.map((f) => (
                    <li key={`f${f.item_id}`} className="guideline-flag">
                      {intl.formatMessage(
                        { id: 'guidelines.history.flag' },
                        { item: f.item_id, label: f.label, adjudicator: f.adjudicator, text: f.text },
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
