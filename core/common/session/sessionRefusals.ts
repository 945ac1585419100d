import { Refusal } from '../refusal/refusal';
import type { RefusalMessage } from '../refusal/refusalMessage';

/** A call that does not fit the session's state (no item open, not recording, unknown item or label). */
export class SessionUsageError extends Refusal {
  override name = 'SessionUsageError';
  constructor(message: string | RefusalMessage) {
    super('conflict', message);
  }
}

/** Completing an item needs a spoken label (thinkaloud.require_spoken_label) and it has none. */
export class SpokenLabelRequiredError extends Refusal {
  override name = 'SpokenLabelRequiredError';
  constructor(message: string | RefusalMessage) {
    super('spoken_label_required', message);
  }
}

/** Completing an item waited for its transcriptions longer than thinkaloud.complete_wait_seconds. */
export class TranscriptionPendingError extends Refusal {
  override name = 'TranscriptionPendingError';
  constructor(message: string | RefusalMessage) {
    super('transcription_pending', message);
  }
}

/** A key or click would change the label of a completed item: nothing is logged until the annotator confirms it. */
export class LabelChangeNeedsConfirmationError extends Refusal {
  override name = 'LabelChangeNeedsConfirmationError';
  constructor(
    message: string | RefusalMessage,
    readonly itemId: string,
    readonly from: string,
    readonly to: string,
  ) {
    super('confirmation_required', message);
  }
}
