/**
 * Work that runs one task at a time, in arrival order: a task starts when the one before it has settled, and a
 * failure never stops the queue (the caller of that task gets it). The closing policy is explicit and the same for
 * every queue: work queued before `close()` still runs, work queued after it is refused with the queue's own
 * refusal, and `close()` resolves when the work queued before it has settled.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private closing = false;

  /** `refusal`: what a caller hears who queues work after close() */
  constructor(private readonly refusal: () => Error) {}

  /** Queues a task; resolves or rejects as the task does. */
  run<T>(task: () => T | Promise<T>): Promise<T> {
    if (this.closing) return Promise.reject(this.refusal());
    const run = this.tail.then(task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Resolves when the work queued so far has settled (failures included). */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }

  get closed(): boolean {
    return this.closing;
  }

  /** Refuses new work from now on; resolves when the work queued before has settled. */
  close(): Promise<void> {
    this.closing = true;
    return this.idle();
  }
}
