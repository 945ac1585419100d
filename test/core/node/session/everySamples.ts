import type { Utterance } from '../../../../core/common/engine/utteranceCutter';
import type { LiveCutter } from '../../../../core/node/engine/sessionEngine';

/** Service-logic double (the real engine is exercised by the ingest tests): cuts every `size` samples. */
export function everySamples(size: number): LiveCutter {
  let buffered: number[] = [];
  let start = 0;
  let index = 0;
  const take = (): Utterance => {
    const cut = { index: index++, startSample: start, endSample: start + buffered.length, pcm: Float32Array.from(buffered) };
    start += buffered.length;
    buffered = [];
    return cut;
  };
  return {
    push(chunk) {
      const out: Utterance[] = [];
      for (const s of chunk) {
        buffered.push(s);
        if (buffered.length === size) out.push(take());
      }
      return out;
    },
    flush: () => (buffered.length > 0 ? [take()] : []),
  };
}
