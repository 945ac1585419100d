import { AUDIO_SAMPLE_RATE } from '../audio/sampleRate';
import type { SessionEntry } from './sessionFold';
import type { SessionRuleContext } from './sessionRules';
import { SessionUsageError } from './sessionRefusals';
import { say } from '../refusal/refusalMessage';

/** A playback of an item's recording as the page measured it: where on the audio it ran and how long it played by the clock. */
export interface Playback {
  itemId: string;
  audioFromMs: number;
  audioToMs: number;
  playedMs: number;
}

/** The longest playback logged: a day (a longer one is a clock that jumped, not a person listening). */
export const MAX_PLAYED_MS = 86_400_000;

/**
 * A playback is an act of whoever played it, logged in her own session once when it stops (audio_played). A
 * reviewer's playback is hers, not the annotator's: it is refused in a review sitting, so it never lands in someone
 * else's log as their time. Only an item of the project with recorded audio can be played; a playback of no time
 * logs nothing.
 */
export function decidePlayback(
  context: Pick<SessionRuleContext, 'annotator' | 'reviewer' | 'items'>,
  audioSamples: number,
  play: Playback,
): SessionEntry[] {
  if (context.reviewer !== null)
    throw new SessionUsageError(say('refusal.session.isReviewingSOwnAct', { reviewer: context.reviewer, annotator: context.annotator }));
  if (context.items && !context.items.has(play.itemId))
    throw new SessionUsageError(say('refusal.session.itemIsNotInThe', { itemId: play.itemId }));
  if (audioSamples === 0) throw new SessionUsageError(say('refusal.session.itemHasNoRecordingTo', { itemId: play.itemId }));
  if (!(play.playedMs <= MAX_PLAYED_MS)) throw new SessionUsageError(say('refusal.session.aPlaybackOfMsIs', { playedMs: play.playedMs }));
  const audioMs = (audioSamples * 1000) / AUDIO_SAMPLE_RATE;
  const within = (ms: number) => Math.round(Math.min(Math.max(0, ms), audioMs));
  if (Math.round(play.playedMs) === 0) return [];
  return [
    {
      type: 'audio_played',
      data: {
        item_id: play.itemId,
        audio_from_ms: within(play.audioFromMs),
        audio_to_ms: within(play.audioToMs),
        played_ms: Math.round(play.playedMs),
      },
    },
  ];
}
