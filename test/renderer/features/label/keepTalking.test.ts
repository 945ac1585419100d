import { describe, expect, it } from 'vitest';
import { loadKeepTalkingSeconds, saveKeepTalkingSeconds, SilenceWatch } from '../../../../renderer/src/features/label/keepTalking';

describe('SilenceWatch (keep-talking cue)', () => {
  it('is off without a silence length', () => {
    const watch = new SilenceWatch(null, -45);
    for (let t = 0; t < 60_000; t += 100) expect(watch.reading(-90, t)).toBeNull();
  });
  it('cues once per silent stretch, after the configured silence', () => {
    const watch = new SilenceWatch(5000, -45);
    const cues: Array<[number, number]> = [];
    const feed = (from: number, to: number, db: number) => {
      for (let t = from; t < to; t += 100) {
        const silent = watch.reading(db, t);
        if (silent !== null) cues.push([t, silent]);
      }
    };
    feed(0, 2000, -20); // speech
    feed(2000, 9000, -60); // 7 s silence: one cue at 7 s (5 s after 2 s)
    expect(watch.showing).toBe(true);
    feed(9000, 9500, -10); // speech hides it
    expect(watch.showing).toBe(false);
    feed(9500, 13_000, -60); // 3.5 s: no cue
    expect(cues).toEqual([[7000, 5000]]);
  });
  it('reads the setting from storage, off when absent or out of range', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    expect(loadKeepTalkingSeconds(storage)).toBeNull();
    saveKeepTalkingSeconds(storage, 8);
    expect(loadKeepTalkingSeconds(storage)).toBe(8);
    store.set('aloud.keepTalkingAfterSeconds', '0.5');
    expect(loadKeepTalkingSeconds(storage)).toBeNull();
    saveKeepTalkingSeconds(storage, null);
    expect(loadKeepTalkingSeconds(storage)).toBeNull();
  });
});
