import type { RequestIdentity } from './engineTypes';
import type { TranscriptionScheduler } from './transcriptionScheduler';
import { endsSentence, type OpenUtterance, type Utterance, type UtteranceCutter } from './utteranceCutter';

/** Text of the utterance being spoken, for display only (greyed, replaced by the final). */
export interface LivePartial {
  item_id: string;
  utterance: number;
  text: string;
  /**
   * true: the speculative final (the speech has ended; its text is what the final will be unless speech resumes),
   * shown in the final style marked "still listening"; false: a partial, or a speculative final speech made stale
   */
  speculative: boolean;
}

/** Where one recording's utterances go: the item, its numbering and timeline, and who shows partials. */
export interface LiveRecordingContext {
  item_id: string;
  /** the item's next utterance index when this recording started */
  utterance_base: number;
  /** the item's audio length (samples) when this recording started */
  offset_samples: number;
  onPartial?: (partial: LivePartial) => void;
}

export interface LiveUtterancesOptions {
  cutter: UtteranceCutter;
  scheduler: Pick<TranscriptionScheduler, 'partial' | 'partialAllowed' | 'speculate' | 'discardSpeculation'>;
  context: LiveRecordingContext;
  /** start the final this long into a silence, before the cut (default: as soon as the cut's audio, which keeps 96 ms after the speech with the VAD, is complete; null: never) */
  speculateAfterMs?: number | null;
  /** re-transcribe the open utterance for display (default true) */
  partials?: boolean;
  /** no partial before this much of the utterance (default 500 ms) */
  minPartialAudioMs?: number;
  /**
   * whether a speculative final's text ends with a commit phrase and a full stop (the cut may then come at its floor);
   * read for the cut's timing only: its commitments are not kept, and records come from the final at the cut
   */
  endsWithCommitment?: (text: string) => boolean;
}

export interface LiveUtteranceStats {
  partials_requested: number;
  partials_shown: number;
  speculations: number;
  speculations_discarded: number;
  /** speculative finals whose text was shown before the cut */
  speculations_shown: number;
}

/**
 * The live cutter of one recording, with partial text while an utterance is spoken and a speculative final once
 * the silence after it completes the cut's audio (96 ms with the VAD). Pushes return exactly the cutter's utterances (the session transcribes
 * them); the scheduler adopts a speculation whose span and audio equal the cut, so the final text is often
 * ready at the cut. Partials go only to `onPartial`: never to the scheduler's queue of finals, the log or the parser.
 */
export class LiveUtterances {
  readonly stats: LiveUtteranceStats = {
    partials_requested: 0,
    partials_shown: 0,
    speculations: 0,
    speculations_discarded: 0,
    speculations_shown: 0,
  };
  private readonly speculateAfterMs: number | null;
  private readonly partials: boolean;
  private readonly minPartialSamples: number;
  /** the utterance (session numbering) whose final was started speculatively, and the speech end it assumed */
  private speculated: { utterance: number; speechEnd: number; shown: string | null } | null = null;

  constructor(private readonly options: LiveUtterancesOptions) {
    this.speculateAfterMs =
      options.speculateAfterMs === undefined
        ? (options.cutter.keepAfterSamples * 1000) / options.cutter.sampleRate
        : options.speculateAfterMs;
    this.partials = options.partials ?? true;
    this.minPartialSamples = Math.round(((options.minPartialAudioMs ?? 500) * options.cutter.sampleRate) / 1000);
  }

  get mode(): 'vad' | 'energy' {
    return this.options.cutter.mode;
  }

  /** The cutter's open utterance (benchmarks read its speech end). */
  get open(): OpenUtterance | null {
    return this.options.cutter.openUtterance;
  }

  /** Where the cutter puts the cut after the last speech frame, samples. */
  get keepAfterSamples(): number {
    return this.options.cutter.keepAfterSamples;
  }

  push(pcm: Float32Array): Utterance[] {
    const cuts = this.options.cutter.push(pcm);
    if (cuts.length > 0) this.speculated = null;
    this.afterAudio();
    return cuts;
  }

  flush(): Utterance[] {
    this.speculated = null;
    return this.options.cutter.flush();
  }

  private afterAudio(): void {
    const { cutter, scheduler, context } = this.options;
    const open = cutter.openUtterance;
    if (!open) return;
    const utterance = context.utterance_base + open.index;
    const request = (start: number, end: number) => ({
      item_id: context.item_id,
      utterance,
      start_sample: context.offset_samples + start,
      end_sample: context.offset_samples + end,
      pcm: cutter.audio(start, end),
    });
    if (this.speculated && this.speculated.utterance === utterance && open.speechEndSample !== this.speculated.speechEnd) {
      // speech resumed before the cut: the speculated audio is not the utterance
      if (scheduler.discardSpeculation(context.item_id, utterance)) this.stats.speculations_discarded++;
      // its text shown as final goes back to a partial's look until the next partial replaces it
      if (this.speculated.shown !== null)
        context.onPartial?.({ item_id: context.item_id, utterance, text: this.speculated.shown, speculative: false });
      this.speculated = null;
    }
    // (a click or a breath is dropped at its cut: nothing to speculate on)
    if (
      this.speculateAfterMs !== null &&
      open.willBeSent &&
      open.silenceMs >= this.speculateAfterMs &&
      open.cutIfSilentSample <= open.samplesSeen
    ) {
      if (!this.speculated || this.speculated.utterance !== utterance) {
        const speculated: { utterance: number; speechEnd: number; shown: string | null } = {
          utterance,
          speechEnd: open.speechEndSample,
          shown: null,
        };
        const cutterIndex = open.index;
        scheduler.speculate(request(open.startSample, open.cutIfSilentSample), (text, identity) => {
          // a result for a speculation speech already made stale is not shown
          if (this.speculated !== speculated) return;
          speculated.shown = text;
          // the cut listens: a sentence that ended may be cut before the full pause (adaptiveFloorMs)
          const sentence = endsSentence(text);
          cutter.hintSentenceEnd(cutterIndex, sentence, sentence && (this.options.endsWithCommitment?.(text) ?? false));
          this.stats.speculations_shown++;
          context.onPartial?.({ item_id: identity.item_id, utterance: identity.utterance, text, speculative: true });
        });
        this.speculated = speculated;
        this.stats.speculations++;
      }
      return;
    }
    // in a pause nothing new was said, and the speculative final is due: a partial now would only hold the engine
    if (open.silenceMs > 0) return;
    if (!this.partials || open.samplesSeen - open.startSample < this.minPartialSamples || !scheduler.partialAllowed()) return;
    const started = scheduler.partial(request(open.startSample, open.samplesSeen), (text: string, identity: RequestIdentity) => {
      this.stats.partials_shown++;
      context.onPartial?.({ item_id: identity.item_id, utterance: identity.utterance, text, speculative: false });
    });
    if (started) this.stats.partials_requested++;
  }
}
