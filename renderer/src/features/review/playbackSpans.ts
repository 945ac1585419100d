/** One playback of a recording as the page measured it: where it ran on the audio and how long it played by the clock. */
export interface PlayedSpan {
  audioFromMs: number;
  audioToMs: number;
  playedMs: number;
}

/**
 * Turns a player's play and pause into playbacks, each handed on once when it stops (a pause, the end, the player
 * going away): a second pause without a play between gives nothing, so no playback is logged twice.
 */
export class PlaybackSpans {
  private playing: { audioFromMs: number; startedAt: number } | null = null;

  constructor(
    private readonly onPlayed: (span: PlayedSpan) => void,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  play(audioMs: number): void {
    this.playing ??= { audioFromMs: audioMs, startedAt: this.clock() };
  }

  stop(audioMs: number): void {
    const playing = this.playing;
    if (!playing) return;
    this.playing = null;
    this.onPlayed({ audioFromMs: playing.audioFromMs, audioToMs: audioMs, playedMs: Math.max(0, this.clock() - playing.startedAt) });
  }
}
