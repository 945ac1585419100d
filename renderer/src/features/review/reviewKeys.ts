import type { Shortcut } from '../../shared/Dialogs';
import type { KeyPress } from '../../shared/keyPress';

/** Review tab: play/pause, skip, speed, the next or previous segment, and Esc. */
export type ReviewAction =
  | { kind: 'play-pause' }
  | { kind: 'skip'; seconds: number }
  | { kind: 'speed'; step: number }
  | { kind: 'segment'; delta: number }
  | { kind: 'leave-field' };

export function reviewShortcut(press: KeyPress): ReviewAction | null {
  if (press.key === 'Escape') return press.inField || press.onControl ? { kind: 'leave-field' } : null;
  if (press.inField || press.ctrlKey || press.metaKey || press.altKey) return null;
  if (press.onControl === 'button' && (press.key === ' ' || press.key === 'Enter')) return null;
  if (press.key === ' ') return press.repeat ? null : { kind: 'play-pause' };
  if (press.key === 'ArrowDown') return { kind: 'segment', delta: 1 };
  if (press.key === 'ArrowUp') return { kind: 'segment', delta: -1 };
  if (press.key === 'j' || press.key === 'J') return { kind: 'skip', seconds: -5 };
  if (press.key === 'l' || press.key === 'L') return { kind: 'skip', seconds: 5 };
  if (press.key === '[') return { kind: 'speed', step: -1 };
  if (press.key === ']') return { kind: 'speed', step: 1 };
  return null;
}

/** The Review tab's keys, for its help line and titles. */
export const REVIEW_SHORTCUTS: readonly Shortcut[] = [
  { keys: ['Space'], what: { id: 'review.keys.play' } },
  { keys: ['↓', '↑'], what: { id: 'review.keys.segment' } },
  { keys: ['J', 'L'], what: { id: 'review.keys.skip' } },
  { keys: ['[', ']'], what: { id: 'review.keys.speed' } },
  { keys: ['Esc'], what: { id: 'review.keys.leave' } },
];

/** Playback speeds the review offers, slowest first. */
export const PLAYBACK_RATES: readonly number[] = [0.5, 0.75, 1, 1.25, 1.5, 2];

export function stepRate(rate: number, step: number): number {
  const at = PLAYBACK_RATES.indexOf(rate);
  const from = at < 0 ? PLAYBACK_RATES.indexOf(1) : at;
  return PLAYBACK_RATES[Math.max(0, Math.min(PLAYBACK_RATES.length - 1, from + step))]!;
}
