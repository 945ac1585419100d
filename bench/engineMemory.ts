/**
 * Resident memory of a process hosting the engine as the packaged app does (JavaScript bundled, no tsx):
 * the engine worker with the model loaded, after utterances and after full 30 s windows. Run by
 * bench/engine.ts after bundling; prints one JSON line.
 *   node .bench/dist/engineMemory.mjs WORKER.mjs MODEL.bin CLIP.wav
 */
import { readWavFor16k } from '../core/node/engine/audioInput';
import { startEngineWorker } from '../core/node/engine/engineHost';

const [workerFile, modelPath, clipPath] = process.argv.slice(2);
const mb = (): number => Math.round((process.memoryUsage().rss / (1024 * 1024)) * 10) / 10;

const engine = startEngineWorker({ workerEntry: new URL(`file://${workerFile}`) });
await engine.info();
const idle = mb();
await engine.load(modelPath!);
const loaded = mb();
const { pcm } = await readWavFor16k(clipPath!);
for (let i = 0; i < 10; i++) await engine.transcribe({ pcm });
const afterUtterances = mb();
const window = new Float32Array(30 * 16000);
window.set(pcm);
for (let i = 0; i < 3; i++) await engine.transcribe({ pcm: window });
const afterFullWindows = mb();
await engine.close();
process.stdout.write(`${JSON.stringify({ idle_mb: idle, loaded_mb: loaded, after_utterances_mb: afterUtterances, after_full_windows_mb: afterFullWindows })}\n`);
