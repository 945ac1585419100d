import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe } from 'vitest';

/** The repository root. */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** Shared test assets beside the repository: whisper test models and the bench-model tool. */
export const SHARED = path.resolve(REPO, '../shared');
export const FOR_TESTS_MODEL = path.join(SHARED, 'models/for-tests-ggml-tiny.en.bin');
const MAKE_BENCH_MODEL = path.join(SHARED, 'tools/make-bench-model.mjs');
/** Generated once into a gitignored cache: tiny.en layout with deterministic random weights. */
export const BENCH_MODEL = path.join(REPO, '.bench/engine/bench-tiny.en.bin');

export const haveTestModels = existsSync(FOR_TESTS_MODEL) && existsSync(MAKE_BENCH_MODEL);
if (!haveTestModels) {
  console.warn(`[engine tests] SKIPPED: ${SHARED} is absent, so there is no whisper model to run the real engine on (see /work/shared/models/README.md)`);
}

/** describe() when the shared test models exist, describe.skip() (with the warning above) when they do not. */
export const describeWithModels: ReturnType<typeof describe.skipIf> = describe.skipIf(!haveTestModels);

let benchModel: Promise<string> | null = null;

/** The random-weight tiny.en-sized model, made once (about 15 s) and reused by every later run. */
export function ensureBenchModel(): Promise<string> {
  benchModel ??= (async () => {
    if (existsSync(BENCH_MODEL)) return BENCH_MODEL;
    await mkdir(path.dirname(BENCH_MODEL), { recursive: true });
    // Several test files may race to make it: each writes its own file and renames it into place atomically.
    const partial = `${BENCH_MODEL}.${process.pid}.partial`;
    try {
      await promisify(execFile)(process.execPath, [MAKE_BENCH_MODEL, FOR_TESTS_MODEL, partial]);
      await rename(partial, BENCH_MODEL);
    } finally {
      await rm(partial, { force: true });
    }
    return BENCH_MODEL;
  })();
  return benchModel;
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
    pcm[i] = 0.06 * Math.sin(2 * Math.PI * f1 * t) * (0.6 + 0.4 * Math.sin(2 * Math.PI * 3 * t)) + 0.03 * Math.sin(2 * Math.PI * f2 * t) + 0.02 * (state / 2 ** 32 - 0.5);
  }
  return pcm;
}
