import type { AdjudicationConfig, LabelSchema } from '../project/projectConfig';
import type { ProtocolCoding } from '../coding/codingFold';
import type { ItemSessionState } from '../session/itemState';
import type { DecisionShown } from './adjudicationEvents';
import { decisionOpening, type DecisionRevision } from './adjudicationFold';
import { shownAnnotators, type AdjudicationQueue, type ItemStanding, type ItemStatus } from './adjudicationQueue';

/** One row of the lead's queue: annotators by their shown names only (with blind_names the page never has a name). */
export interface AdjudicationQueueRow {
  item_id: string;
  status: ItemStatus;
  agreement: number | null;
  labels: Array<{ shown: string; label: string }>;
  gold_label: string | null;
  /** the label model's posterior entropy over the labels (0 certain, 1 every label alike); null without one */
  uncertainty: number | null;
}

export interface AdjudicationQueueView {
  blind_names: boolean;
  fast_decision_seconds: number;
  labels: Array<{ name: string; key: string | null }>;
  causes: string[];
  /** how the waiting items are ordered (aloud.yaml adjudication.order) and the model behind their uncertainty */
  order: AdjudicationConfig['order'];
  label_model: AdjudicationConfig['label_model'];
  /** waiting items first (in that order), then decided ones */
  rows: AdjudicationQueueRow[];
  counts: AdjudicationQueue['counts'];
}

/** One annotator's protocol of the item, as the side-by-side view shows it. */
export interface ProtocolView {
  shown: string;
  blind_label: string | null;
  final_label: string | null;
  transcript: string;
  /** the phrase that committed the final label (its offsets in the transcript and time on the audio), when spoken */
  commit: { quote: string; start: number; end: number; t_ms: number | null } | null;
  /** every label act in order: each after the first is a change of mind */
  acts: Array<{ label: string; source: string; at: string; audio_ms: number | null }>;
  seconds_on_item: number | null;
  /** time on item under adjudication.fast_decision_seconds */
  fast: boolean;
  pauses: { count: number; long_count: number; total_ms: number } | null;
  filled_pauses: number | null;
  hedges: number | null;
  audio_ms: number;
  /** codes coders gave her protocol of the item, per unit (coders unnamed: the lead needs the codes, not who gave them) */
  codes: Array<{ unit_text: string; codes: string[] }>;
}

export interface DecisionView extends DecisionShown {
  /** the spoken rationale's length; null when typed or absent */
  rationale_audio_ms: number | null;
}

export interface AdjudicationItemView {
  item_id: string;
  item_text: string;
  status: ItemStatus;
  agreement: number | null;
  gold_label: string | null;
  decision: DecisionView | null;
  /** earlier decisions, oldest first */
  history: DecisionView[];
  protocols: ProtocolView[];
}

/** Every coder's codes on one protocol, merged per unit in unit order, each code once. */
function codesOf(codings: readonly ProtocolCoding[]): ProtocolView['codes'] {
  const byUnit = new Map<string, { unit_text: string; codes: Set<string> }>();
  for (const coding of codings) {
    for (const unit of coding.units) {
      if (unit.codes.length === 0) continue;
      const entry = byUnit.get(unit.unit) ?? { unit_text: unit.unit_text, codes: new Set<string>() };
      for (const code of unit.codes) entry.codes.add(code.code);
      byUnit.set(unit.unit, entry);
    }
  }
  return [...byUnit.values()].map((u) => ({ unit_text: u.unit_text, codes: [...u.codes].sort() }));
}

function decisionView(d: DecisionRevision): DecisionView {
  return {
    ...decisionOpening(d),
    rationale_audio_ms: d.rationale?.kind === 'spoken' ? d.rationale.audio_ms : null,
    guideline_flag: d.guideline_flag,
    room: d.room,
    decided_at: d.decided_at,
  };
}

const shownOf = (s: ItemStanding, blind: boolean): Map<string, string> =>
  new Map(
    shownAnnotators(
      s.item_id,
      s.labels.map((l) => l.annotator),
      blind,
    ).map((a) => [a.annotator, a.shown]),
  );

export function adjudicationQueueView(queue: AdjudicationQueue, schema: LabelSchema, config: AdjudicationConfig): AdjudicationQueueView {
  const row = (s: ItemStanding): AdjudicationQueueRow => {
    const shown = shownOf(s, config.blind_names);
    return {
      item_id: s.item_id,
      status: s.status,
      agreement: s.agreement,
      labels: s.labels.map((l) => ({ shown: shown.get(l.annotator)!, label: l.label })).sort((a, b) => (a.shown < b.shown ? -1 : 1)),
      gold_label: s.gold_label,
      uncertainty: s.uncertainty?.entropy ?? null,
    };
  };
  return {
    blind_names: config.blind_names,
    fast_decision_seconds: config.fast_decision_seconds,
    labels: schema.labels.map((l) => ({ name: l.name, key: l.key ?? null })),
    causes: [...config.causes],
    order: config.order,
    label_model: config.label_model,
    rows: [...queue.queue, ...queue.decided].map(row),
    counts: queue.counts,
  };
}

/**
 * The side-by-side view of one item: each annotator with a counted label, in the order the names are shown
 * ("Annotator 1…n" with blind_names), her protocol from her folded session.
 */
export function adjudicationItemView(
  standing: ItemStanding,
  history: readonly DecisionRevision[],
  itemText: string,
  states: ReadonlyMap<string, ItemSessionState>,
  config: AdjudicationConfig,
  codings: readonly ProtocolCoding[] = [],
): AdjudicationItemView {
  const shown = shownAnnotators(
    standing.item_id,
    standing.labels.map((l) => l.annotator),
    config.blind_names,
  );
  const protocols = shown.map(({ annotator, shown: name }): ProtocolView => {
    const state = states.get(annotator);
    const seconds = state?.started_at && state.completed_at ? (Date.parse(state.completed_at) - Date.parse(state.started_at)) / 1000 : null;
    const commit = state ? ([...state.commitments].reverse().find((c) => c.label === state.final_label) ?? null) : null;
    const signals = state?.signals ?? null;
    return {
      shown: name,
      blind_label: state?.blind_label ?? null,
      final_label: state?.final_label ?? standing.labels.find((l) => l.annotator === annotator)?.label ?? null,
      transcript: state?.transcript ?? '',
      commit: commit ? { quote: commit.quote, start: commit.start, end: commit.end, t_ms: commit.t_ms } : null,
      acts: (state?.label_history ?? [])
        .filter((a) => (a.reviewer ?? null) === null)
        .map((a) => ({ label: a.label, source: a.source, at: a.at, audio_ms: a.audio_ms })),
      seconds_on_item: seconds,
      fast: seconds !== null && seconds < config.fast_decision_seconds,
      pauses: signals?.pauses
        ? { count: signals.pauses.count, long_count: signals.pauses.long_count, total_ms: signals.pauses.total_ms }
        : null,
      filled_pauses: signals?.filled_pause_count ?? null,
      hedges: signals?.hedge_count ?? null,
      audio_ms: state?.audio_ms ?? 0,
      codes: codesOf(codings.filter((c) => c.annotator === annotator && c.item_id === standing.item_id)),
    };
  });
  return {
    item_id: standing.item_id,
    item_text: itemText,
    status: standing.status,
    agreement: standing.agreement,
    gold_label: standing.gold_label,
    decision: standing.decision ? decisionView(standing.decision) : null,
    history: history.slice(0, -1).map(decisionView),
    protocols,
  };
}
