import { describe, expect, it } from 'vitest';
import { PlaybackSpans, type PlayedSpan } from '../../../../renderer/src/features/review/playbackSpans';

describe('playbacks of the review player', () => {
  it('hands each playback on once when it stops: a second pause, or the player going away after a pause, gives nothing', () => {
    let now = 1000;
    const played: PlayedSpan[] = [];
    const spans = new PlaybackSpans(
      (s) => played.push(s),
      () => now,
    );
    spans.stop(0); // never played
    spans.play(500);
    now += 4000;
    spans.play(900); // a seek while playing is the same playback
    now += 2000;
    spans.stop(6200);
    spans.stop(6200); // 'finish' after 'pause'
    spans.play(0);
    now += 1500;
    spans.stop(1500);
    expect(played).toEqual([
      { audioFromMs: 500, audioToMs: 6200, playedMs: 6000 },
      { audioFromMs: 0, audioToMs: 1500, playedMs: 1500 },
    ]);
  });
});
