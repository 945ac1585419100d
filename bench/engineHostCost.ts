/**
 * What running whisper.cpp in a process of its own costs against a worker thread (figures only; nothing is asserted).
 *   npx tsx bench/engineHostCost.ts [--rounds N] [--live-rounds N] [--json]
 *
 * 1. A 5 s spoken utterance, transcribe() to result as the session sees it: the worker and the process each hold
 *    the tiny.en-sized bench model (f16) and take turns, one call each per round.
 * 2. Live: commit-polite.wav (8.75 s) fed in real time through the session path (Silero VAD cutter, partials,
 *    speculation, scheduler), final_after_speech_end_ms per utterance; worker and process runs alternate.
 * 3. The engine process's resident memory with the model loaded, after 5 s utterances and after full 30 s windows,
 *    with the engine bundled as the app ships it (no tsx).
 * Medians; the load average before and after says how busy the machine was.
 */
import { build } from 'esbuild';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { TranscriptionEngine } from '../core/common/engine/engineTypes';
import { readWavFor16k } from '../core/node/engine/audioInput';
import { median } from '../core/node/bench/engineBench';
import { forkEngineLauncher, forkEngineProcess, startEngineProcess } from '../core/node/engine/engineProcessHost';
import { benchLive } from '../core/node/bench/liveBench';
import { WHISPER_ADDON_ENV, whisperAddonPath } from '../core/node/engine/whisperAddon';
import { BENCH_DIR, ensureBenchModel, ensureSpokenClip, REPO, SHARED } from './benchAssets';
import { startEngineWorker } from './engineWorkerHost';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '21' },
    'live-rounds': { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
  },
});
const rounds = Math.max(5, Number(values.rounds) || 21);
const liveRounds = Math.max(2, Number(values['live-rounds']) || 5);
const log = (line: string): void => {
  if (!values.json) process.stdout.write(`${line}\n`);
};
const r1 = (x: number): number => Math.round(x * 10) / 10;
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const mb = (bytes: number | undefined): number => r1((bytes ?? 0) / (1024 * 1024));

/** The call's wall time, and what of it whisper.cpp did not spend (the way there and back: PCM out, result in). */
async function timed(engine: TranscriptionEngine, pcm: Float32Array, id: string): Promise<{ wall: number; transport: number }> {
  const started = performance.now();
  const result = await engine.transcribe({ pcm, identity: { request_id: id, item_id: 'bench', utterance: 0 } });
  const wall = performance.now() - started;
  return { wall, transport: wall - result.elapsed_ms };
}

async function main(): Promise<void> {
  log(`load average before: ${load()}`);
  const model = await ensureBenchModel();
  const clip = await ensureSpokenClip(
    path.join(BENCH_DIR, 'utterance-5s.wav'),
    'Hmm, this reply is, um, kind of polite I guess. I label this polite.',
    5,
  );
  const pcm = (await readWavFor16k(clip)).pcm;

  // 1. the 5 s utterance, worker and process in turn
  const worker = startEngineWorker({ threads: 2 });
  const child = startEngineProcess({ launch: forkEngineLauncher, threads: 2 });
  await worker.load(model);
  await child.load(model);
  const utterance: Record<'worker' | 'process', number[]> = { worker: [], process: [] };
  const transport: Record<'worker' | 'process', number[]> = { worker: [], process: [] };
  for (let i = 0; i < rounds; i++) {
    // alternate who goes first, so that neither always follows the other
    const order = i % 2 === 0 ? (['worker', 'process'] as const) : (['process', 'worker'] as const);
    for (const host of order) {
      const call = await timed(host === 'worker' ? worker : child, pcm, `${host}-${i}`);
      utterance[host].push(call.wall);
      transport[host].push(call.transport);
    }
  }
  await worker.close();
  await child.close();

  // 2. live, final after the end of speech, worker and process runs alternating
  const polite = (await readWavFor16k(path.join(SHARED, 'fixtures/audio/commit-polite.wav'))).pcm;
  const vadModelPath = path.join(SHARED, 'models/for-tests-silero-v6.2.0-ggml.bin');
  const live: Record<'worker' | 'process', number[]> = { worker: [], process: [] };
  const liveRuns: Record<'worker' | 'process', number[]> = { worker: [], process: [] };
  for (let i = 0; i < liveRounds; i++) {
    const order = i % 2 === 0 ? (['worker', 'process'] as const) : (['process', 'worker'] as const);
    for (const host of order) {
      const startEngine =
        host === 'worker'
          ? (options: { threads?: number }) => startEngineWorker(options)
          : (options: { threads?: number }) => startEngineProcess({ launch: forkEngineLauncher, ...options });
      const report = await benchLive({ modelPath: model, vadModelPath, pcm: polite, chunkMs: 50, load: 0, threads: 2, startEngine });
      live[host].push(...report.utterances.map((u) => u.final_after_speech_end_ms));
      liveRuns[host].push(report.medians.final_after_speech_end_ms);
    }
  }

  // 3. the engine process's memory, bundled as in the app
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
  const bundled = forkEngineProcess({ threads: 2 }, { script: entry, args: [] });
  const idle = mb((await bundled.engine.info()).process?.rss_bytes);
  await bundled.engine.load(model);
  const loaded = mb((await bundled.engine.info()).process?.rss_bytes);
  for (let i = 0; i < 10; i++) await bundled.engine.transcribe({ pcm });
  const afterUtterances = mb((await bundled.engine.info()).process?.rss_bytes);
  const window = new Float32Array(30 * 16000);
  window.set(pcm);
  for (let i = 0; i < 3; i++) await bundled.engine.transcribe({ pcm: window });
  const afterWindows = mb((await bundled.engine.info()).process?.rss_bytes);
  await bundled.engine.close();

  const m = (xs: number[]): number => r1(median(xs));
  const figures = {
    machine_load_after: load(),
    rounds,
    utterance_5s_median_ms: { worker: m(utterance.worker), process: m(utterance.process) },
    utterance_5s_process_vs_worker: Math.round((median(utterance.process) / median(utterance.worker)) * 1000) / 1000,
    /** the ratio round by round (each round's process call against the worker call beside it), median */
    utterance_5s_paired_ratio_median: Math.round(median(utterance.process.map((p, i) => p / utterance.worker[i]!)) * 1000) / 1000,
    utterance_5s_runs_ms: { worker: utterance.worker.map(Math.round), process: utterance.process.map(Math.round) },
    /** wall time minus whisper.cpp's own time: what crossing to the worker or the process costs a call, median */
    utterance_5s_transport_median_ms: { worker: m(transport.worker), process: m(transport.process) },
    live_rounds: liveRounds,
    final_after_speech_end_median_ms: { worker: m(live.worker), process: m(live.process) },
    final_after_speech_end_process_vs_worker: Math.round((median(live.process) / median(live.worker)) * 1000) / 1000,
    final_after_speech_end_run_medians_ms: { worker: liveRuns.worker, process: liveRuns.process },
    engine_process_rss_mb: { idle, loaded, after_5s_utterances: afterUtterances, after_30s_windows: afterWindows },
  };
  if (values.json) {
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    return;
  }
  const u = figures.utterance_5s_median_ms;
  const l = figures.final_after_speech_end_median_ms;
  log(
    `5 s utterance, ${rounds} rounds: worker ${u.worker} ms, process ${u.process} ms → process/worker ${figures.utterance_5s_process_vs_worker}, paired ${figures.utterance_5s_paired_ratio_median} (target ≤ 1.05)`,
  );
  const c = figures.utterance_5s_transport_median_ms;
  log(`  of which the way there and back (wall time minus whisper.cpp's own): worker ${c.worker} ms, process ${c.process} ms`);
  log(
    `live final after speech end, ${liveRounds} runs each: worker ${l.worker} ms, process ${l.process} ms → ${figures.final_after_speech_end_process_vs_worker} (target ≤ 1.05)`,
  );
  log(
    `engine process RSS (bundled, tiny.en-sized f16): ${idle} MB idle, ${loaded} MB loaded, ${afterUtterances} MB after 5 s utterances, ${afterWindows} MB after 30 s windows (target ≤ 300 MB)`,
  );
  log(`load average after: ${load()}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench/engineHostCost: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
