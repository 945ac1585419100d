import { describe, expect, it } from 'vitest';
import { NavigationQueue, nextOpenItem, searchItems } from '../../../../renderer/src/features/label/navigation';

const items = ['a', 'b', 'c', 'd'].map((id) => ({ id, text: `text of ${id}` }));

describe('nextOpenItem', () => {
  it('goes on after the current item, then wraps to the top', () => {
    expect(nextOpenItem(items, 1, new Set())?.id).toBe('c');
    expect(nextOpenItem(items, 1, new Set(['c', 'd']))?.id).toBe('a');
    expect(nextOpenItem(items, 3, new Set())?.id).toBe('a');
  });
  it('never answers the current item, and null when all others are completed', () => {
    expect(nextOpenItem(items, 1, new Set(['a', 'c', 'd']))).toBeNull();
    expect(nextOpenItem(items, 0, new Set(['a', 'b', 'c', 'd']))).toBeNull();
    expect(nextOpenItem([], 0, new Set())).toBeNull();
  });
  it('from no current item, the first open one', () => {
    expect(nextOpenItem(items, -1, new Set(['a']))?.id).toBe('b');
  });
});

describe('searchItems', () => {
  it('finds ids that start with the query first, then ids and texts that contain it', () => {
    const list = [
      { id: 'x-10', text: 'nothing' },
      { id: 'item-1', text: 'about x' },
      { id: 'x-2', text: 'more' },
    ];
    expect(searchItems(list, 'X').map((i) => i.id)).toEqual(['x-10', 'x-2', 'item-1']);
    expect(searchItems(list, '  ')).toEqual([]);
    expect(searchItems(list, 'more').map((i) => i.id)).toEqual(['x-2']);
  });
});

describe('NavigationQueue', () => {
  /** a host whose openItem answers only when the test releases it */
  function slowHost(count: number) {
    let current = 0;
    const opened: number[] = [];
    const waiting: Array<() => void> = [];
    const queue = new NavigationQueue(
      () => count,
      () => current,
      (index) =>
        new Promise<void>((resolve) => {
          waiting.push(() => {
            current = index;
            opened.push(index);
            resolve();
          });
        }),
    );
    /** answers each call as it comes, until the queue is idle */
    const releaseAll = async () => {
      for (let ticks = 0; ticks < 1000 && (waiting.length > 0 || queue.pendingTarget !== null); ticks++) {
        waiting.shift()?.();
        await new Promise((r) => setTimeout(r, 0));
      }
    };
    return { queue, opened, releaseAll, current: () => current };
  }

  it('twenty fast presses move twenty items, in one call to the host when pressed before it answers', async () => {
    const host = slowHost(400);
    const done: Array<Promise<void>> = [];
    for (let n = 0; n < 20; n++) done.push(host.queue.move(1));
    await host.releaseAll();
    await Promise.all(done);
    expect(host.current()).toBe(20);
    // the presses were folded into one call to item 20
    expect(host.opened).toEqual([20]);
    expect(host.queue.pendingTarget).toBeNull();
  });

  it('presses during a call continue from the target, not from the item still shown', async () => {
    const host = slowHost(10);
    const first = host.queue.move(1);
    await new Promise((r) => setTimeout(r, 0)); // the call to item 1 is in flight
    const second = host.queue.move(1);
    const third = host.queue.move(1);
    const back = host.queue.move(-1);
    await host.releaseAll();
    await Promise.all([first, second, third, back]);
    expect(host.opened).toEqual([1, 2]);
  });

  it('stops at the ends', async () => {
    const host = slowHost(3);
    const moves = [host.queue.move(-1), host.queue.move(5)];
    await host.releaseAll();
    await Promise.all(moves);
    expect(host.current()).toBe(2);
  });

  it('a failed call empties the queue, so the next press works again', async () => {
    let current = 0;
    let fail = true;
    const queue = new NavigationQueue(
      () => 5,
      () => current,
      async (index) => {
        if (fail) throw new Error('host gone');
        current = index;
      },
    );
    await expect(queue.move(1)).rejects.toThrow('host gone');
    fail = false;
    await queue.move(2);
    expect(current).toBe(2);
  });

  it('the mark moves with every move asked for, so a step planned before a completion can see it was overtaken', async () => {
    const host = slowHost(10);
    const mark = host.queue.mark();
    expect(host.queue.mark()).toBe(mark);
    // the annotator presses Ctrl+G and goes to item 2 while the host is completing item 0
    const jump = host.queue.goTo(2);
    expect(host.queue.mark()).not.toBe(mark);
    const after = host.queue.mark();
    const step = host.queue.move(1);
    expect(host.queue.mark()).not.toBe(after);
    await host.releaseAll();
    await Promise.all([jump, step]);
    // nothing but asking moves it: the calls answering leave it be
    expect(host.queue.mark()).toBe(after + 1);
  });
});
