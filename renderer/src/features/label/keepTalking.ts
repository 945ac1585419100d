/**
 * The optional "Please keep talking" cue: after a stretch of silence while recording, one neutral prompt (the only
 * prompt the think-aloud method allows). Off unless the annotator's settings give a silence length.
 */
export class SilenceWatch {
  private silentSince: number | null = null;
  private cued = false;

  constructor(
    /** cue after this much silence; null: never */
    private readonly afterMs: number | null,
    /** a meter reading at or below this level is silence (the project's silence threshold) */
    private readonly thresholdDbfs: number,
  ) {}

  /**
   * One meter reading at time `nowMs`. Returns the silence length when the cue should show now (once per silent
   * stretch), otherwise null. Speech ends the stretch and hides the cue.
   */
  reading(peakDbfs: number, nowMs: number): number | null {
    if (this.afterMs === null) return null;
    if (peakDbfs > this.thresholdDbfs) {
      this.silentSince = null;
      this.cued = false;
      return null;
    }
    this.silentSince ??= nowMs;
    const silentMs = nowMs - this.silentSince;
    if (!this.cued && silentMs >= this.afterMs) {
      this.cued = true;
      return silentMs;
    }
    return null;
  }

  /** true while the cue is showing (silence since it was given) */
  get showing(): boolean {
    return this.cued;
  }
}

const KEEP_TALKING_KEY = 'aloud.keepTalkingAfterSeconds';

/** The annotator's keep-talking setting from this browser profile: seconds of silence, or null when off (the default). */
export function loadKeepTalkingSeconds(storage: Pick<Storage, 'getItem'>): number | null {
  const value = Number(storage.getItem(KEEP_TALKING_KEY));
  return Number.isFinite(value) && value >= 2 && value <= 120 ? value : null;
}

export function saveKeepTalkingSeconds(storage: Pick<Storage, 'setItem' | 'removeItem'>, seconds: number | null): void {
  if (seconds === null) storage.removeItem(KEEP_TALKING_KEY);
  else storage.setItem(KEEP_TALKING_KEY, String(seconds));
}
