import { SessionLogError } from './sessionLog';
import type { SessionEvent } from './sessionEvents';
import { say } from '../refusal/refusalMessage';

/** What the log says about one item's WAV. */
export interface ItemAudio {
  item_id: string;
  /** relative to the project folder */
  audio_path: string;
  /** samples the log knows are durable in the WAV */
  samples: number;
}

export interface AudioLedger {
  items: Map<string, ItemAudio>;
  /** the recording that was started and never stopped (a crash, when read on opening) */
  openRecording: { item_id: string; since_seq: number } | null;
  /**
   * items whose last take ended on a write error and was not recovered since: their WAV may hold more or less than
   * logged (a failed cut-back), so opening checks them beside the open recording's take
   */
  unsettled: Set<string>;
}

/**
 * Follows the audio events and checks they fit together: audio only while recording its item, each append
 * starting where the previous ended, one recording at a time. A violation is corruption, named by line.
 */
export class AudioLedgerFold {
  readonly ledger: AudioLedger = { items: new Map(), openRecording: null, unsettled: new Set() };

  constructor(private readonly file: string) {}

  /**
   * An independent copy, to try events on before they are written: of the given items only (an audio event changes
   * the item it names and the running recording), so trying one act costs the same in a session of any size.
   */
  clone(itemIds: Iterable<string> = this.ledger.items.keys()): AudioLedgerFold {
    const copy = new AudioLedgerFold(this.file);
    for (const id of itemIds) {
      const audio = this.ledger.items.get(id);
      if (audio) copy.ledger.items.set(id, { ...audio });
      if (this.ledger.unsettled.has(id)) copy.ledger.unsettled.add(id);
    }
    copy.ledger.openRecording = this.ledger.openRecording ? { ...this.ledger.openRecording } : null;
    return copy;
  }

  apply(event: SessionEvent): void {
    const { ledger } = this;
    const fail = (problem: string): never => {
      // the ledger's problem stays English, inside the catalog line
      throw new SessionLogError(this.file, event.seq, say('refusal.sessionLog.eventProblem', { type: event.type, problem }));
    };
    switch (event.type) {
      case 'recording_started': {
        const { item_id, audio_path, offset_samples } = event.data;
        if (ledger.openRecording)
          fail(`a recording of "${ledger.openRecording.item_id}" (line ${ledger.openRecording.since_seq}) was never stopped`);
        const known = ledger.items.get(item_id);
        if (known && known.audio_path !== audio_path)
          fail(`audio_path ${JSON.stringify(audio_path)} differs from ${JSON.stringify(known.audio_path)} logged before`);
        const samples = known?.samples ?? 0;
        if (offset_samples !== samples) fail(`offset_samples ${offset_samples} but the item's audio has ${samples} samples`);
        ledger.items.set(item_id, { item_id, audio_path, samples });
        ledger.openRecording = { item_id, since_seq: event.seq };
        // the take starts where the WAV ends (the writer read its length): whatever a write error left is settled
        ledger.unsettled.delete(item_id);
        return;
      }
      case 'audio_appended': {
        const { item_id, offset_samples, samples } = event.data;
        if (ledger.openRecording?.item_id !== item_id) fail(`no recording of "${item_id}" is running`);
        const audio = ledger.items.get(item_id)!;
        if (offset_samples !== audio.samples) fail(`offset_samples ${offset_samples} but the item's audio has ${audio.samples} samples`);
        audio.samples += samples;
        return;
      }
      case 'recording_stopped': {
        if (ledger.openRecording?.item_id !== event.data.item_id) fail(`no recording of "${event.data.item_id}" is running`);
        ledger.openRecording = null;
        if (event.data.reason === 'write_error') ledger.unsettled.add(event.data.item_id);
        return;
      }
      case 'audio_recovered': {
        const audio = ledger.items.get(event.data.item_id);
        if (!audio) fail(`item "${event.data.item_id}" has no audio`);
        audio!.samples = event.data.samples_total;
        ledger.unsettled.delete(event.data.item_id);
        return;
      }
      default:
        return;
    }
  }
}
