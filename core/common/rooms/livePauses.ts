import { FrameLevelMeter, samplesPerFrame } from '../signals/frameLevels';

/** A pause as it happens: where it started on the item's audio, how long it is so far, and whether speech resumed. */
export interface LivePause {
  start_ms: number;
  ms: number;
  ended: boolean;
}

export interface LivePauseOptions {
  sampleRate: number;
  /** a 20 ms frame is silent below this level (thinkaloud.silence_threshold_dbfs, the hesitation signals' rule) */
  silenceThresholdDbfs: number;
  /** a silent run between speech counts as a pause from this length (thinkaloud.min_pause_ms) */
  minPauseMs: number;
  /** while a pause goes on it is told again this often (default 1000 ms) */
  updateEveryMs?: number;
}

/**
 * Pauses of one recording while it is recorded, by the energy signals' rule (a run of silent 20 ms frames of at least
 * min_pause_ms after speech began): told once the run reaches the minimum, every second after, and with its length
 * when speech resumes. A silence still running when the recording stops is not a pause (the signals agree: trailing
 * silence lies after the last speech). Times are on the item's audio, from the recording's first sample.
 */
export class LivePauseWatch {
  private readonly meter: FrameLevelMeter;
  private readonly frameMs: number;
  private readonly updateEveryMs: number;
  private frame = 0;
  private spoken = false;
  private silentRun = 0;
  private toldAtMs = 0;

  constructor(
    private readonly options: LivePauseOptions,
    /** the recording's first sample on the item's audio */
    readonly offsetSamples: number,
  ) {
    this.meter = new FrameLevelMeter(options.sampleRate);
    this.frameMs = (samplesPerFrame(options.sampleRate) * 1000) / options.sampleRate;
    this.updateEveryMs = options.updateEveryMs ?? 1000;
  }

  /** The next sample on the item's audio this watch expects. */
  get nextSample(): number {
    return this.offsetSamples + this.meter.samplesSeen;
  }

  /** Adds audio; returns the pauses it started, continued or ended, in order. */
  push(pcm: Float32Array): LivePause[] {
    const told: LivePause[] = [];
    const offsetMs = (this.offsetSamples * 1000) / this.options.sampleRate;
    for (const level of this.meter.push(pcm)) {
      const index = this.frame++;
      const runStart = () => Math.round(offsetMs + (index - this.silentRun) * this.frameMs);
      if (level < this.options.silenceThresholdDbfs) {
        if (!this.spoken) continue;
        this.silentRun++;
        const ms = this.silentRun * this.frameMs;
        if (ms >= this.options.minPauseMs && (this.toldAtMs === 0 || ms - this.toldAtMs >= this.updateEveryMs)) {
          this.toldAtMs = ms;
          told.push({ start_ms: Math.round(offsetMs + (index + 1 - this.silentRun) * this.frameMs), ms: Math.round(ms), ended: false });
        }
        continue;
      }
      this.spoken = true;
      if (this.silentRun > 0 && this.silentRun * this.frameMs >= this.options.minPauseMs) {
        told.push({ start_ms: runStart(), ms: Math.round(this.silentRun * this.frameMs), ended: true });
      }
      this.silentRun = 0;
      this.toldAtMs = 0;
    }
    return told;
  }
}
