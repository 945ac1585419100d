import { describe, inject } from 'vitest';
import { haveSharedModels } from '../../../../bench/benchAssets';
import type { TestAssets } from '../../../setup/testAssets';

export { FOR_TESTS_MODEL, REPO, SHARED } from '../../../../bench/benchAssets';

export const haveTestModels = haveSharedModels;
if (!haveTestModels) {
  console.warn(
    '[engine tests] SKIPPED: ../shared (the whisper test models, beside the repository) is absent, so there is no model to run the real engine on',
  );
}

/** describe() when the shared test models exist, skipped (with the warning above) when they do not. */
export const describeWithModels: ReturnType<typeof describe.skipIf> = describe.skipIf(!haveTestModels);

/** The generated models and clips the global setup made (test/setup/testAssets.ts); only inside describeWithModels. */
export function testAssets(): TestAssets {
  const assets = inject('testAssets');
  if (!assets) throw new Error('no generated test assets: ../shared is absent (use describeWithModels)');
  return assets;
}

/** Deterministic test audio: a mix of tones and noise that differs with `seed`, at about -20 dBFS. */
export function testClip(seconds: number, seed: number): Float32Array {
  const pcm = new Float32Array(Math.round(seconds * 16000));
  let state = seed >>> 0 || 1;
  const f1 = 150 + 37 * (seed % 11);
  const f2 = 900 + 53 * (seed % 7);
  for (let i = 0; i < pcm.length; i++) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    const t = i / 16000;
    pcm[i] =
      0.06 * Math.sin(2 * Math.PI * f1 * t) * (0.6 + 0.4 * Math.sin(2 * Math.PI * 3 * t)) +
      0.03 * Math.sin(2 * Math.PI * f2 * t) +
      0.02 * (state / 2 ** 32 - 0.5);
  }
  return pcm;
}
