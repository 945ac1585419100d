import { readWavFor16k } from '../../engine/audioInput';
import { forkEngineLauncher, startEngineProcess } from '../../engine/engineProcessHost';
import { type CliCommand, printJson, requireOption, UsageError, parseOptions } from '../cliSupport';

export function parseThreads(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const threads = Number(value);
  if (!Number.isInteger(threads) || threads < 1 || threads > 256)
    throw new UsageError(`--threads must be an integer from 1 to 256 (got "${value}")`);
  return threads;
}

export const transcribeCommand: CliCommand = {
  name: 'transcribe',
  usage: 'transcribe --model FILE --audio FILE.wav [--json] [--token-timestamps] [--prompt TEXT] [--language CODE|auto] [--threads N]',
  async run(argv, io) {
    const { values } = parseOptions(argv, {
      model: 'string',
      audio: 'string',
      json: false,
      'token-timestamps': false,
      prompt: 'string',
      language: 'string',
      threads: 'string',
    });
    const modelPath = requireOption(values.model, '--model');
    const audioPath = requireOption(values.audio, '--audio');
    // whisper.cpp in its own process: a native fault there is an error naming the signal, never this process's crash
    const threads = parseThreads(values.threads);
    const engine = startEngineProcess({
      launch: forkEngineLauncher,
      warmUp: false,
      ...(threads === undefined ? {} : { threads }),
      onEvent: (event) => {
        if (event.type !== 'started') io.err(`aloud transcribe: ${event.message}\n`);
      },
    });
    try {
      const audio = await readWavFor16k(audioPath);
      if (audio.pcm.length === 0) throw new UsageError(`${audioPath}: the file holds no audio`);
      const info = await engine.load(modelPath);
      const result = await engine.transcribe({
        pcm: audio.pcm,
        settings: {
          tokenTimestamps: values['token-timestamps'],
          ...(values.prompt === undefined ? {} : { initialPrompt: values.prompt }),
          ...(values.language === undefined ? {} : { language: values.language }),
        },
      });
      if (values.json) {
        printJson(io, {
          segments: result.segments,
          audio_ms: Math.round(result.audio_ms),
          elapsed_ms: Math.round(result.elapsed_ms),
          model: { path: info.model!.path, sha256: info.model!.sha256 },
        });
      } else {
        for (const s of result.segments) io.out(`[${(s.t0_ms / 1000).toFixed(2)} → ${(s.t1_ms / 1000).toFixed(2)}]${s.text}\n`);
      }
      return 0;
    } finally {
      await engine.close();
    }
  },
};
