import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../../../../core/common/concurrency/serialQueue';

/** A promise the test settles by hand. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('SerialQueue', () => {
  it('runs tasks one at a time in arrival order, each after the one before has settled', async () => {
    const queue = new SerialQueue(() => new Error('closed'));
    const log: string[] = [];
    const first = gate();
    const a = queue.run(async () => {
      log.push('a starts');
      await first.promise;
      log.push('a ends');
      return 'a';
    });
    const b = queue.run(() => {
      log.push('b runs');
      return 'b';
    });
    await Promise.resolve();
    expect(log).toEqual(['a starts']);
    first.open();
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(log).toEqual(['a starts', 'a ends', 'b runs']);
  });

  it('a failing task fails its caller only: the next task still runs', async () => {
    const queue = new SerialQueue(() => new Error('closed'));
    const failed = queue.run(() => Promise.reject(new Error('boom')));
    const next = queue.run(() => 'next');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('next');
  });

  it('close: work queued before still runs, work queued after is refused with the queue refusal, close resolves when the earlier work settled', async () => {
    const queue = new SerialQueue(() => new RangeError('the session is closed'));
    const slow = gate();
    let ran = false;
    const before = queue.run(async () => {
      await slow.promise;
      ran = true;
    });
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    expect(queue.closed).toBe(true);
    await expect(queue.run(() => 'late')).rejects.toThrow(RangeError);
    await Promise.resolve();
    expect(closed).toBe(false);
    slow.open();
    await before;
    await closing;
    expect(ran).toBe(true);
    expect(closed).toBe(true);
  });
});
