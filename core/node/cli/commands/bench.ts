import { parseArgs } from 'node:util';
import { readWavFor16k } from '../../engine/audioInput';
import { benchEngine } from '../../engine/engineBench';
import { startEngineWorker } from '../../engine/engineHost';
import { type CliCommand, printJson, requireOption, UsageError, withUsageErrors } from '../cliSupport';
import { asEngineUsageError, parseThreads } from './transcribe';

export const benchCommand: CliCommand = {
  name: 'bench',
  summary: 'Measure the engine: per-utterance latency (model loaded once, in the engine worker), 30 s encode, real-time factor, memory.',
  usage: 'bench --model FILE --audio FILE.wav [--runs N (≥ 5, default 5)] [--threads N] [--json]',
  async run(argv, io) {
    const { values } = withUsageErrors(() =>
      parseArgs({
        args: argv,
        strict: true,
        options: {
          model: { type: 'string' },
          audio: { type: 'string' },
          runs: { type: 'string', default: '5' },
          threads: { type: 'string' },
          json: { type: 'boolean', default: false },
        },
      }),
    );
    const modelPath = requireOption(values.model, '--model');
    const audioPath = requireOption(values.audio, '--audio');
    const runs = Number(values.runs);
    if (!Number.isInteger(runs) || runs < 5 || runs > 1000) throw new UsageError(`--runs must be an integer from 5 to 1000 (got "${values.runs}")`);
    const threads = parseThreads(values.threads);
    const audio = await readWavFor16k(audioPath).catch(asEngineUsageError);
    if (audio.pcm.length === 0) throw new UsageError(`${audioPath}: the file holds no audio`);
    const engine = startEngineWorker(threads === undefined ? {} : { threads });
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
    } catch (e) {
      return asEngineUsageError(e);
    } finally {
      await engine.close();
    }
  },
};
