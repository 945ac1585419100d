import type { LabelSource } from '../../core/common/session/itemState';
import type { ShadowItemView, ShadowMetrics, ShadowView } from '../../core/common/rooms/shadowViews';

/** The shadow room page's words and rules, apart from the DOM. */

/** Her label's place in the transcript while a trainee has not answered. */
export const HIDDEN_LABEL = 'her label — hidden until you answer';

export function secs(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function alphaText(a: number | null | undefined, ci: readonly [number, number] | null): string {
  if (a === null || a === undefined) return 'not enough data';
  return a.toFixed(2) + (ci ? ` [${ci[0].toFixed(2)}, ${ci[1].toFixed(2)}]` : '');
}

export function sourceWords(s: LabelSource): string {
  return s === 'voice' ? 'said aloud' : s === 'key' ? 'by key' : s === 'click' ? 'by click' : s;
}

export function expertName(view: Pick<ShadowView, 'expert'>): string {
  return view.expert.name || 'the expert';
}

/** The status line and its class (live, away, closed). */
export function shadowStatus(view: ShadowView): [string, string] {
  const name = expertName(view);
  if (view.closed) return ['The room was closed. Thank you for taking part.', 'closed'];
  if (view.log.feed_stopped) return ['The room log is full: live view has stopped.', 'away'];
  if (view.log.full) return ['The room log is full: no more answers.', 'away'];
  if (view.me.role === 'trainee' && view.me.share_full) return ['Your share of the room log is full: no more answers from you.', 'away'];
  if (!view.expert.present)
    return [
      view.current ? `${name} has left. You can read the last item; the room waits for her to come back.` : `Waiting for ${name} to start…`,
      'away',
    ];
  if (view.current && !view.current.live) return [`${name} left this item.`, 'away'];
  if (!view.current) return [`${name} is here; waiting for her to open an item.`, ''];
  return [`Live: ${name} is labelling ${view.current.item_id}.`, 'live'];
}

export function shadowWhoLine(view: ShadowView): string {
  return view.me.role === 'expert' ? 'You are the expert' : `You are ${view.me.name} · shadowing ${expertName(view)}`;
}

/** Answers are open to this viewer: the room is not closed and the log (and their share of it) not full. */
export function practiceWritable(view: ShadowView): boolean {
  return !view.closed && !view.log.full && !(view.me.role === 'trainee' && view.me.share_full);
}

/** The item's state beside its id: completed, or why its live view ended. */
export function itemStateText(item: Pick<ShadowItemView, 'live' | 'ended' | 'completed'>): string {
  if (item.live) return item.completed ? 'completed' : '';
  const ended =
    item.ended === 'room_closed'
      ? 'the room closed on this item'
      : item.ended === 'expert_left'
        ? 'her session ended on this item'
        : 'she left this item';
  return ended + (item.completed ? ' (completed)' : '');
}

/** Who answered: names only while the item is live, name and answer once its live view ended. */
export function answeredText(practice: ShadowItemView['practice']): string {
  if (practice.answers) {
    const names = Object.keys(practice.answers);
    if (!names.length) return 'Nobody answered on this item.';
    return `Answers: ${names.map((n) => `${n} ${practice.answers![n] === null ? 'skipped' : practice.answers![n]}`).join(' · ')}`;
  }
  return practice.answered.length ? `Answered so far: ${practice.answered.join(', ')}` : 'Nobody has answered yet.';
}

/** What the trainee is told of her labels while they are hidden. */
export function hiddenExpertText(name: string, hasLabelled: boolean): string {
  return hasLabelled
    ? `${name} has given her label. Give yours first: hers stays hidden until you answer or skip.`
    : `${name} has not labelled this item yet.`;
}

/** The trainee's answer against hers: agree or differ, and what her first label was when it changed. */
export function practiceVerdict(
  mine: { label: string | null },
  expert: ShadowItemView['expert'],
): { verdict: string; agree: boolean; first: string | null } | null {
  const fin = expert.shown ? expert.final_label : null;
  const first = expert.shown ? expert.blind_label : null;
  if (mine.label === null || !fin) return null;
  const agree = mine.label === fin;
  const firstNote =
    first && first !== fin ? (mine.label === first ? ` Her first label was yours, ${first}.` : ` Her first label was ${first}.`) : null;
  return { verdict: agree ? 'Same as hers.' : `She said ${fin}.`, agree, first: firstNote };
}

/** Model reasoning steps that carry their own numbers ("1. …") are not numbered twice. */
export function stepsNumberThemselves(steps: readonly string[]): boolean {
  return steps.every((s) => /^\s*\d+[.)]\s/.test(s));
}

/**
 * The practice key of a key press: 1–9 answer with the n-th label (index), S skips; never with a modifier, a held
 * key, or while typing in a field.
 */
export function practiceKey(e: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  repeat: boolean;
  defaultPrevented: boolean;
  typing: boolean;
}): { label: number } | 'skip' | null {
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || e.defaultPrevented || e.typing) return null;
  if (/^[1-9]$/.test(e.key)) return { label: Number(e.key) - 1 };
  if (e.key === 's' || e.key === 'S') return 'skip';
  return null;
}

/** One trainee's row of the agreement table. */
export function traineeRow(row: ShadowMetrics['trainees'][number]): Array<string | number> {
  return [
    row.name,
    row.answered,
    row.skipped,
    `${row.agree_final} of ${row.answered}`,
    alphaText(row.alpha_final, row.ci95_final),
    alphaText(row.alpha_blind, null),
    row.median_ms === null ? '—' : secs(row.median_ms),
  ];
}

export function summaryTitle(view: ShadowView): string {
  const m = view.metrics;
  return `Agreement with ${expertName(view)} (${m.items} item${m.items === 1 ? '' : 's'} done)`;
}

export function divergedLine(d: ShadowMetrics['diverged_most'][number]): string {
  return `${d.item_id}: ${d.diverged} of ${d.answered} answered otherwise (she said ${d.expert_final})`;
}

/** Her audio can be listened to: she shares it, the viewer is a trainee, and her item is live. */
export function audioOffered(view: ShadowView): boolean {
  return view.audio_shared && view.me.role === 'trainee' && view.current !== null && view.current.live;
}

/** The state request after the seq seen: the answer waits until the room changes (at most 10 s). */
export function shadowStatePath(after: number): string {
  return `/api/state?after=${after}&wait=1`;
}

/** The audio request: her samples of the item from a sample on (the first request: from where she is now). */
export function audioPath(item: string, from: number | null): string {
  return `/api/audio?item=${encodeURIComponent(item)}${from === null ? '' : `&from=${from}`}&wait=1`;
}

/** 16-bit samples as the Web Audio API's floats in [-1, 1). */
export function pcm16ToFloat(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i]! / 32768;
  return out;
}
