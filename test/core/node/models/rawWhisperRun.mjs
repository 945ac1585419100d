// Loads a model straight into whisper.cpp through the binding, with no header check, and transcribes 2 s of tone:
// what whisper.cpp itself does with a file, for comparing with aloud's import verdict (modelVerdict.test.ts).
//   node rawWhisperRun.mjs ADDON.node MODEL.bin
// Exit 0 after a transcription, 3 when whisper.cpp refuses the file; a crash ends it with a signal.
import { createRequire } from 'node:module';

const [addonPath, modelPath] = process.argv.slice(2);
// as in the engine process (engineProcess.ts): an assertion aborts at once, without ggml attaching a debugger first
process.env.GGML_NO_BACKTRACE ??= '1';
const addon = createRequire(import.meta.url)(addonPath);
try {
  const model = await addon.loadModel(modelPath, { flashAttn: true });
  const pcm = new Float32Array(2 * 16000);
  for (let i = 0; i < pcm.length; i++) pcm[i] = 0.05 * Math.sin(i / 10);
  await model.transcribe(pcm, { threads: 2 });
  model.free();
} catch (e) {
  process.stderr.write(`${e.message}\n`);
  process.exit(3);
}
