/**
 * Engine benchmarks (figures only; nothing is asserted). Run: npm run bench:engine [-- --runs N] [-- --json]
 *
 * With the tiny.en-sized random-weight model (same compute as tiny.en) and a 5 s espeak-ng utterance:
 * 1. in-process latency: the engine worker with the model loaded once, audio_ctx sized to the clip;
 * 2. the same clip through whisper.cpp's own CLI spawned per clip with a shell command string, as
 *    whisper-node does: with the CLI's defaults (full 30 s window, beam search 5), greedy with our fallback
 *    (full window), and with exactly our decode settings (audio_ctx sized to the clip) — the last one
 *    isolates the cost of a process and a model load per clip;
 * 3. encoder pass over a full 30 s window: ours vs whisper.cpp's `bench` tool, both built natively;
 * 4. resident memory with the model loaded: of a plain Node process hosting the bundled engine worker (as the
 *    packaged app does), and of `aloud bench` run through tsx (the development CLI, two TypeScript loaders).
 * Each round runs every contender once, so that they share whatever else the machine does; other work still
 * skews the figures (whisper.cpp's OpenMP threads most): the script prints the load average before and after.
 */
import { exec, execFile } from 'node:child_process';
import { build } from 'esbuild';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { audioCtxForSamples, DEFAULT_DECODE_SETTINGS } from '../core/common/engine/decodeSettings';
import { readWavFor16k } from '../core/node/engine/audioInput';
import { median } from '../core/node/engine/engineBench';
import { startEngineWorker } from '../core/node/engine/engineHost';
import { WHISPER_ADDON_ENV, whisperAddonPath } from '../core/node/engine/whisperAddon';
import { defaultEngineThreads } from '../core/node/engine/whisperEngine';
import { BENCH_DIR, ensureBenchModel, ensureSpokenClip, ensureWhisperCli, REPO } from './benchAssets';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '11' }, json: { type: 'boolean', default: false } } });
const runs = Math.max(5, Number(values.runs) || 11);
const log = (line: string): void => {
  if (!values.json) process.stdout.write(`${line}\n`);
};
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
const ms = (x: number): string => `${x.toFixed(0)} ms`;

async function timeShell(command: string): Promise<number> {
  const started = performance.now();
  await promisify(exec)(command, { maxBuffer: 16 * 1024 * 1024 });
  return performance.now() - started;
}

async function main(): Promise<void> {
  const threads = defaultEngineThreads();
  log(`load average before: ${load()} (2-core machine: figures are only meaningful when it is near 0)`);
  const model = await ensureBenchModel();
  const clip = await ensureSpokenClip(
    path.join(BENCH_DIR, 'utterance-5s.wav'),
    'Hmm, this reply is, um, kind of polite I guess. I label this polite.',
    5,
  );
  const cli = await ensureWhisperCli(log);
  const audio = await readWavFor16k(clip);

  // In process: the engine worker, the model loaded once (and warmed up by load).
  const engine = startEngineWorker({ threads });
  const info = await engine.load(model);

  // whisper-node style: one shell command (a new process, the model loaded again) per clip.
  const nodeStyle = `"${cli.main}" -m "${model}" -f "${clip}" -l en -t ${threads}`;
  const greedy = `-bs 1 -bo ${DEFAULT_DECODE_SETTINGS.bestOf} -tpi ${DEFAULT_DECODE_SETTINGS.temperatureInc} --prompt "${DEFAULT_DECODE_SETTINGS.initialPrompt}"`;
  const variants = {
    defaults: nodeStyle,
    greedyFullWindow: `${nodeStyle} ${greedy}`,
    ourSettings: `${nodeStyle} ${greedy} -ac ${audioCtxForSamples(audio.pcm.length)}`,
  };
  const spawned: Record<keyof typeof variants, number[]> = { defaults: [], greedyFullWindow: [], ourSettings: [] };
  await timeShell(nodeStyle); // page cache warm, as for the in-process run

  // 1-2. Latency, the contenders interleaved in every round so that they share whatever else the machine does.
  const latencies: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await engine.transcribe({ pcm: audio.pcm });
    latencies.push(performance.now() - started);
    for (const [name, command] of Object.entries(variants)) spawned[name as keyof typeof variants].push(await timeShell(command));
  }

  // 3. Encoder pass over a full 30 s window (mel excluded in both): ours, then whisper.cpp's own `bench` tool.
  const window = new Float32Array(30 * 16000);
  for (let at = 0; at < window.length; at += audio.pcm.length) window.set(audio.pcm.subarray(0, window.length - at), at);
  const ourEncode: number[] = [];
  const cliEncode: number[] = [];
  for (let i = 0; i < Math.min(runs, 7); i++) {
    ourEncode.push((await engine.encode(window, 1500)).encode_ms);
    const { stderr } = await promisify(execFile)(cli.bench, ['-m', model, '-t', String(threads), '-w', '0'], { maxBuffer: 16 * 1024 * 1024 });
    const match = /encode time =\s*([\d.]+) ms/.exec(stderr);
    if (!match) throw new Error(`whisper.cpp bench printed no encode time:\n${stderr}`);
    cliEncode.push(Number(match[1]));
  }
  await engine.close();
  const ours = {
    median_latency_ms: Math.round(median(latencies) * 10) / 10,
    latencies_ms: latencies.map((x) => Math.round(x)),
    encode_ms_30s: Math.round(median(ourEncode) * 10) / 10,
    realtime_factor: Math.round((median(latencies) / ((audio.pcm.length / 16000) * 1000)) * 1000) / 1000,
  };

  // 4. Memory with tiny.en-sized weights loaded in the engine worker: bundled as in the app, and the dev CLI.
  const dist = path.join(BENCH_DIR, 'dist');
  const bundle = { bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error' } as const;
  await build({ ...bundle, entryPoints: [path.join(REPO, 'core/node/engine/engineWorker.ts')], outfile: path.join(dist, 'engineWorker.mjs') });
  await build({ ...bundle, entryPoints: [path.join(REPO, 'bench/engineMemory.ts')], outfile: path.join(dist, 'engineMemory.mjs') });
  const addon = { ...process.env, [WHISPER_ADDON_ENV]: whisperAddonPath() };
  const memory = JSON.parse(
    (await promisify(execFile)(process.execPath, [path.join(dist, 'engineMemory.mjs'), path.join(dist, 'engineWorker.mjs'), model, clip], { env: addon })).stdout,
  ) as { loaded_mb: number; after_utterances_mb: number; after_full_windows_mb: number };
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(REPO, 'core/node/cli/bin.ts'), 'bench', '--model', model, '--audio', clip, '--runs', '5', '--json'], {
    cwd: REPO,
  });
  const rssMb = (JSON.parse(stdout) as { rss_mb: number }).rss_mb;
  const bundledMb = Math.max(memory.after_utterances_mb, memory.after_full_windows_mb);

  const spawnMedian = median(spawned.defaults);
  const encodeRatio = ours.encode_ms_30s / median(cliEncode);
  const figures = {
    machine_load_after: load(),
    threads,
    runs,
    model: info.model,
    clip: { file: clip, seconds: audio.pcm.length / 16000, audio_ctx: audioCtxForSamples(audio.pcm.length) },
    in_process_median_latency_ms: ours.median_latency_ms,
    in_process_latencies_ms: ours.latencies_ms,
    cli_per_clip_whisper_node_style_median_ms: Math.round(spawnMedian),
    cli_per_clip_greedy_full_window_median_ms: Math.round(median(spawned.greedyFullWindow)),
    cli_per_clip_with_our_settings_median_ms: Math.round(median(spawned.ourSettings)),
    speedup_vs_cli_per_clip: Math.round((spawnMedian / ours.median_latency_ms) * 10) / 10,
    encode_30s_ms: ours.encode_ms_30s,
    encode_30s_runs_ms: ourEncode.map((x) => Math.round(x)),
    encode_30s_whisper_cpp_bench_runs_ms: cliEncode.map((x) => Math.round(x)),
    encode_30s_whisper_cpp_bench_ms: Math.round(median(cliEncode) * 10) / 10,
    encode_ratio_vs_whisper_cpp: Math.round(encodeRatio * 100) / 100,
    realtime_factor: ours.realtime_factor,
    rss_mb_bundled_engine: memory,
    rss_mb_dev_cli_with_model: rssMb,
  };
  if (values.json) {
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    return;
  }
  const verdict = (ok: boolean): string => (ok ? 'meets target' : 'MISSES target');
  log('');
  log(`5 s utterance, in process (worker, model loaded once)   median ${ms(ours.median_latency_ms)}   target ≤ 300 ms: ${verdict(ours.median_latency_ms <= 300)}`);
  log(`same clip, whisper.cpp CLI spawned per clip (node-style) median ${ms(spawnMedian)}   → ${figures.speedup_vs_cli_per_clip}× slower; target ≥ 4×: ${verdict(figures.speedup_vs_cli_per_clip >= 4)}`);
  log(`same clip, CLI per clip, greedy, full 30 s window        median ${ms(median(spawned.greedyFullWindow))}`);
  log(`same clip, CLI per clip with exactly our decode settings  median ${ms(median(spawned.ourSettings))}`);
  log(`encode, full 30 s window: ours ${ms(ours.encode_ms_30s)}, whisper.cpp bench ${ms(median(cliEncode))} → ${figures.encode_ratio_vs_whisper_cpp}×; target ≤ 1.15×: ${verdict(encodeRatio <= 1.15)}`);
  log(`real-time factor (processing ÷ audio) ${ours.realtime_factor}`);
  log(`resident memory, bundled engine host with the model loaded: ${memory.loaded_mb} MB loaded, ${memory.after_utterances_mb} MB after 5 s utterances, ${memory.after_full_windows_mb} MB after 30 s windows   target ≤ 400 MB: ${verdict(bundledMb <= 400)}`);
  log(`resident memory, \`aloud bench\` through tsx (development CLI) ${rssMb} MB`);
  log(`load average after: ${load()}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:engine: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
