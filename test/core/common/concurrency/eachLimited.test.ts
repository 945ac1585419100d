import { describe, expect, it } from 'vitest';
import { eachLimited } from '../../../../core/common/concurrency/eachLimited';

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

describe('eachLimited', () => {
  it('runs every value, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await eachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (v) => {
      running++;
      most = Math.max(most, running);
      await tick();
      done.push(v);
      running--;
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('stops starting new work after a failure, lets the started finish, and rejects with the first failure', async () => {
    const started: number[] = [];
    let settled = 0;
    const run = eachLimited([1, 2, 3, 4, 5, 6], 2, async (v) => {
      started.push(v);
      await tick();
      settled++;
      if (v === 2) throw new Error('two failed');
    });
    await expect(run).rejects.toThrow('two failed');
    expect(settled).toBe(started.length);
    expect(started.length).toBeLessThan(6);
  });

  it('does nothing for no values', async () => {
    await eachLimited([], 4, () => Promise.reject(new Error('never')));
  });
});
