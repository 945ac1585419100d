import { useEffect, useState } from 'react';
import type { GoldReport, GoldView } from '../../../../core/common/labelModels/goldReport';
import { reportRefusalsTo } from '../../shared/runCall';
import { useApi } from '../../shared/api';

const f = (x: number): string => x.toFixed(3);
const interval = (c: readonly [number, number]): string => `[${f(c[0])}, ${f(c[1])}]`;

/** A value and its 95% interval on [0, 1]: whose competence is uncertain shows at a glance. */
function IntervalBar({ value, ci }: { value: number; ci: readonly [number, number] }) {
  const x = (v: number) => 4 + Math.max(0, Math.min(1, v)) * 152;
  return (
    <svg width={160} height={14} role="img" aria-label={`${f(value)} ${interval(ci)}`}>
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
  const [view, setView] = useState<GoldView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void reportRefusalsTo(setError)(() => client.goldLabels()).then((r) => r && setView(r));
  }, [client, reloads]);
  if (error) return <p className="muted">Labels with error bars: {error}</p>;
  if (!view) return <p className="muted">Computing labels with error bars…</p>;
  if ('unavailable' in view)
    return (
      <section className="gold" aria-label="labels with error bars">
        <h3>Labels with error bars</h3>
        <p className="muted unavailable">Not yet: {view.unavailable}.</p>
      </section>
    );
  const annotators = [...view.annotators].sort((a, b) => b.competence - a.competence);
  return (
    <section className="gold" aria-label="labels with error bars">
      <h3>Labels with error bars</h3>
      <p className="model-fit">{view.model_fit.said}.</p>
      <p className="muted">
        Model {view.model} · competence: {view.competence_scale} · 95% intervals: {view.intervals.method}, {view.intervals.resamples}{' '}
        resamples, seed {view.intervals.seed}
      </p>
      <table className="gold-annotators">
        <thead>
          <tr>
            <th>Annotator</th>
            <th>Competence</th>
            <th>95% interval</th>
            <th />
            <th>Labels</th>
          </tr>
        </thead>
        <tbody>
          {annotators.map((a) => (
            <tr key={a.annotator} data-annotator={a.annotator}>
              <td>{a.annotator}</td>
              <td className="competence">{f(a.competence)}</td>
              <td>{interval(a.ci95)}</td>
              <td>
                <IntervalBar value={a.competence} ci={a.ci95} />
              </td>
              <td>{a.annotations}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h4>Label pairs annotators confuse ({view.confused_pairs.length})</h4>
      {view.confused_pairs.length === 0 ? (
        <p className="muted">No pair is confused beyond the annotators&rsquo; general error rates.</p>
      ) : (
        <ul className="confused-pairs">
          {view.confused_pairs.map((p) => (
            <li key={p.labels.join('|')}>
              <strong>
                {p.labels[0]} and {p.labels[1]}
              </strong>{' '}
              are confused by {p.annotators.length} of {p.of} annotators ({p.annotators.join(', ')}); items {p.items.join(', ')}{' '}
              <button disabled={p.items.length === 0} onClick={() => openHuddle(p.items)}>
                Open a huddle on these {p.items.length} item(s)
              </button>
            </li>
          ))}
        </ul>
      )}

      <h4>Least certain items</h4>
      <table className="gold-items">
        <thead>
          <tr>
            <th>Item</th>
            <th>Label</th>
            <th>Probability</th>
            <th>95% interval</th>
            <th>Difficulty</th>
          </tr>
        </thead>
        <tbody>
          {itemsByUncertainty(view, 15).map((i) => (
            <tr key={i.item_id} data-item={i.item_id}>
              <td title={itemText.get(i.item_id)}>
                <code>{i.item_id}</code>
              </td>
              <td>{i.label}</td>
              <td className="probability">{f(i.probability)}</td>
              <td>{interval(i.ci95)}</td>
              <td>{i.difficulty === null ? '—' : i.difficulty.toFixed(2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
