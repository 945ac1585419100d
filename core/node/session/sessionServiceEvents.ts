import type { LivePartial } from '../../common/engine/liveUtterances';
import type { ItemSessionState } from '../../common/session/itemState';
import type { SessionEvent } from '../../common/session/sessionEvents';
import type { DurableWriteError } from '../fs/durableFile';

/** What the UI hears from the service. */
export interface SessionServiceEvents {
  /** every event appended to the log */
  event: [SessionEvent];
  /** an item's folded state changed (transcript, labels, audio, signals) */
  item: [ItemSessionState];
  /** a write failed; recording has stopped and what was saved before is intact (not 'error': an unheard 'error' would throw) */
  write_error: [DurableWriteError];
  /** completing this item waits for its transcriptions (item id), or stopped waiting (null) */
  finishing: [string | null];
  /** text of the utterance being spoken, for display only: never logged, never parsed */
  partial: [LivePartial];
  /** audio the running recording received, where it lies on the item's timeline (a shadow room's tap listens) */
  audio: [{ item_id: string; start_sample: number; pcm: Float32Array }];
  /** the transcriptions sent and not yet logged changed: how many per item */
  pending: [Record<string, number>];
}
