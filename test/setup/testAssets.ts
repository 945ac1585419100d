/**
 * Vitest global setup: the generated test assets (the tiny.en-sized random-weight model, its quantized variants made by
 * whisper.cpp's own quantizer, an f32 copy, a spoken clip) are made once here, before any suite runs, with a limit
 * of their own and a line of progress: never inside a test's timeout. A fresh clone makes them; a later run finds
 * them in .bench/ (each written whole under a temporary name, so a run that was stopped leaves no partial file).
 * Tests read their paths with `testAssets()` (test/core/node/engine/engineTestModels.ts).
 */
import type { TestProject } from 'vitest/node';
import {
  ensureBenchModel,
  ensureF32BenchModel,
  ensureQuantizedBenchModel,
  ensureSpokenClip,
  BENCH_DIR,
  haveSharedModels,
  type QuantizedType,
} from '../../bench/benchAssets';
import path from 'node:path';

export interface TestAssets {
  /** f16, random weights, tiny.en's shape (about 78 MB) */
  benchModel: string;
  /** the same weights through whisper.cpp's quantizer */
  quantized: Record<QuantizedType, string>;
  /** the same weights widened to f32 (ftype 0) */
  f32Model: string;
  /** espeak-ng speech, 16 kHz mono, exactly 5 s */
  spokenClip5s: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** null when ../shared (the for-tests model) is absent: the engine suites then skip */
    testAssets: TestAssets | null;
  }
}

/** The whole set must be ready within this, even on a busy 2-core machine (a fresh clone takes 2–4 minutes). */
const LIMIT_MS = 20 * 60_000;
const QUANTIZED: readonly QuantizedType[] = ['q8_0', 'q5_1', 'q4_0', 'q4_1', 'q4_k', 'q5_k', 'q6_k'];

async function makeAll(say: (line: string) => void): Promise<TestAssets> {
  const step = async <T>(what: string, make: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    const made = await make();
    say(`${what} ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return made;
  };
  const benchModel = await step('bench model (f16)', () => ensureBenchModel());
  const quantized = {} as Record<QuantizedType, string>;
  for (const type of QUANTIZED) quantized[type] = await step(`bench model (${type})`, () => ensureQuantizedBenchModel(type, say));
  const f32Model = await step('bench model (f32)', () => ensureF32BenchModel());
  const spokenClip5s = await step('spoken clip (5 s)', () =>
    ensureSpokenClip(path.join(BENCH_DIR, 'utterance-5s.wav'), 'Hmm, this reply is, um, kind of polite I guess. I label this polite.', 5),
  );
  return { benchModel, quantized, f32Model, spokenClip5s };
}

export default async function setup(project: TestProject): Promise<void> {
  const say = (line: string): void => void process.stderr.write(`[test assets] ${line}\n`);
  if (!haveSharedModels) {
    say('../shared (the for-tests whisper model) is absent: no generated models; the engine suites skip');
    project.provide('testAssets', null);
    return;
  }
  const started = Date.now();
  say(`making what the suites need in ${BENCH_DIR} (once; later runs reuse it)…`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `the generated test assets were not ready within ${LIMIT_MS / 60_000} minutes (see the lines above for the last one made)`,
          ),
        ),
      LIMIT_MS,
    );
  });
  try {
    project.provide('testAssets', await Promise.race([makeAll(say), limit]));
  } finally {
    clearTimeout(timer);
  }
  say(`all ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
