import { TranscriptionPendingError } from '../../common/session/sessionRefusals';
import { say } from '../../common/refusal/refusalMessage';

/**
 * The transcriptions a session has sent to the engine and not yet logged (or found stale), per item, and the
 * utterance numbers they took: an item's utterances go on across recordings, after those logged and those in flight.
 */
export class PendingTranscriptions {
  private readonly all = new Set<Promise<void>>();
  private readonly byItem = new Map<string, Set<Promise<void>>>();
  private readonly nextUtterance = new Map<string, number>();
  private waitingFor: string | null = null;

  /** `onChange` hears every job sent and every job settled (the UI's "transcribing…" per item) */
  constructor(private readonly onChange: () => void = () => undefined) {}

  get size(): number {
    return this.all.size;
  }

  pendingFor(itemId: string): number {
    return this.byItem.get(itemId)?.size ?? 0;
  }

  /** Items with jobs not yet settled, and how many each. */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.byItem].filter(([, jobs]) => jobs.size > 0).map(([itemId, jobs]) => [itemId, jobs.size]));
  }

  /** A job of the item: counted until it settles (its failure is the job's own to report). */
  track(itemId: string, job: Promise<void>): void {
    const settled = job
      .catch(() => undefined)
      .finally(() => {
        this.all.delete(settled);
        this.byItem.get(itemId)?.delete(settled);
        this.onChange();
      });
    this.all.add(settled);
    let forItem = this.byItem.get(itemId);
    if (!forItem) this.byItem.set(itemId, (forItem = new Set()));
    forItem.add(settled);
    this.onChange();
  }

  /** The utterance numbers of the item below `next` are taken. */
  reserve(itemId: string, next: number): void {
    this.nextUtterance.set(itemId, Math.max(this.nextUtterance.get(itemId) ?? 0, next));
  }

  /** The item's next utterance number: after those logged (`logged`, the log's next index) and those reserved. */
  nextUtteranceIndex(itemId: string, logged: number): number {
    return Math.max(this.nextUtterance.get(itemId) ?? 0, logged);
  }

  /** Resolves when every job sent so far has settled (jobs sent meanwhile too). */
  async drain(): Promise<void> {
    while (this.all.size > 0) await Promise.all([...this.all]);
  }

  /** Resolves true when the item's jobs sent so far have settled, false when `waitMs` ran out first. */
  async settleWithin(itemId: string, waitMs: number): Promise<boolean> {
    const pending = () => [...(this.byItem.get(itemId) ?? [])];
    const deadline = Date.now() + waitMs;
    while (pending().length > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.all(pending()), new Promise((resolve) => (timer = setTimeout(resolve, Math.min(left, 2 ** 31 - 1))))]);
      clearTimeout(timer);
    }
    return true;
  }

  /** the item whose completion waits for its transcriptions, if any */
  get finishing(): string | null {
    return this.waitingFor;
  }

  /**
   * Completing an item waits until its transcriptions sent so far are logged; after `waitMs`, TranscriptionPendingError
   * (its audio is saved). `onFinishing` hears the item waited for, then null.
   */
  async settleForCompletion(itemId: string, waitMs: number, onFinishing: (itemId: string | null) => void): Promise<void> {
    if (this.pendingFor(itemId) === 0) return;
    this.waitingFor = itemId;
    onFinishing(itemId);
    try {
      if (!(await this.settleWithin(itemId, waitMs))) {
        throw new TranscriptionPendingError(
          say('refusal.session.isStillBeingTranscribedUtterance', {
            itemId,
            pendingFor: this.pendingFor(itemId),
            value: (waitMs / 1000).toFixed(1),
          }),
        );
      }
    } finally {
      this.waitingFor = null;
      onFinishing(null);
    }
  }
}
