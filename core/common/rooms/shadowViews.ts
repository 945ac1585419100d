import { agreementAnalysis } from '../agreement/agreementAnalysis';
import type { AlphaUndefinedReason } from '../agreement/krippendorff';
import type { ParseDiagnostic, CommitmentRecord } from '../parser/parseTypes';
import type { LabelSource } from '../session/itemState';
import { joinSegments } from '../transcript/joinSegments';
import { transcriptPieces, type TranscriptPiece } from '../transcript/transcriptMarks';
import { MAX_MEMBER_LOG_BYTES, MAX_ROOM_LOG_BYTES } from './roomEvents';
import { MAX_SHADOW_FEED_BYTES, type ShadowEventData } from './shadowEvents';
import { isLive, type ShadowItemState, type ShadowState } from './shadowFold';

export type ShadowViewer = { role: 'trainee'; member_id: string } | { role: 'expert' };

/** A piece of the transcript as a viewer may see it: a commit phrase is `hidden` until the trainee has answered. */
export type ShadowPiece = TranscriptPiece | { kind: 'hidden' };

/** The expert's labels on an item, for a viewer allowed to see them. */
export interface ExpertLabelsView {
  shown: true;
  acts: Array<{ label: string; source: LabelSource; quote: string | null; at: string }>;
  blind_label: string | null;
  final_label: string | null;
  /** she had labelled the item before the room saw it */
  prior: ShadowItemState['prior'];
}

export interface ShadowItemView {
  item_id: string;
  text: string;
  context: string | null;
  /** on view now; ended says why live view of it ended */
  live: boolean;
  ended: ShadowEventData['item_left']['reason'] | null;
  shown_at: string;
  selection: { start: number; end: number; quote: string } | null;
  recording: boolean;
  completed: boolean;
  /** her verbatim transcript with commit phrases, negations, mentions and fillers marked */
  transcript: ShadowPiece[];
  /** the utterance she is speaking, greyed; a phrase that reads as a commitment is hidden until the trainee answers */
  partial: ShadowPiece[] | null;
  pauses: Array<{ start_ms: number; ms: number; ended: boolean }>;
  reasoning: { steps: string[]; model_label: string | null } | null;
  /** her labels: shown to a trainee once they answered (or skipped), or once the item's live view ended */
  expert: ExpertLabelsView | { shown: false; has_labelled: boolean };
  practice: {
    /** the trainee's own answer (label null: skipped); absent for the expert */
    mine?: { label: string | null; ms: number } | null;
    /** who has answered, never what, while the item is live */
    answered: string[];
    /** once live view ended: name → label (null: skipped) */
    answers?: Record<string, string | null>;
  };
}

export interface ShadowTraineeAgreement {
  name: string;
  member_id?: string;
  /** items counted (ended, with the expert's label), answered with a label, and skipped */
  answered: number;
  skipped: number;
  agree_blind: number;
  agree_final: number;
  /** Krippendorff's α of the trainee against the expert's first (blind) and final labels, with bootstrap intervals */
  alpha_blind: number | null;
  alpha_final: number | null;
  ci95_blind: [number, number] | null;
  ci95_final: [number, number] | null;
  undefined_reason_final: AlphaUndefinedReason | null;
  /** median time to answer, from the item being shown */
  median_ms: number | null;
}

export interface ShadowItemAgreement {
  item_id: string;
  expert_blind: string | null;
  expert_final: string | null;
  /** name → label (null: skipped) */
  answers: Record<string, string | null>;
  /** answers with a label, those agreeing with her final label, and those that differ from it */
  answered: number;
  agree: number;
  diverged: number;
}

export interface ShadowMetrics {
  /** items whose practice is over (live view ended) and that the expert labelled */
  items: number;
  trainees: ShadowTraineeAgreement[];
  per_item: ShadowItemAgreement[];
  /** items where most trainees answered otherwise than the expert's final label: share first, then count */
  diverged_most: Array<{ item_id: string; diverged: number; answered: number; share: number; expert_final: string }>;
}

export interface ShadowView {
  kind: 'shadow';
  seq: number;
  code: string;
  project: string;
  labels: string[];
  level: string;
  closed: boolean;
  /** the expert by name; present: her session feeds the room now */
  expert: { name: string | null; present: boolean };
  audio_shared: boolean;
  me: { role: 'trainee'; member_id: string; name: string; share_full: boolean } | { role: 'expert' };
  /** the log's bounds: full: no more trainees or answers; feed_stopped: nothing more of the expert is shown */
  log: { bytes: number; max_bytes: number; member_max_bytes: number; full: boolean; feed_stopped: boolean; feed_max_bytes: number };
  trainees: Array<{ name: string; member_id?: string }>;
  max_members: number;
  /** the item on view (live), or the last one shown */
  current: ShadowItemView | null;
  metrics: ShadowMetrics;
}

const median = (values: number[]): number | null => {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : Math.round((s[mid - 1]! + s[mid]!) / 2);
};

/** Items whose practice is over and that carry the expert's final label: the units of agreement. */
function countedItems(state: ShadowState): ShadowItemState[] {
  return [...state.items.values()].filter((i) => !isLive(state, i.item_id) && i.expert_final !== null);
}

/**
 * Agreement of each trainee with the expert over the items whose practice is over: per item (agreeing with her first
 * and her final label) and Krippendorff's α over the session (the trainee's answer against her blind and her final
 * label) with seeded bootstrap intervals; and the items where trainees diverged most, for discussion.
 */
export function shadowMetrics(state: ShadowState, resamples = 1000, seed = 1): ShadowMetrics {
  const items = countedItems(state);
  const active = [...state.trainees.values()].filter((t) => !t.removed);
  const trainees = active.map((t): ShadowTraineeAgreement => {
    const mine = items.flatMap((i) => {
      const v = i.votes.get(t.member_id);
      return v ? [{ item: i, vote: v }] : [];
    });
    const labelled = mine.filter((m) => m.vote.label !== null);
    const records = mine.flatMap(({ item, vote }) => [
      { item_id: item.item_id, annotator: 'trainee', blind_label: vote.label, final_label: vote.label },
      { item_id: item.item_id, annotator: 'expert', blind_label: item.expert_blind, final_label: item.expert_final },
    ]);
    const analysis = agreementAnalysis(records, { level: state.level, categories: state.labels, hasBlind: true, resamples, seed });
    return {
      name: t.name,
      member_id: t.member_id,
      answered: labelled.length,
      skipped: mine.length - labelled.length,
      agree_blind: labelled.filter((m) => m.vote.label === m.item.expert_blind).length,
      agree_final: labelled.filter((m) => m.vote.label === m.item.expert_final).length,
      alpha_blind: analysis.alpha_blind,
      alpha_final: analysis.alpha_final,
      ci95_blind: analysis.ci95_blind,
      ci95_final: analysis.ci95_final,
      undefined_reason_final: analysis.final.undefined_reason,
      median_ms: median(mine.map((m) => m.vote.ms)),
    };
  });
  const names = new Map(active.map((t) => [t.member_id, t.name]));
  const perItem = items.map((i): ShadowItemAgreement => {
    const answers: Record<string, string | null> = {};
    let answered = 0;
    let agree = 0;
    for (const [id, v] of i.votes) {
      const name = names.get(id);
      if (name === undefined) continue;
      answers[name] = v.label;
      if (v.label === null) continue;
      answered++;
      if (v.label === i.expert_final) agree++;
    }
    return {
      item_id: i.item_id,
      expert_blind: i.expert_blind,
      expert_final: i.expert_final,
      answers,
      answered,
      agree,
      diverged: answered - agree,
    };
  });
  const divergedMost = perItem
    .filter((p) => p.diverged > 0)
    .map((p) => ({
      item_id: p.item_id,
      diverged: p.diverged,
      answered: p.answered,
      share: p.diverged / p.answered,
      expert_final: p.expert_final!,
    }))
    .sort((a, b) => b.share - a.share || b.diverged - a.diverged)
    .slice(0, 10);
  return { items: items.length, trainees, per_item: perItem, diverged_most: divergedMost };
}

function transcriptOf(item: ShadowItemState, fillers: readonly string[], labelsShown: boolean): ShadowPiece[] {
  const segments = [...item.utterances.entries()].sort((a, b) => a[0] - b[0]).flatMap(([, s]) => s);
  const text = joinSegments(segments).text;
  const commitments: CommitmentRecord[] = item.commitments.map((c) => ({
    label: c.label,
    start: c.start,
    end: c.end,
    quote: text.slice(c.start, c.end),
    t_ms: null,
    stem: '',
  }));
  const diagnostics: ParseDiagnostic[] = item.diagnostics.map((d) => ({
    kind: d.kind,
    start: d.start,
    end: d.end,
    quote: text.slice(d.start, d.end),
    stem: '',
    message: d.message,
  }));
  const pieces = transcriptPieces(text, commitments, diagnostics, { fillers, finalIsVoice: item.labels.at(-1)?.source === 'voice' });
  return labelsShown ? pieces : pieces.map((p) => (p.kind === 'commit' ? { kind: 'hidden' as const } : p));
}

function partialOf(partial: NonNullable<ShadowItemState['partial']>, labelsShown: boolean): ShadowPiece[] {
  if (labelsShown || partial.hidden.length === 0) return [{ kind: 'text', text: partial.text }];
  const pieces: ShadowPiece[] = [];
  let at = 0;
  for (const span of [...partial.hidden].sort((a, b) => a.start - b.start)) {
    if (span.start < at) continue;
    if (span.start > at) pieces.push({ kind: 'text', text: partial.text.slice(at, span.start) });
    pieces.push({ kind: 'hidden' });
    at = span.end;
  }
  if (at < partial.text.length) pieces.push({ kind: 'text', text: partial.text.slice(at) });
  return pieces;
}

/**
 * What one viewer may see of the room. The only place the expert's labels and the trainees' answers leave the room
 * state: before a trainee has answered on the item on view, her labels — the acts, and every commit phrase of her
 * transcript and of the utterance being spoken — are hidden from that trainee; the other trainees' answers are
 * reduced to who answered until the item's live view ends (for the expert too).
 */
export function shadowView(state: ShadowState, viewer: ShadowViewer, metrics: ShadowMetrics, fillers: readonly string[]): ShadowView {
  const active = [...state.trainees.values()].filter((t) => !t.removed);
  const nameOf = (id: string) => state.trainees.get(id)?.name ?? '?';
  const item = state.current === null ? null : state.items.get(state.current)!;
  let current: ShadowItemView | null = null;
  if (item) {
    const live = isLive(state, item.item_id);
    const mine = viewer.role === 'trainee' ? (item.votes.get(viewer.member_id) ?? null) : null;
    const labelsShown = viewer.role === 'expert' || !live || mine !== null;
    const answered = active.filter((t) => item.votes.has(t.member_id)).map((t) => t.name);
    current = {
      item_id: item.item_id,
      text: item.text,
      context: item.context,
      live,
      ended: item.ended,
      shown_at: item.shown_at,
      selection: item.selection === null ? null : { start: item.selection.start, end: item.selection.end, quote: item.selection.quote },
      recording: item.recording,
      completed: item.completed,
      transcript: transcriptOf(item, fillers, labelsShown),
      partial: item.partial === null ? null : partialOf(item.partial, labelsShown),
      pauses: item.pauses.map((p) => ({ ...p })),
      reasoning: item.reasoning === null ? null : { steps: item.reasoning.steps, model_label: item.reasoning.model_label },
      expert: labelsShown
        ? {
            shown: true,
            acts: item.labels.map((l) => ({ label: l.label, source: l.source, quote: l.quote, at: l.at })),
            blind_label: item.expert_blind,
            final_label: item.expert_final,
            prior: item.prior,
          }
        : { shown: false, has_labelled: item.labels.length > 0 || item.prior !== null },
      practice: {
        ...(viewer.role === 'trainee' ? { mine: mine === null ? null : { label: mine.label, ms: mine.ms } } : {}),
        answered,
        ...(live
          ? {}
          : {
              answers: Object.fromEntries(
                active.filter((t) => item.votes.has(t.member_id)).map((t) => [t.name, item.votes.get(t.member_id)!.label]),
              ),
            }),
      },
    };
  }
  const me =
    viewer.role === 'expert'
      ? { role: 'expert' as const }
      : {
          role: 'trainee' as const,
          member_id: viewer.member_id,
          name: nameOf(viewer.member_id),
          share_full: (state.trainees.get(viewer.member_id)?.log_bytes ?? 0) >= MAX_MEMBER_LOG_BYTES,
        };
  return {
    kind: 'shadow',
    seq: state.seq,
    code: state.code,
    project: state.project,
    labels: state.labels,
    level: state.level,
    closed: state.closed,
    expert: { name: state.expert ?? state.expert_present?.annotator ?? null, present: state.expert_present !== null },
    audio_shared: state.audio_shared,
    me,
    log: {
      bytes: state.log_bytes,
      max_bytes: MAX_ROOM_LOG_BYTES,
      member_max_bytes: MAX_MEMBER_LOG_BYTES,
      full: state.trainee_bytes >= MAX_ROOM_LOG_BYTES,
      feed_stopped: state.feed_stopped,
      feed_max_bytes: MAX_SHADOW_FEED_BYTES,
    },
    trainees: active.map((t) => (viewer.role === 'expert' ? { name: t.name, member_id: t.member_id } : { name: t.name })),
    max_members: state.max_members,
    current,
    metrics: viewer.role === 'expert' ? metrics : { ...metrics, trainees: metrics.trainees.map(({ member_id: _id, ...t }) => t) },
  };
}

/** What the app's Label screen shows of the room it opened: where trainees join, and the room as the expert sees it. */
export interface ShadowRoomStatus {
  code: string;
  /** the address trainees open (then type the code) */
  url: string;
  address: string;
  lan: boolean;
  log: string;
  view: ShadowView;
}
