import type { LabelSource } from '../../core/common/session/itemState';
import type { ShadowItemView, ShadowMetrics, ShadowView } from '../../core/common/rooms/shadowViews';
import type { ParserNote } from '../../core/common/transcript/transcriptMarks';
import { fixed, pageLocale, t } from './roomLanguage';

/** The shadow room page's words and rules, apart from the DOM. */

/** Her label's place in the transcript while a trainee has not answered. */
export function hiddenLabel(): string {
  return t('room.shadow.hiddenLabel');
}

/** A time in seconds with one decimal, the page language's way ("1.5 s" / "1,5 s"). */
export function secs(ms: number): string {
  return `${fixed(ms / 1000, 1)} s`; // i18n-ignore: the SI symbol, the same in every language
}

export function alphaText(a: number | null | undefined, ci: readonly [number, number] | null): string {
  if (a === null || a === undefined) return t('room.shadow.noData');
  return ci ? t('room.shadow.alpha', { alpha: fixed(a, 2), low: fixed(ci[0], 2), high: fixed(ci[1], 2) }) : fixed(a, 2);
}

/** Why the parser committed nothing at a mention, in the page's language (the parser's own reason as logged). */
export function parserNoteText(note: ParserNote): string {
  return t(`room.shadow.note.${note.note_kind}`, { reason: note.reason });
}

/** How and when she gave a label, after the label itself: " — said aloud: “…” · 10:42:07", the page language's way. */
export function actLine(a: { source: LabelSource; quote: string | null; at: string }): string {
  const values = { source: sourceWords(a.source), time: new Date(a.at).toLocaleTimeString(pageLocale()) };
  return a.quote ? t('room.shadow.actQuoted', { ...values, quote: a.quote }) : t('room.shadow.act', values);
}

export function sourceWords(s: LabelSource): string {
  return s === 'voice' ? t('room.shadow.saidAloud') : s === 'key' ? t('room.shadow.byKey') : s === 'click' ? t('room.shadow.byClick') : s;
}

export function expertName(view: Pick<ShadowView, 'expert'>): string {
  return view.expert.name || t('room.shadow.expert');
}

/** The status line and its class (live, away, closed). */
export function shadowStatus(view: ShadowView): [string, string] {
  const name = expertName(view);
  if (view.closed) return [t('room.status.closed'), 'closed'];
  if (view.log.feed_stopped) return [t('room.shadow.status.feedStopped'), 'away'];
  if (view.log.full) return [t('room.shadow.status.full'), 'away'];
  if (view.me.role === 'trainee' && view.me.share_full) return [t('room.shadow.status.shareFull'), 'away'];
  if (!view.expert.present) return [t(view.current ? 'room.shadow.status.away' : 'room.shadow.status.waiting', { name }), 'away'];
  if (view.current && !view.current.live) return [t('room.shadow.status.leftItem', { name }), 'away'];
  if (!view.current) return [t('room.shadow.status.here', { name }), ''];
  return [t('room.shadow.status.live', { name, item: view.current.item_id }), 'live'];
}

export function shadowWhoLine(view: ShadowView): string {
  return view.me.role === 'expert'
    ? t('room.shadow.whoExpert')
    : t('room.shadow.whoTrainee', { name: view.me.name, expert: expertName(view) });
}

/** Answers are open to this viewer: the room is not closed and the log (and their share of it) not full. */
export function practiceWritable(view: ShadowView): boolean {
  return !view.closed && !view.log.full && !(view.me.role === 'trainee' && view.me.share_full);
}

/** The item's state beside its id: completed, or why its live view ended. */
export function itemStateText(item: Pick<ShadowItemView, 'live' | 'ended' | 'completed'>): string {
  if (item.live) return item.completed ? t('room.shadow.completed') : '';
  const ended = t(
    item.ended === 'room_closed'
      ? 'room.shadow.ended.closed'
      : item.ended === 'expert_left'
        ? 'room.shadow.ended.expertLeft'
        : 'room.shadow.ended.left',
  );
  return item.completed ? t('room.shadow.ended.completed', { ended }) : ended;
}

/** Who answered: names only while the item is live, name and answer once its live view ended. */
export function answeredText(practice: ShadowItemView['practice']): string {
  if (practice.answers) {
    const names = Object.keys(practice.answers);
    if (!names.length) return t('room.shadow.answersNobody');
    const answers = names.map((n) => `${n} ${practice.answers![n] ?? t('room.shadow.skipped')}`).join(' · ');
    return t('room.shadow.answers', { answers });
  }
  return practice.answered.length ? t('room.shadow.answered', { names: practice.answered.join(', ') }) : t('room.shadow.answeredNobody');
}

/** What the trainee is told of her labels while they are hidden. */
export function hiddenExpertText(name: string, hasLabelled: boolean): string {
  return t(hasLabelled ? 'room.shadow.hasLabelled' : 'room.shadow.notLabelled', { name });
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
    first && first !== fin ? ' ' + t(mine.label === first ? 'room.shadow.firstWasYours' : 'room.shadow.firstWas', { label: first }) : null;
  return { verdict: agree ? t('room.shadow.same') : t('room.shadow.said', { label: fin }), agree, first: firstNote };
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
    t('room.shadow.sameAsFinal', { agree: row.agree_final, answered: row.answered }),
    alphaText(row.alpha_final, row.ci95_final),
    alphaText(row.alpha_blind, null),
    row.median_ms === null ? '—' : secs(row.median_ms),
  ];
}

export function summaryTitle(view: ShadowView): string {
  const m = view.metrics;
  return t('room.shadow.agreementWith', { name: expertName(view), items: m.items });
}

export function divergedLine(d: ShadowMetrics['diverged_most'][number]): string {
  return t('room.shadow.diverged', { item: d.item_id, diverged: d.diverged, answered: d.answered, label: d.expert_final });
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
