/**
 * What the engine benchmarks and tests need, made once into the gitignored .bench/ folder: the tiny.en-sized
 * random-weight model, its quantized variants (whisper.cpp's own quantizer) and an f32 copy, a spoken clip
 * (espeak-ng + sox), and whisper.cpp's own tools built natively from nodejs-whisper's 1.9.1 sources (nothing
 * built here is committed). The test suite makes its share once, before any test runs (test/setup/testAssets.ts).
 * Every file is written under a temporary name and renamed into place, so a reader never sees a partial one.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readGgmlPreamble, byteSourceOf, parseTensorRecord, MAX_TENSOR_RECORD_HEADER_BYTES } from '../core/common/models/ggmlFormat';
import { leftOutFeatures, loadWhisperAddon } from '../core/node/engine/whisperAddon';

const run = promisify(execFile);

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_DIR = path.join(REPO, '.bench');
export const SHARED = path.resolve(REPO, '../shared');
export const FOR_TESTS_MODEL = path.join(SHARED, 'models/for-tests-ggml-tiny.en.bin');
const MAKE_BENCH_MODEL = path.join(SHARED, 'tools/make-bench-model.mjs');

/** true when ../shared holds the for-tests model and the bench-model tool */
export const haveSharedModels = existsSync(FOR_TESTS_MODEL) && existsSync(MAKE_BENCH_MODEL);

/** A temporary name beside `file`, unique to this call: two makers of one asset (processes or calls) never share one. */
function partialNameFor(file: string, suffix = '.partial'): string {
  return `${file}.${process.pid}-${randomUUID().slice(0, 8)}${suffix}`;
}

/**
 * The tiny.en-sized random-weight model at `file` (about 78 MB, 15 s to make). Written under a temporary name
 * and renamed into place, so concurrent callers never read a partial file.
 */
export async function ensureBenchModel(file = path.join(BENCH_DIR, 'engine/bench-tiny.en.bin')): Promise<string> {
  if (existsSync(file)) return file;
  if (!haveSharedModels)
    throw new Error(
      `${FOR_TESTS_MODEL} or ${MAKE_BENCH_MODEL} is absent: ../shared beside the repository holds the for-tests model the bench model is made from`,
    );
  await mkdir(path.dirname(file), { recursive: true });
  const partial = partialNameFor(file);
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
  const raw = partialNameFor(file, '.espeak.wav');
  const partial = partialNameFor(file, '.partial.wav');
  try {
    await run('espeak-ng', ['-s', '150', '-w', raw, text]);
    await run('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', partial, 'pad', '0', String(seconds), 'trim', '0', String(seconds)]);
    await rename(partial, file);
  } catch (e) {
    throw new Error(
      `making ${path.basename(file)} needs espeak-ng and sox (Debian: apt-get install espeak-ng sox): ${(e as Error).message.split('\n')[0]}`,
    );
  } finally {
    await rm(raw, { force: true });
    await rm(partial, { force: true });
  }
  return file;
}

export interface WhisperCpp19Tools {
  /** whisper-cli: one process (and one model load) per clip, as whisper-node runs it */
  cli: string;
  /** whisper-bench: whisper.cpp's own encoder benchmark */
  bench: string;
}

/** The compiler flags the engine's own build used to leave out what this machine does not allow (AMX), if any. */
function leftOutFlags(): string[] {
  try {
    return leftOutFeatures(loadWhisperAddon()).flatMap((l) => l.flags ?? []);
  } catch {
    return [];
  }
}

/**
 * whisper.cpp 1.9.1's own tools built with its CMake defaults (native, OpenMP) from
 * node_modules/nodejs-whisper/cpp/whisper.cpp into .bench/whisper.cpp-1.9 (a few minutes on 2 cores). What the
 * engine's build left out on this machine (AMX where the OS does not allow it) is left out here too.
 */
export async function ensureWhisperCpp19(log: (line: string) => void = () => undefined): Promise<WhisperCpp19Tools> {
  const src = path.join(REPO, 'node_modules/nodejs-whisper/cpp/whisper.cpp');
  const without = leftOutFlags();
  const dir = path.join(BENCH_DIR, without.length > 0 ? 'whisper.cpp-1.9-without' : 'whisper.cpp-1.9');
  const bin = path.join(dir, 'bin');
  const tools = { cli: path.join(bin, 'whisper-cli'), bench: path.join(bin, 'whisper-bench') };
  if (existsSync(tools.cli) && existsSync(tools.bench)) return tools;
  if (!existsSync(path.join(src, 'CMakeLists.txt'))) throw new Error(`${src} is missing: run npm install`);
  log(
    `building whisper.cpp 1.9.1's own tools natively into ${dir}${without.length > 0 ? ` without ${without.join(' ')}` : ''} (a few minutes)…`,
  );
  // -march=native first, then what this machine does not allow (GGML_NATIVE would put -march=native last)
  const native =
    without.length > 0
      ? ['-DGGML_NATIVE=OFF', `-DCMAKE_C_FLAGS=-march=native ${without.join(' ')}`, `-DCMAKE_CXX_FLAGS=-march=native ${without.join(' ')}`]
      : ['-DGGML_NATIVE=ON'];
  try {
    await run(
      'cmake',
      [
        '-S',
        src,
        '-B',
        dir,
        '-DCMAKE_BUILD_TYPE=Release',
        ...native,
        '-DBUILD_SHARED_LIBS=OFF',
        '-DWHISPER_BUILD_TESTS=OFF',
        '-DWHISPER_SDL2=OFF',
        `-DCMAKE_RUNTIME_OUTPUT_DIRECTORY=${bin}`,
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    await run('cmake', ['--build', dir, '-j', String(availableParallelism()), '--target', 'whisper-cli', 'whisper-bench'], {
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (e) {
    throw new Error(
      `building whisper.cpp 1.9.1's tools failed (needs cmake and a C++ compiler): ${(e as Error).message.split('\n').slice(-3).join(' ')}`,
    );
  }
  return tools;
}

const WHISPER_TREE = path.join(REPO, 'node_modules/nodejs-whisper/cpp/whisper.cpp');
/** whisper.cpp's quantize example and the part of ggml it uses (no CPU backend: quantizing runs no graph). */
const QUANTIZE_SOURCES = [
  'examples/quantize/quantize.cpp',
  'examples/common-ggml.cpp',
  'examples/common.cpp',
  'ggml/src/ggml.c',
  'ggml/src/ggml.cpp',
  'ggml/src/ggml-quants.c',
  'ggml/src/ggml-alloc.c',
  'ggml/src/ggml-backend.cpp',
  'ggml/src/ggml-backend-meta.cpp',
  'ggml/src/ggml-backend-reg.cpp',
  'ggml/src/ggml-backend-dl.cpp',
  'ggml/src/ggml-threading.cpp',
  'ggml/src/gguf.cpp',
];

/**
 * whisper.cpp 1.9.1's own quantizer (examples/quantize), compiled straight from its sources into .bench/tools with
 * NDEBUG as its Release build has it: about a minute of compiling, where CMake would build all of ggml's CPU backend
 * first. Its output is byte for byte that of the CMake-built whisper-quantize.
 */
export async function ensureQuantizeTool(log: (line: string) => void = () => undefined): Promise<string> {
  const tool = path.join(BENCH_DIR, 'tools/whisper-quantize');
  if (existsSync(tool)) return tool;
  if (!existsSync(path.join(WHISPER_TREE, 'examples/quantize/quantize.cpp')))
    throw new Error(`${WHISPER_TREE} is missing: run npm install`);
  log("compiling whisper.cpp 1.9.1's quantizer (about a minute)…");
  const objects = partialNameFor(path.join(BENCH_DIR, 'tools/quantize'), '.objects');
  await mkdir(objects, { recursive: true });
  const include = ['ggml/include', 'ggml/src', 'examples', 'include'].map((d) => `-I${path.join(WHISPER_TREE, d)}`);
  const compile = (source: string): Promise<string> => {
    const cpp = source.endsWith('.cpp');
    const object = path.join(objects, `${path.basename(source).replace(/\./g, '_')}.o`);
    const args = [
      cpp ? '-std=c++17' : '-std=c11',
      '-O1',
      '-w',
      '-DNDEBUG',
      '-D_GNU_SOURCE',
      '-DGGML_VERSION="1.9.1"',
      '-DGGML_COMMIT="nodejs-whisper"',
      ...include,
      '-c',
      path.join(WHISPER_TREE, source),
      '-o',
      object,
    ];
    return run(cpp ? (process.env.CXX ?? 'c++') : (process.env.CC ?? 'cc'), args, { maxBuffer: 16 * 1024 * 1024 }).then(() => object);
  };
  try {
    const built: string[] = [];
    const queue = [...QUANTIZE_SOURCES];
    await Promise.all(
      Array.from({ length: availableParallelism() }, async () => {
        for (let source = queue.shift(); source !== undefined; source = queue.shift()) built.push(await compile(source));
      }),
    );
    const partial = partialNameFor(tool);
    await run(process.env.CXX ?? 'c++', [...built, '-o', partial, '-lpthread', '-lm', '-ldl']);
    await rename(partial, tool);
  } catch (e) {
    throw new Error(
      `compiling whisper.cpp's quantizer failed (needs a C/C++ compiler: apt-get install build-essential): ${(e as Error).message.split('\n').slice(0, 3).join(' ')}`,
    );
  } finally {
    await rm(objects, { recursive: true, force: true });
  }
  return tool;
}

/** The weight types whisper.cpp's quantizer writes. */
export type QuantizedType = 'q8_0' | 'q5_1' | 'q4_0' | 'q4_1' | 'q4_k' | 'q5_k' | 'q6_k';

/**
 * The bench model quantized with whisper.cpp's own quantizer: same random weights, the cost of the quantized
 * kernels. q4_k, q5_k and q6_k come out with rows that are not whole 256-value blocks (tiny's rows are 384 values):
 * a file whisper.cpp refuses, as users would get it.
 */
export async function ensureQuantizedBenchModel(type: QuantizedType, log: (line: string) => void = () => undefined): Promise<string> {
  const file = path.join(BENCH_DIR, `engine/bench-tiny.en-${type}.bin`);
  if (existsSync(file)) return file;
  const f16 = await ensureBenchModel();
  const quantize = await ensureQuantizeTool(log);
  const partial = partialNameFor(file);
  try {
    await run(quantize, [f16, partial, type], { maxBuffer: 64 * 1024 * 1024 });
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
  return file;
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? Number.NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/**
 * The bench model with every f16 tensor widened to f32 and the header's ftype 0: an f32 model as
 * convert-pt-to-ggml.py writes one with use-f32, which whisper.cpp 1.9.1 loads and then aborts on (its convolution
 * takes f16 kernels only).
 */
export async function ensureF32BenchModel(): Promise<string> {
  const file = path.join(BENCH_DIR, 'engine/bench-tiny.en-f32.bin');
  if (existsSync(file)) return file;
  const f16 = await readFile(await ensureBenchModel());
  const preamble = await readGgmlPreamble(byteSourceOf(f16), 'bench-tiny.en.bin');
  const header = Buffer.from(f16.subarray(0, preamble.tensors_offset));
  header.writeInt32LE(0, 44); // ftype: all f32
  const parts: Buffer[] = [header];
  for (let offset = preamble.tensors_offset; offset < f16.length;) {
    const record = parseTensorRecord(f16.subarray(offset, offset + MAX_TENSOR_RECORD_HEADER_BYTES), offset, 'bench-tiny.en.bin');
    const recordHeader = Buffer.from(f16.subarray(offset, record.data_offset));
    if (record.type === 'f16') {
      recordHeader.writeInt32LE(0, 8);
      const count = (record.end - record.data_offset) / 2;
      const data = Buffer.alloc(count * 4);
      for (let i = 0; i < count; i++) data.writeFloatLE(halfToFloat(f16.readUInt16LE(record.data_offset + 2 * i)), 4 * i);
      parts.push(recordHeader, data);
    } else {
      parts.push(recordHeader, f16.subarray(record.data_offset, record.end));
    }
    offset = record.end;
  }
  const partial = partialNameFor(file);
  try {
    await writeFile(partial, Buffer.concat(parts));
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
  return file;
}
