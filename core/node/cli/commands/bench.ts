import { readWavFor16k } from '../../engine/audioInput';
import { benchEngine } from '../../bench/engineBench';
import { forkEngineLauncher, startEngineProcess } from '../../engine/engineProcessHost';
import { benchLive } from '../../bench/liveBench';
import { type CliCommand, printJson, requireOption, UsageError, parseOptions } from '../cliSupport';
import { parseThreads } from './transcribe';

export const benchCommand: CliCommand = {
  name: 'bench',
  usage: [
    'bench --model FILE --audio FILE.wav [--runs N (≥ 5, default 5)] [--threads N] [--json]',
    '       aloud bench --live --model FILE [--vad-model FILE] --audio FILE.wav [--load N] [--chunk-ms MS (default 50, as the app captures)] [--threads N] [--say "TEXT|TEXT|…"] [--cut-floor-ms MS] [--json]',
    '  --live feeds the WAV in real time through the session path (cutter, VAD, partials, speculation, scheduler, engine, parser)',
    '  and reports per utterance speech_end_ms, cut_ms, final_ms, final_after_cut_ms, final_after_speech_end_ms (the text shown stops',
    '  changing: the adopted speculative final shown, else the final logged), logged_after_speech_end_ms, label_after_speech_end_ms',
    '  (utterances that commit), engine_started_after_speech_end_ms and engine_ms (the job whose text became the final) and partial',
    '  times; medians, p95 and the real-time factor; --load N runs N CPU-bound processes beside it.',
    "  --say: what each utterance says, in order; replaces each final's text after the engine ran, so label acts are timed with",
    '  the bench model (whose own text is meaningless); speculative finals hear the whole text too, even at a pause inside the',
    '  utterance, so the cut that listens may cut there (bench/cutFalseCuts.ts measures where cuts fall).',
    "  --cut-floor-ms: the cut's floor after a sentence (default the project's",
    '  thinkaloud.cut_floor_ms; 300: the fixed 300 ms cut).',
  ].join('\n'),
  async run(argv, io) {
    const { values } = parseOptions(argv, {
      model: 'string',
      audio: 'string',
      runs: { default: '5' },
      threads: 'string',
      json: false,
      live: false,
      'vad-model': 'string',
      load: { default: '0' },
      'chunk-ms': { default: '50' },
      say: 'string',
      'cut-floor-ms': 'string',
    });
    const modelPath = requireOption(values.model, '--model');
    const audioPath = requireOption(values.audio, '--audio');
    if (values.live) return runLive(values, modelPath, audioPath, io);
    if (values['vad-model'] !== undefined || values.load !== '0' || values.say !== undefined)
      throw new UsageError('--vad-model, --load and --say go with --live');
    const runs = Number(values.runs);
    if (!Number.isInteger(runs) || runs < 5 || runs > 1000)
      throw new UsageError(`--runs must be an integer from 5 to 1000 (got "${values.runs}")`);
    const threads = parseThreads(values.threads);
    const audio = await readWavFor16k(audioPath);
    if (audio.pcm.length === 0) throw new UsageError(`${audioPath}: the file holds no audio`);
    const engine = startEngineProcess({ launch: forkEngineLauncher, ...(threads === undefined ? {} : { threads }) });
    try {
      const report = await benchEngine({ engine, modelPath, pcm: audio.pcm, runs });
      if (values.json) {
        printJson(io, { audio: { file: audioPath, duration_ms: Math.round(audio.durationMs) }, ...report });
      } else {
        io.out(`model              ${report.model.path} (${report.model.type}, loaded in ${report.model.load_ms} ms)\n`);
        io.out(`utterances         ${report.utterances.length} × ${runs} runs, ${report.threads} threads\n`);
        io.out(`median latency     ${report.median_latency_ms} ms per utterance\n`);
        io.out(`encode 30 s        ${report.encode_ms_30s} ms (median)\n`);
        io.out(`real-time factor   ${report.realtime_factor}\n`);
        io.out(`resident memory    ${report.rss_mb} MB\n`);
      }
      return 0;
    } finally {
      await engine.close();
    }
  },
};

async function runLive(
  values: {
    'vad-model'?: string;
    load?: string;
    'chunk-ms'?: string;
    threads?: string;
    json?: boolean;
    say?: string;
    'cut-floor-ms'?: string;
  },
  modelPath: string,
  audioPath: string,
  io: Parameters<CliCommand['run']>[1],
): Promise<number> {
  const load = Number(values.load);
  if (!Number.isInteger(load) || load < 0 || load > 16)
    throw new UsageError(`--load must be an integer from 0 to 16 (got "${values.load}")`);
  const chunkMs = Number(values['chunk-ms']);
  if (!Number.isInteger(chunkMs) || chunkMs < 20 || chunkMs > 1000)
    throw new UsageError(`--chunk-ms must be an integer from 20 to 1000 (got "${values['chunk-ms']}")`);
  const threads = parseThreads(values.threads);
  const cutFloorMs = values['cut-floor-ms'] === undefined ? undefined : Number(values['cut-floor-ms']);
  if (cutFloorMs !== undefined && !(Number.isInteger(cutFloorMs) && cutFloorMs >= 160 && cutFloorMs <= 300))
    throw new UsageError(`--cut-floor-ms must be an integer from 160 to 300 (got "${values['cut-floor-ms']}")`);
  const audio = await readWavFor16k(audioPath);
  if (audio.pcm.length === 0) throw new UsageError(`${audioPath}: the file holds no audio`);
  const report = await benchLive({
    modelPath,
    vadModelPath: values['vad-model'] ?? null,
    pcm: audio.pcm,
    startEngine: (options) => startEngineProcess({ launch: forkEngineLauncher, ...options }),
    chunkMs,
    load,
    ...(threads === undefined ? {} : { threads }),
    ...(values.say === undefined ? {} : { said: values.say.split('|').map((t) => t.trim()) }),
    ...(cutFloorMs === undefined ? {} : { cutFloorMs }),
  });
  if (values.json) {
    printJson(io, {
      audio: { file: audioPath, duration_ms: Math.round(audio.durationMs) },
      model: modelPath,
      vad_model: values['vad-model'] ?? null,
      ...report,
    });
    return 0;
  }
  io.out(
    `cutter             ${report.cutter === 'vad' ? 'Silero VAD' : 'energy (no --vad-model)'}, ${report.chunk_ms} ms chunks, ${report.load_processes} CPU-bound processes beside it\n`,
  );
  for (const u of report.utterances) {
    io.out(
      `utterance ${u.utterance}: ${u.start_ms}–${u.end_ms} ms, speech end ${u.speech_end_ms}, cut ${u.cut_ms}, final ${u.final_ms} (+${u.final_after_cut_ms} after the cut, shown +${u.final_after_speech_end_ms} after speech${u.label_after_speech_end_ms === null ? '' : `, label +${u.label_after_speech_end_ms}`})${u.speculative ? ' speculative' : ''}${u.engine_ms === null ? '' : `, engine from +${u.engine_started_after_speech_end_ms} for ${u.engine_ms} ms`}; partials at ${u.partial_ms.join(', ') || '-'}\n`,
    );
  }
  io.out(`median final after cut          ${report.medians.final_after_cut_ms} ms\n`);
  io.out(
    `final shown after speech end    median ${report.medians.final_after_speech_end_ms} ms, p95 ${report.p95.final_after_speech_end_ms} ms (logged: median ${report.medians.logged_after_speech_end_ms} ms)\n`,
  );
  io.out(
    `label after speech end          ${report.medians.label_after_speech_end_ms === null ? 'no utterance committed a label' : `median ${report.medians.label_after_speech_end_ms} ms, p95 ${report.p95.label_after_speech_end_ms} ms`}\n`,
  );
  io.out(`real-time factor                ${report.real_time_factor} (finals and speculation ${report.real_time_factor_finals})\n`);
  io.out(
    `partial updates                 ${report.partials_shown} shown; median gap ${report.medians.partial_gap_ms ?? '-'} ms, longest ${report.medians.max_partial_gap_ms ?? '-'} ms\n`,
  );
  return 0;
}
