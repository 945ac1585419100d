import { FRAME_MS, FrameLevelMeter } from '../signals/frameLevels';
import { DEFAULT_SPEECH_THRESHOLD, SPEECH_HYSTERESIS, type SpeechProbe } from '../signals/speechProbe';
import { AUDIO_SAMPLE_RATE } from '../audio/sampleRate';

/** A stretch of one recording to transcribe; samples count from the recording's first sample. */
export interface Utterance {
  /** 0, 1, 2, … in the order utterances end */
  index: number;
  startSample: number;
  endSample: number;
  /** a copy of samples [startSample, endSample) */
  pcm: Float32Array;
}

/** The utterance being spoken now (speech seen, not cut yet): what partial transcripts and speculation need. */
export interface OpenUtterance {
  /** the index it gets when it is cut (if it has enough speech) */
  index: number;
  startSample: number;
  /** end of its last speech frame so far */
  speechEndSample: number;
  /** samples pushed so far */
  samplesSeen: number;
  /** silence since its last speech frame, ms */
  silenceMs: number;
  /** where the cut will fall if no more speech comes (speechEndSample + keepAfterSpeechMs) */
  cutIfSilentSample: number;
  /** whether it has enough voiced audio (minVoicedMs) to be sent when cut; a click or a breath has not */
  willBeSent: boolean;
}

export interface UtteranceCutterOptions {
  /**
   * energy cutter (no `speech` probe): a 20 ms frame is silent when its level (dBFS) is below this, the
   * hesitation signals' rule and threshold
   */
  silenceThresholdDbfs: number;
  /**
   * voice activity from a model (Silero VAD): frames are the probe's windows, speech is probability ≥
   * speechThreshold (and goes on while ≥ speechThreshold − 0.15), so steady noise is not speech. Without
   * it the cutter is the energy cutter.
   */
  speech?: SpeechProbe | null;
  /** default 0.5 (Silero's) */
  speechThreshold?: number;
  sampleRate?: number;
  /** silence that ends an utterance (default 600 ms with the energy rule, 300 ms with a speech probe) */
  minSilenceMs?: number;
  /** longest utterance; a longer stretch of speech is cut at its quietest frame of the last 2 s (default 25 s) */
  maxUtteranceMs?: number;
  /** audio kept before the first voiced frame, so soft word onsets are not clipped (default 200 ms) */
  keepBeforeSpeechMs?: number;
  /**
   * silence kept after the last voiced frame, so word endings are not clipped (default 300 ms; 96 ms with a speech probe:
   * three Silero windows, three times whisper.cpp's own 30 ms pad after Silero's speech, whose windows stay speech through
   * a word's fading end; the speculative final starts once this much silence is heard, so it is what the annotator waits)
   */
  keepAfterSpeechMs?: number;
  /** an utterance with less voiced audio than this is a click or a breath and is not sent (default 60 ms) */
  minVoicedMs?: number;
  /**
   * a cut that listens (speech probe only): the silence needed may drop from minSilenceMs to this floor once the
   * speech has ended a sentence (`hintSentenceEnd`, from the speculative final's punctuation), the silence is clean
   * (the probe's mean speech probability since the last voiced frame below 0.15), and it is longer than this
   * speaker's own pauses inside utterances (their 90th percentile + 40 ms; before 3 such pauses, never early). A
   * sentence that ends right after a commit phrase (the label is given: the thought is complete) is cut at the floor
   * over a clean silence whatever the speaker's pauses. Default: none (fixed).
   */
  adaptiveFloorMs?: number | null;
}

/** Silence kept after the speech with a speech probe: three 32 ms Silero windows (see keepAfterSpeechMs). */
export const VAD_KEEP_AFTER_SPEECH_MS = 96;

/** Speech probability over a pause above which the pause may be a breath or a soft sound of speech: no early cut. */
const CLEAN_SILENCE_PROBABILITY = 0.15;
/** An early cut waits this much longer than the speaker's usual pause inside an utterance (90th percentile). */
const PAUSE_MARGIN_MS = 40;
/** Pauses inside utterances the speaker must have made before a cut may come early. */
const MIN_PAUSES_KNOWN = 3;
/** Pauses inside utterances remembered per recording (the most recent). */
const PAUSES_KEPT = 64;

/** Whether a speculative final's text ends a sentence: a full stop, question or exclamation mark (closing quotes or brackets after); a trailing-off "..." does not. */
export function endsSentence(text: string): boolean {
  return /[.?!]["'”’)\]]*\s*$/u.test(text) && !/\.\.\.["'”’)\]]*\s*$/u.test(text);
}

/** How far back a forced cut (at maxUtteranceMs) looks for the quietest frame. */
const FORCED_CUT_SEARCH_MS = 2000;

function checkMs(name: string, value: number, min: number): number {
  if (!Number.isFinite(value) || value < min)
    throw new RangeError(`utterance cutter option ${name} must be a number ≥ ${min} (got ${value})`);
  return value;
}

/**
 * Cuts a recording into utterances while it is recorded. Feed 16 kHz chunks of any size to `push`; each
 * utterance is returned as soon as it ends, and `flush()` at recording stop returns the last one.
 *
 * Frames are the 20 ms grid of the hesitation signals (FrameLevelMeter) with the energy rule, or the speech
 * probe's windows (32 ms for Silero) with voice activity. Where cuts fall, on that grid:
 * - an utterance starts keepBeforeSpeechMs before its first voiced frame (never before the previous cut);
 * - it ends after a silence of at least minSilenceMs: the cut is keepAfterSpeechMs after the last voiced frame;
 * - speech longer than maxUtteranceMs is cut at the end of the quietest frame of its last 2 s, and the next
 *   utterance starts right there, so no sample of continuous speech is lost;
 * - silence between utterances is never sent; utterances with under minVoicedMs of voiced frames are dropped.
 */
export class UtteranceCutter {
  readonly sampleRate: number;
  /** 'vad': speech probability from the probe; 'energy': frame level against silenceThresholdDbfs */
  readonly mode: 'vad' | 'energy';
  private readonly threshold: number;
  private readonly probe: SpeechProbe | null;
  private readonly speechThreshold: number;
  /** VAD mode: samples waiting for a whole probe window */
  private pendingWindow: Float32Array;
  private pendingFill = 0;
  private framesDone = 0;
  private seen = 0;
  private readonly frameSize: number;
  private readonly silenceFrames: number;
  private readonly maxSamples: number;
  private readonly keepBefore: number;
  private readonly keepAfter: number;
  private readonly minVoicedFrames: number;
  private readonly searchFrames: number;
  private readonly adaptiveFloorFrames: number | null;
  /** pauses (frames) inside utterances of this recording that speech resumed after, the latest PAUSES_KEPT */
  private readonly pauses: number[] = [];
  /** speech probability summed over the frames since the last voiced one */
  private silentProbabilitySum = 0;
  /** the open utterance whose speech, as transcribed so far, ends a sentence (index), or null */
  private sentenceEndOf: number | null = null;
  /** that sentence ends right after a commit phrase */
  private sentenceGivesLabel = false;
  private readonly meter: FrameLevelMeter;

  /** samples from absolute index bufferStart; only what a coming utterance may still need is kept */
  private buffer = new Float32Array(AUDIO_SAMPLE_RATE * 4);
  private bufferStart = 0;
  private bufferLength = 0;
  /** levels of the last frames, by frame index modulo the ring size (forced-cut search and resume) */
  private readonly recentLevels: Float64Array;

  private speechStartFrame: number | null = null;
  private lastVoicedFrame = -1;
  private voicedFrames = 0;
  private utteranceStart = 0;
  private lastCutEnd = 0;
  private nextIndex = 0;
  private flushed = false;

  constructor(options: UtteranceCutterOptions) {
    this.sampleRate = options.sampleRate ?? AUDIO_SAMPLE_RATE;
    if (!Number.isFinite(options.silenceThresholdDbfs)) {
      throw new RangeError(`utterance cutter option silenceThresholdDbfs must be a number (got ${options.silenceThresholdDbfs})`);
    }
    this.threshold = options.silenceThresholdDbfs;
    this.probe = options.speech ?? null;
    this.mode = this.probe ? 'vad' : 'energy';
    this.speechThreshold = options.speechThreshold ?? DEFAULT_SPEECH_THRESHOLD;
    if (!(this.speechThreshold > 0 && this.speechThreshold < 1))
      throw new RangeError(`utterance cutter option speechThreshold must be between 0 and 1 (got ${this.speechThreshold})`);
    this.meter = new FrameLevelMeter(this.sampleRate);
    this.frameSize = this.probe ? this.probe.windowSamples : this.meter.frameSize;
    this.pendingWindow = new Float32Array(this.probe ? this.frameSize : 0);
    const frameMs = (this.frameSize * 1000) / this.sampleRate;
    const ms = (value: number): number => Math.round((value * this.sampleRate) / 1000);
    const minSilenceMs = checkMs('minSilenceMs', options.minSilenceMs ?? (this.probe ? 300 : 600), FRAME_MS);
    const maxUtteranceMs = checkMs('maxUtteranceMs', options.maxUtteranceMs ?? 25_000, FORCED_CUT_SEARCH_MS + FRAME_MS);
    const keepAfterMs = checkMs('keepAfterSpeechMs', options.keepAfterSpeechMs ?? (this.probe ? VAD_KEEP_AFTER_SPEECH_MS : 300), 0);
    if (keepAfterMs >= minSilenceMs)
      throw new RangeError(`utterance cutter option keepAfterSpeechMs (${keepAfterMs}) must be below minSilenceMs (${minSilenceMs})`);
    this.silenceFrames = Math.ceil(minSilenceMs / frameMs);
    const floorMs = options.adaptiveFloorMs ?? null;
    if (floorMs !== null && (checkMs('adaptiveFloorMs', floorMs, 0) > minSilenceMs || floorMs <= keepAfterMs)) {
      throw new RangeError(
        `utterance cutter option adaptiveFloorMs (${floorMs}) must be above keepAfterSpeechMs (${keepAfterMs}) and at most minSilenceMs (${minSilenceMs})`,
      );
    }
    this.adaptiveFloorFrames = floorMs !== null && this.probe ? Math.ceil(floorMs / frameMs) : null;
    this.maxSamples = ms(maxUtteranceMs);
    this.keepBefore = ms(checkMs('keepBeforeSpeechMs', options.keepBeforeSpeechMs ?? 200, 0));
    this.keepAfter = ms(keepAfterMs);
    this.minVoicedFrames = Math.ceil(checkMs('minVoicedMs', options.minVoicedMs ?? 60, 0) / frameMs);
    this.searchFrames = Math.round(FORCED_CUT_SEARCH_MS / frameMs);
    this.recentLevels = new Float64Array(Math.ceil(this.maxSamples / this.frameSize) + 2);
  }

  /** Samples pushed so far. */
  get samplesSeen(): number {
    return this.seen;
  }

  /** Silence kept after the last speech frame, samples (an utterance cut by silence ends this far after its speech). */
  get keepAfterSamples(): number {
    return this.keepAfter;
  }

  /** The utterance open now, or null between utterances. */
  get openUtterance(): OpenUtterance | null {
    if (this.speechStartFrame === null) return null;
    const speechEnd = (this.lastVoicedFrame + 1) * this.frameSize;
    return {
      index: this.nextIndex,
      startSample: this.utteranceStart,
      speechEndSample: speechEnd,
      samplesSeen: this.seen,
      silenceMs: ((this.framesDone * this.frameSize - speechEnd) * 1000) / this.sampleRate,
      cutIfSilentSample: speechEnd + this.keepAfter,
      willBeSent: this.voicedFrames >= this.minVoicedFrames,
    };
  }

  /** A copy of samples [start, end) of the recording, while the cutter still holds them (the open utterance's). */
  audio(start: number, end: number): Float32Array {
    if (start < this.bufferStart || end > this.bufferStart + this.bufferLength || end < start) {
      throw new RangeError(
        `utterance cutter: samples ${start}–${end} are not held (held: ${this.bufferStart}–${this.bufferStart + this.bufferLength})`,
      );
    }
    return this.buffer.slice(start - this.bufferStart, end - this.bufferStart);
  }

  /** Adds recorded samples; returns the utterances that ended within them. */
  push(chunk: Float32Array): Utterance[] {
    if (this.flushed) throw new Error('utterance cutter: push after flush (use a new cutter for a new recording)');
    if (!(chunk instanceof Float32Array)) throw new TypeError('utterance cutter: chunk must be a Float32Array');
    this.append(chunk);
    this.seen += chunk.length;
    const firstFrame = this.framesDone;
    const levels = this.probe ? this.probeFrames(chunk) : this.meter.push(chunk);
    const out: Utterance[] = [];
    for (let i = 0; i < levels.length; i++) {
      this.framesDone = firstFrame + i + 1;
      this.addFrame(firstFrame + i, levels[i]!, out);
    }
    this.trim();
    return out;
  }

  /** VAD mode: the speech probability of every whole probe window this chunk completes. */
  private probeFrames(chunk: Float32Array): ArrayLike<number> {
    const size = this.frameSize;
    const whole = Math.floor((this.pendingFill + chunk.length) / size);
    if (whole === 0) {
      this.pendingWindow.set(chunk, this.pendingFill);
      this.pendingFill += chunk.length;
      return [];
    }
    const windows = new Float32Array(whole * size);
    windows.set(this.pendingWindow.subarray(0, this.pendingFill));
    const used = whole * size - this.pendingFill;
    windows.set(chunk.subarray(0, used), this.pendingFill);
    this.pendingFill = chunk.length - used;
    this.pendingWindow.set(chunk.subarray(used));
    const probs = this.probe!.probabilities(windows);
    if (probs.length !== whole) throw new Error(`speech probe returned ${probs.length} probabilities for ${whole} windows`);
    return probs;
  }

  private isVoiced(level: number): boolean {
    if (!this.probe) return level >= this.threshold;
    // Silero's hysteresis: once speaking, a dip below the start threshold is still speech.
    return level >= (this.speechStartFrame === null ? this.speechThreshold : this.speechThreshold - SPEECH_HYSTERESIS);
  }

  /** At recording stop: the utterance still open, if it has speech. The cutter takes no more audio after. */
  flush(): Utterance[] {
    if (this.flushed) return [];
    this.flushed = true;
    if (this.speechStartFrame === null) return [];
    let speechEnd = (this.lastVoicedFrame + 1) * this.frameSize;
    if (this.probe) {
      // the samples after the last whole window belong to speech that was still going on
      if (this.lastVoicedFrame === this.framesDone - 1) speechEnd = this.samplesSeen;
    } else {
      const pending = this.meter.pendingLevel();
      if (pending !== null && pending >= this.threshold) {
        speechEnd = this.samplesSeen;
        this.voicedFrames++;
      }
    }
    const out: Utterance[] = [];
    this.emit(Math.min(this.samplesSeen, speechEnd + this.keepAfter), out);
    return out;
  }

  private addFrame(frame: number, level: number, out: Utterance[]): void {
    const voiced = this.isVoiced(level);
    this.recentLevels[frame % this.recentLevels.length] = level;
    const frameEnd = (frame + 1) * this.frameSize;
    if (this.speechStartFrame === null) {
      if (!voiced) return;
      this.speechStartFrame = frame;
      this.lastVoicedFrame = frame;
      this.voicedFrames = 1;
      this.utteranceStart = Math.max(this.lastCutEnd, frame * this.frameSize - this.keepBefore);
      return;
    }
    if (voiced) {
      const paused = frame - this.lastVoicedFrame - 1;
      if (paused > 0) {
        this.pauses.push(paused);
        if (this.pauses.length > PAUSES_KEPT) this.pauses.shift();
        // speech went on: what was transcribed before no longer ends the utterance
        this.sentenceEndOf = null;
        this.sentenceGivesLabel = false;
      }
      this.silentProbabilitySum = 0;
      this.lastVoicedFrame = frame;
      this.voicedFrames++;
    } else this.silentProbabilitySum += level;
    if (frame - this.lastVoicedFrame >= this.silenceFramesNeeded(frame - this.lastVoicedFrame)) {
      this.emit((this.lastVoicedFrame + 1) * this.frameSize + this.keepAfter, out);
    } else if (frameEnd - this.utteranceStart >= this.maxSamples) {
      this.forcedCut(frame, out);
    }
  }

  /**
   * The speculative final of the open utterance `index` ends (or does not end) a sentence, and that sentence ends
   * right after a commit phrase (givesLabel): with adaptiveFloorMs, a clean silence longer than the speaker's pauses
   * (any clean silence after a commit phrase) then cuts before minSilenceMs. Ignored for any other utterance.
   */
  hintSentenceEnd(index: number, endsSentence: boolean, givesLabel = false): void {
    if (this.speechStartFrame === null || index !== this.nextIndex) return;
    this.sentenceEndOf = endsSentence ? index : null;
    this.sentenceGivesLabel = endsSentence && givesLabel;
  }

  /** The silence (frames) that cuts the open utterance now: minSilenceMs, or less when the cut listens (adaptiveFloorMs). */
  private silenceFramesNeeded(silentFrames: number): number {
    if (this.adaptiveFloorFrames === null || this.sentenceEndOf !== this.nextIndex) return this.silenceFrames;
    if (this.silentProbabilitySum / Math.max(1, silentFrames) >= CLEAN_SILENCE_PROBABILITY) return this.silenceFrames;
    // the label was just given and the sentence ended: the speaker's pauses inside thoughts do not apply
    if (this.sentenceGivesLabel) return this.adaptiveFloorFrames;
    // until the speaker has paused a few times inside utterances, their pauses are unknown: the full silence
    if (this.pauses.length < MIN_PAUSES_KNOWN) return this.silenceFrames;
    const sorted = [...this.pauses].sort((a, b) => a - b);
    const p90 = sorted[Math.min(sorted.length - 1, Math.round(0.9 * (sorted.length - 1)))]!;
    const margin = Math.ceil(PAUSE_MARGIN_MS / ((this.frameSize * 1000) / this.sampleRate));
    return Math.min(this.silenceFrames, Math.max(this.adaptiveFloorFrames, p90 + margin));
  }

  /** The utterance reached maxUtteranceMs: cut after the quietest recent frame, carry on with what follows. */
  private forcedCut(frame: number, out: Utterance[]): void {
    const firstCandidate = Math.max(this.speechStartFrame!, frame - this.searchFrames + 1, Math.ceil(this.utteranceStart / this.frameSize));
    let cutFrame = frame;
    let quietest = Infinity;
    for (let f = frame; f >= firstCandidate; f--) {
      const level = this.recentLevels[f % this.recentLevels.length]!;
      if (level < quietest) {
        quietest = level;
        cutFrame = f;
      }
    }
    const cutEnd = (cutFrame + 1) * this.frameSize;
    const carried: number[] = [];
    for (let f = cutFrame + 1; f <= frame; f++) if (this.isVoiced(this.recentLevels[f % this.recentLevels.length]!)) carried.push(f);
    // The frames after the cut are not counted in the closing utterance.
    this.voicedFrames -= carried.length;
    this.emit(cutEnd, out);
    if (carried.length > 0) {
      this.speechStartFrame = carried[0]!;
      this.lastVoicedFrame = carried[carried.length - 1]!;
      this.voicedFrames = carried.length;
      this.utteranceStart = cutEnd;
    }
  }

  /** Ends the open utterance at `end` (absolute sample); sends it when it has enough voiced audio. */
  private emit(end: number, out: Utterance[]): void {
    const start = this.utteranceStart;
    if (this.voicedFrames >= this.minVoicedFrames && end > start) {
      const pcm = this.buffer.slice(start - this.bufferStart, end - this.bufferStart);
      out.push({ index: this.nextIndex++, startSample: start, endSample: end, pcm });
    }
    this.lastCutEnd = end;
    this.sentenceEndOf = null;
    this.sentenceGivesLabel = false;
    this.silentProbabilitySum = 0;
    this.speechStartFrame = null;
    this.lastVoicedFrame = -1;
    this.voicedFrames = 0;
  }

  private append(chunk: Float32Array): void {
    const needed = this.bufferLength + chunk.length;
    if (needed > this.buffer.length) {
      const grown = new Float32Array(Math.max(needed, this.buffer.length * 2));
      grown.set(this.buffer.subarray(0, this.bufferLength));
      this.buffer = grown;
    }
    this.buffer.set(chunk, this.bufferLength);
    this.bufferLength = needed;
  }

  /** Drops samples no coming utterance can need: silence before the last keepBeforeSpeechMs. */
  private trim(): void {
    const keepFrom =
      this.speechStartFrame !== null ? this.utteranceStart : Math.max(this.lastCutEnd, this.framesDone * this.frameSize - this.keepBefore);
    const drop = keepFrom - this.bufferStart;
    if (drop < this.sampleRate) return;
    this.buffer.copyWithin(0, drop, this.bufferLength);
    this.bufferLength -= drop;
    this.bufferStart = keepFrom;
  }
}
