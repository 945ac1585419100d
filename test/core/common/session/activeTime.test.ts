import { describe, expect, it } from 'vitest';
import { activeTimeByItem, type ActivitySpan } from '../../../../core/common/session/activeTime';

const S = 1000;
const at = (item_id: string, start_s: number, end_s = start_s, sitting = 0): ActivitySpan => ({
  item_id,
  sitting,
  start_ms: start_s * S,
  end_ms: end_s * S,
});
const fold = (acts: ActivitySpan[], boundS = 120) => Object.fromEntries(activeTimeByItem(acts, boundS * S));

describe('active time on item', () => {
  it('counts the gaps between acts up to the bound, and a longer gap as nothing', () => {
    // opened at 0, a key at 30 s, a 10-minute break, completed at 30 + 600 s, then another item
    expect(fold([at('a', 0), at('a', 30), at('a', 630), at('b', 640)])).toEqual({ a: 40_000, b: 0 });
  });

  it('counts a gap of exactly the bound, not one a millisecond longer', () => {
    expect(fold([at('a', 0), at('a', 120)])).toEqual({ a: 120_000 });
    expect(activeTimeByItem([at('a', 0), { item_id: 'a', sitting: 0, start_ms: 120_001, end_ms: 120_001 }], 120_000).get('a')).toBe(0);
  });

  it('takes the bound it is given (aloud.yaml): the same acts count more under a longer bound', () => {
    const acts = [at('a', 0), at('a', 200)];
    expect(fold(acts, 120)).toEqual({ a: 0 });
    expect(fold(acts, 300)).toEqual({ a: 200_000 });
  });

  it('counts speech and playback spans whole, however long, and a gap after them from their end', () => {
    // a 5-minute utterance (no act inside it), then a key 60 s after it ended
    expect(fold([at('a', 0), at('a', 10, 310), at('a', 370)])).toEqual({ a: 370_000 });
    // a key pressed while a playback runs is not counted twice
    expect(fold([at('a', 0, 100), at('a', 50)])).toEqual({ a: 100_000 });
  });

  it('gives a gap to the item of the act that ended last, never to the next item', () => {
    // a, then b opened 50 s later: the 50 s were spent on a; b's own time starts at its opening
    expect(fold([at('a', 0), at('b', 50), at('b', 80)])).toEqual({ a: 50_000, b: 30_000 });
  });

  it('never bridges two sittings, whatever their times', () => {
    expect(fold([at('a', 0, 0, 0), at('a', 10, 10, 0), at('a', 20, 20, 1), at('a', 25, 25, 1)])).toEqual({ a: 15_000 });
  });

  it('orders acts by time within a sitting whatever order they were logged in (an utterance lands after later keys)', () => {
    const logged = [at('a', 0), at('a', 100), at('a', 40, 60)];
    expect(fold(logged, 45)).toEqual({ a: 100_000 });
    expect(fold([at('a', 0), at('a', 100)], 45)).toEqual({ a: 0 });
  });

  it('gives nothing for no acts', () => {
    expect(activeTimeByItem([], 120_000).size).toBe(0);
  });
});

/** The rule as first written: every span of every item kept, sorted and unioned at the end (the reference). */
function referenceActiveTime(acts: readonly ActivitySpan[], idleGapMs: number): Map<string, number> {
  const sorted = [...acts].sort((a, b) => a.sitting - b.sitting || a.start_ms - b.start_ms || a.end_ms - b.end_ms);
  const spans = new Map<string, Array<[number, number]>>();
  const add = (id: string, from: number, to: number) => spans.set(id, [...(spans.get(id) ?? []), [from, to]]);
  let sitting: number | null = null;
  let frontier = 0;
  let frontierItem: string | null = null;
  for (const act of sorted) {
    const end = Math.max(act.start_ms, act.end_ms);
    if (act.sitting !== sitting) {
      sitting = act.sitting;
      frontierItem = null;
    } else if (frontierItem !== null && act.start_ms > frontier && act.start_ms - frontier <= idleGapMs)
      add(frontierItem, frontier, act.start_ms);
    add(act.item_id, act.start_ms, end);
    if (frontierItem === null || end >= frontier) {
      frontier = end;
      frontierItem = act.item_id;
    }
  }
  const active = new Map<string, number>();
  for (const [id, list] of spans) {
    list.sort((a, b) => a[0] - b[0]);
    let total = 0;
    let from = -Infinity;
    let to = -Infinity;
    for (const [start, stop] of list) {
      if (start > to) {
        if (to > from) total += to - from;
        from = start;
        to = stop;
      } else if (stop > to) to = stop;
    }
    if (to > from) total += to - from;
    active.set(id, Math.round(total));
  }
  return active;
}

describe('active time on item, merged as the acts come', () => {
  it('equals the reference on random logs: acts in order and not, overlapping spans, several sittings, clocks that jump back', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let run = 0; run < 300; run++) {
      const acts: ActivitySpan[] = [];
      let clock = 1_700_000_000_000;
      for (let k = 0; k < 60; k++) {
        clock += Math.floor(random() * 200_000) - (random() < 0.1 ? 400_000 : 0);
        const length = random() < 0.3 ? random() * 50_000 : 0;
        acts.push({
          item_id: `i${Math.floor(random() * 5)}`,
          sitting: Math.floor(k / 20) + (random() < 0.05 ? 1 : 0),
          start_ms: clock,
          end_ms: clock + length,
        });
      }
      if (run % 2 === 0) acts.sort((a, b) => a.sitting - b.sitting || a.start_ms - b.start_ms || a.end_ms - b.end_ms);
      expect(activeTimeByItem(acts, 120_000)).toEqual(referenceActiveTime(acts, 120_000));
    }
  });
});
