import { readWavFor16k } from './core/node/engine/audioInput';
import { startEngineWorker } from './core/node/engine/engineHost';
import { median } from './core/node/engine/engineBench';
import { ensureSpokenClip, BENCH_DIR } from './bench/benchAssets';
import path from 'node:path';
const clip = await ensureSpokenClip(path.join(BENCH_DIR, 'utterance-5s.wav'), 'Hmm, this reply is, um, kind of polite I guess. I label this polite.', 5);
const { pcm } = await readWavFor16k(clip);
const legacyAddon = path.resolve('core/node/engine/native/legacy/build/Release/aloud_whisper_legacy.node');
const mk = (legacy: boolean, model: string) => {
  const prev = process.env.ALOUD_WHISPER_ADDON;
  if (legacy) process.env.ALOUD_WHISPER_ADDON = legacyAddon; else delete process.env.ALOUD_WHISPER_ADDON;
  const e = startEngineWorker({ threads: 2, ...(legacy ? { flashAttn: false } : {}) });
  if (prev === undefined) delete process.env.ALOUD_WHISPER_ADDON; else process.env.ALOUD_WHISPER_ADDON = prev;
  return e.load(model).then(() => e);
};
const contenders = {
  new_f16: await mk(false, '.bench/engine/bench-tiny.en.bin'),
  new_q8: await mk(false, '.bench/engine/bench-tiny.en-q8_0.bin'),
  legacy_f16: await mk(true, '.bench/engine/bench-tiny.en.bin'),
};
const t: Record<string, number[]> = {};
for (let r = 0; r < 7; r++) for (const [k, e] of Object.entries(contenders)) { const s = performance.now(); await e.transcribe({ pcm }); (t[k] ??= []).push(performance.now() - s); }
for (const [k, v] of Object.entries(t)) console.log(k, median(v).toFixed(0), v.map((x) => x.toFixed(0)).join(' '));
for (const e of Object.values(contenders)) await e.close();
