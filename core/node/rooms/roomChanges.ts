/**
 * The pages waiting for a room to change (a state request with `wait=1`): each is woken when the room logs an event,
 * after its own bounded wait, when its client hangs up, or when the room stops being served. Norming and shadow rooms
 * share it, so members' pages follow either room the same way.
 */
export class RoomChanges {
  private readonly waiters = new Set<() => void>();
  private readonly listeners = new Set<() => void>();

  /** Calls `listener` at every change until the returned function is called (the lead's panel follows the room so). */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Resolves at once when `changed()`, else at the next wake, after `ms`, or when `signal` aborts. */
  wait(changed: () => boolean, ms: number, signal?: AbortSignal): Promise<void> {
    if (changed()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** Wakes every waiting page and tells every listener (the room changed, or stops). */
  wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (e) {
        // the change is logged already: a listener failing (the lead's panel) must not fail the member's request
        process.stderr.write(
          `room: a listener of the room's changes failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`,
        );
      }
    }
  }
}
