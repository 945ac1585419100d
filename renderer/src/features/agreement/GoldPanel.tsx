import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { GoldReport, GoldView } from '../../../../core/common/labelModels/goldReport';
import { reportRefusalsTo } from '../../shared/runCall';
import { useApi } from '../../shared/api';
import { figure, intervalText, levelText, modelFitWords } from './agreementFigures';

/** A value and its 95% interval on [0, 1]: whose competence is uncertain shows at a glance. */
function IntervalBar({ value, ci }: { value: number; ci: readonly [number, number] }) {
  const intl = useIntl();
  const x = (v: number) => 4 + Math.max(0, Math.min(1, v)) * 152;
  return (
    <svg width={160} height={14} role="img" aria-label={`${figure(intl, value)} ${intervalText(intl, ci)}`}>
      <rect x={4} y={6} width={152} height={2} fill="#ddd" />
      <rect x={x(ci[0])} y={3} width={Math.max(1, x(ci[1]) - x(ci[0]))} height={8} fill="#9bc" />
      <circle cx={x(value)} cy={7} r={3} fill="#124" />
    </svg>
  );
}

/** The least certain items first (lowest probability of their label), as many as `limit`. */
export function itemsByUncertainty(report: GoldReport, limit: number): GoldReport['items'] {
  return [...report.items].sort((a, b) => a.probability - b.probability || a.item_id.localeCompare(b.item_id)).slice(0, limit);
}

/**
 * Labels with error bars on the Agreement tab, as `aloud gold --project` computes them (model auto, 100 resamples):
 * annotators by competence with their intervals, the least certain items, the label pairs annotators confuse (with a
 * huddle on their items), and which model fits.
 */
export function GoldPanel({
  reloads,
  itemText,
  openHuddle,
}: {
  reloads: number;
  itemText: ReadonlyMap<string, string>;
  openHuddle: (itemIds: string[]) => void;
}) {
  const client = useApi();
  const intl = useIntl();
  const [view, setView] = useState<GoldView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void reportRefusalsTo(setError, intl)(() => client.goldLabels()).then((r) => r && setView(r));
  }, [client, reloads]);
  const title = intl.formatMessage({ id: 'agreement.gold.title' });
  if (error)
    return (
      <p className="muted">
        <FormattedMessage id="agreement.gold.failed" values={{ error }} />
      </p>
    );
  if (!view)
    return (
      <p className="muted">
        <FormattedMessage id="agreement.gold.computing" />
      </p>
    );
  if ('unavailable' in view)
    return (
      <section className="gold" aria-label={title}>
        <h3>{title}</h3>
        <p className="muted unavailable">
          <FormattedMessage id="agreement.gold.notYet" values={{ reason: view.unavailable }} />
        </p>
      </section>
    );
  const annotators = [...view.annotators].sort((a, b) => b.competence - a.competence);
  return (
    <section className="gold" aria-label={title}>
      <h3>{title}</h3>
      <p className="model-fit">{modelFitWords(intl, view.model_fit)}.</p>
      <p className="muted">
        <FormattedMessage
          id="agreement.gold.about"
          values={{
            model: view.model,
            scale: intl.formatMessage(
              { id: 'agreement.gold.scale' },
              { model: view.model.replace('dawid-skene', 'dawidSkene'), scale: view.competence_scale },
            ),
            level: levelText(intl, view.intervals.level),
            method: intl.formatMessage({ id: 'agreement.gold.method' }, { model: view.model }),
            resamples: view.intervals.resamples,
            seed: String(view.intervals.seed),
          }}
        />
      </p>
      <table className="gold-annotators">
        <thead>
          <tr>
            <th>
              <FormattedMessage id="agreement.gold.annotator" />
            </th>
            <th>
              <FormattedMessage id="agreement.gold.competence" />
            </th>
            <th>
              <FormattedMessage id="agreement.gold.intervalColumn" values={{ level: levelText(intl, view.intervals.level) }} />
            </th>
            <th />
            <th>
              <FormattedMessage id="agreement.gold.labels" />
            </th>
          </tr>
        </thead>
        <tbody>
          {annotators.map((a) => (
            <tr key={a.annotator} data-annotator={a.annotator}>
              <td>{a.annotator}</td>
              <td className="competence">{figure(intl, a.competence)}</td>
              <td>{intervalText(intl, a.ci95)}</td>
              <td>
                <IntervalBar value={a.competence} ci={a.ci95} />
              </td>
              <td>{a.annotations}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h4>
        <FormattedMessage id="agreement.gold.pairsTitle" values={{ count: view.confused_pairs.length }} />
      </h4>
      {view.confused_pairs.length === 0 ? (
        <p className="muted">
          <FormattedMessage id="agreement.gold.noPairs" />
        </p>
      ) : (
        <ul className="confused-pairs">
          {view.confused_pairs.map((p) => (
            <li key={p.labels.join('|')}>
              <FormattedMessage
                id="agreement.gold.pair"
                values={{
                  first: p.labels[0],
                  second: p.labels[1],
                  count: p.annotators.length,
                  of: p.of,
                  names: p.annotators.join(', '),
                  items: p.items.join(', '),
                  strong: (chunks) => <strong>{chunks}</strong>,
                }}
              />{' '}
              <button disabled={p.items.length === 0} onClick={() => openHuddle(p.items)}>
                <FormattedMessage id="agreement.gold.openHuddle" values={{ count: p.items.length }} />
              </button>
            </li>
          ))}
        </ul>
      )}

      <h4>
        <FormattedMessage id="agreement.gold.itemsTitle" />
      </h4>
      <table className="gold-items">
        <thead>
          <tr>
            <th>
              <FormattedMessage id="agreement.gold.item" />
            </th>
            <th>
              <FormattedMessage id="agreement.gold.label" />
            </th>
            <th>
              <FormattedMessage id="agreement.gold.probability" />
            </th>
            <th>
              <FormattedMessage id="agreement.gold.intervalColumn" values={{ level: levelText(intl, view.intervals.level) }} />
            </th>
            <th>
              <FormattedMessage id="agreement.gold.difficulty" />
            </th>
          </tr>
        </thead>
        <tbody>
          {itemsByUncertainty(view, 15).map((i) => (
            <tr key={i.item_id} data-item={i.item_id}>
              <td title={itemText.get(i.item_id)}>
                <code>{i.item_id}</code>
              </td>
              <td>{i.label}</td>
              <td className="probability">{figure(intl, i.probability)}</td>
              <td>{intervalText(intl, i.ci95)}</td>
              <td>{i.difficulty === null ? '—' : figure(intl, i.difficulty, 2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
