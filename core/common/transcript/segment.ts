/** A piece of transcript as whisper.cpp returned it, timed on the item's audio timeline. */
export interface Segment {
  t0_ms: number;
  t1_ms: number;
  /** exactly the engine's text: never trimmed, cleaned or re-cased */
  text: string;
  /** token timestamps, when the engine was asked for them */
  tokens?: Array<{ t0_ms: number; t1_ms: number; text: string; p?: number }>;
}
