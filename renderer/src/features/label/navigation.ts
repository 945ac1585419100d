/** Item navigation on the label screen: pure rules plus a queue, so they can be tested without a browser. */

/**
 * The item Enter goes on to: the first item not completed after `index`, then from the top; null when every
 * item is completed. `index` itself is never the answer (the annotator just completed it).
 */
export function nextOpenItem<T extends { id: string }>(items: readonly T[], index: number, completed: ReadonlySet<string>): T | null {
  for (let step = 1; step < items.length + (index < 0 ? 1 : 0); step++) {
    const candidate = items[(((index + step) % items.length) + items.length) % items.length]!;
    if (!completed.has(candidate.id)) return candidate;
  }
  return null;
}

/** Items whose id or text contains the query (case-insensitive); ids that start with it come first. */
export function searchItems<T extends { id: string; text: string }>(items: readonly T[], query: string, limit = 20): T[] {
  const q = query.trim().toLowerCase();
  if (q === '') return [];
  const starts: T[] = [];
  const contains: T[] = [];
  for (const item of items) {
    const id = item.id.toLowerCase();
    if (id.startsWith(q)) starts.push(item);
    else if (id.includes(q) || item.text.toLowerCase().includes(q)) contains.push(item);
    if (starts.length >= limit) break;
  }
  return [...starts, ...contains].slice(0, limit);
}

/**
 * Navigation requests that queue instead of being dropped: every press moves the target, and the host is
 * asked to open the latest target once the call before it has finished. Twenty fast presses move twenty items,
 * without twenty round trips.
 */
export class NavigationQueue {
  private target: number | null = null;
  private running: Promise<void> | null = null;
  /** how many moves were asked for so far: a move planned earlier checks it has not been overtaken */
  private asked = 0;

  constructor(
    private readonly count: () => number,
    private readonly currentIndex: () => number,
    /** opens the item at an index on the host; resolves when the host has answered */
    private readonly open: (index: number) => Promise<void>,
  ) {}

  /** where the queue is heading, or null when it is idle */
  get pendingTarget(): number | null {
    return this.target;
  }

  /** Moves the target by delta from wherever the queue is heading (or from the current item when idle). */
  move(delta: number): Promise<void> {
    return this.goTo((this.target ?? this.currentIndex()) + delta);
  }

  /**
   * A mark of the moves asked for so far: a step planned before an await (the next open item after a completion)
   * compares it afterwards, and is not taken when the annotator asked for another item meanwhile.
   */
  mark(): number {
    return this.asked;
  }

  /** Sets the target to an absolute index (clamped to the items). */
  goTo(index: number): Promise<void> {
    this.asked++;
    const last = this.count() - 1;
    if (last < 0) return Promise.resolve();
    this.target = Math.max(0, Math.min(last, index));
    if (!this.running) this.running = this.drain();
    return this.running;
  }

  private async drain(): Promise<void> {
    // start on the next microtask, so `running` is set before the loop can finish and clear it
    await Promise.resolve();
    try {
      while (this.target !== null) {
        const wanted = this.target;
        if (wanted !== this.currentIndex()) await this.open(wanted);
        // a press during the call moved the target again: go on; otherwise the queue is done
        if (this.target === wanted) this.target = null;
      }
    } finally {
      this.target = null;
      this.running = null;
    }
  }
}
