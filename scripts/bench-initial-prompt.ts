/**
 * What the project's initial prompt costs: the 5 s utterance of `npm run bench:engine` (tiny.en-sized random-weight
 * model, espeak-ng speech) transcribed by the engine worker with the filler prompt alone and with the demo project's
 * prompt (label names, synonyms, commit phrases, then the filler prompt), interleaved in every round so both share
 * whatever else the machine does. Prints medians, the ratio, and what was decoded (random weights decode noise, so
 * the decoded lengths are printed to show the two sides did comparable work). Figures only; nothing is asserted.
 * Run: npx tsx scripts/bench-initial-prompt.ts [--runs N] [--languages en,de] [--caps 16,32] [--threads N] [--repeat K]
 * On a busy machine wall time cannot resolve a few percent (a run of two identical prompts differs by as much); then
 * count instructions instead: `--callgrind ADDON` runs one transcription per prompt under valgrind's callgrind,
 * counting only inside whisper_full_with_state, one thread. valgrind cannot run AVX-512 code, so ADDON is a
 * portable build of the binding (ALOUD_PORTABLE_BUILD=1 `node scripts/build-engine.mjs --force` in a copy of the
 * tree); each run takes minutes.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, ensureBenchModel, ensureSpokenClip, REPO } from '../bench/benchAssets';
import { DEFAULT_INITIAL_PROMPT } from '../core/common/engine/decodeSettings';
import { estimatePromptTokens, projectInitialPrompt } from '../core/common/engine/initialPrompt';
import { readWavFor16k } from '../core/node/engine/audioInput';
import { median } from '../core/node/bench/engineBench';
import { forkEngineLauncher, startEngineProcess } from '../core/node/engine/engineProcessHost';
import { loadProjectConfig } from '../core/node/project/projectFolder';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '21' },
    languages: { type: 'string', default: 'en' },
    caps: { type: 'string' },
    threads: { type: 'string', default: '1' },
    repeat: { type: 'string', default: '2' },
    callgrind: { type: 'string' },
  },
});
// a fixed thread count: the engine otherwise picks threads from the cores others leave free, which differs call to call
const threads = Math.max(1, Number(values.threads) || 1);
// each contender runs this many times back to back in a round and keeps its fastest: a neighbour's burst only slows one
const repeat = Math.max(1, Number(values.repeat) || 1);
const runs = Math.max(5, Number(values.runs) || 21);
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  console.log(`load average before: ${load()}`);
  const model = await ensureBenchModel();
  const clip = await ensureSpokenClip(
    path.join(BENCH_DIR, 'utterance-5s.wav'),
    'Hmm, this reply is, um, kind of polite I guess. I label this polite.',
    5,
  );
  const pcm = (await readWavFor16k(clip)).pcm;
  const { config } = await loadProjectConfig(path.join(REPO, 'demo-project'));
  const languages = values.languages!.split(',');
  const project = { labels: config.schema.labels, languages, stems: config.thinkaloud.stems };
  // --caps 16,32: other caps on the project's words, as more contenders in the same rounds
  const prompts: Record<string, string> = { fillers: DEFAULT_INITIAL_PROMPT, project: projectInitialPrompt(project) };
  for (const cap of values.caps?.split(',') ?? []) prompts[`cap ${cap}`] = projectInitialPrompt(project, Number(cap));
  for (const [name, prompt] of Object.entries(prompts)) console.log(`${name}: ~${estimatePromptTokens(prompt)} tokens: ${prompt}`);

  if (values.callgrind) {
    await countInstructions(values.callgrind, model, clip, prompts, languages);
    return;
  }
  const engine = startEngineProcess({ launch: forkEngineLauncher });
  await engine.load(model);
  const names = Object.keys(prompts);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const decoded: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const language = languages.length === 1 ? languages[0]! : 'auto';
  try {
    for (const name of names) await engine.transcribe({ pcm, settings: { initialPrompt: prompts[name], language, threads } }); // warm-up
    for (let i = 0; i < runs; i++) {
      // alternate the order, so no contender always runs right after the same other
      for (const name of i % 2 === 0 ? names : [...names].reverse()) {
        let fastest = Infinity;
        for (let k = 0; k < repeat; k++) {
          const started = performance.now();
          const result = await engine.transcribe({ pcm, settings: { initialPrompt: prompts[name], language, threads } });
          fastest = Math.min(fastest, performance.now() - started);
          if (k === 0) decoded[name]!.push(result.segments.reduce((n, s) => n + s.text.length, 0));
        }
        times[name]!.push(fastest);
      }
    }
  } finally {
    await engine.close();
  }
  console.log(
    `${runs} rounds, ${threads} thread(s), fastest of ${repeat} per round: median time, and the median of each round's ratio to the filler prompt (decoded characters in brackets):`,
  );
  for (const name of names) {
    const ratio = median(times[name]!.map((t, i) => t / times.fillers![i]!));
    console.log(
      `  ${name.padEnd(8)} ${median(times[name]!).toFixed(1)} ms  ×${ratio.toFixed(3)} (${((ratio - 1) * 100).toFixed(1)} %)  [${median(decoded[name]!)}]`,
    );
  }
  console.log(`load average after: ${load()}`);
}

/** One transcription with the native binding alone (as the engine asks it), for valgrind: argv addon, model, wav, prompt, language. */
const ONE_TRANSCRIPTION = `
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const [addonPath, model, wav, prompt, language] = process.argv.slice(1);
const bytes = readFileSync(wav);
let at = 12, pcm;
while (at < bytes.length) {
  const id = bytes.toString('ascii', at, at + 4), size = bytes.readUInt32LE(at + 4);
  if (id === 'data') { pcm = new Float32Array(size / 2); for (let i = 0; i < pcm.length; i++) pcm[i] = bytes.readInt16LE(at + 8 + 2 * i) / 32768; break; }
  at += 8 + size + (size % 2);
}
const m = await createRequire(import.meta.url)(addonPath).loadModel(model, { flashAttn: true });
const audioCtx = Math.min(1500, Math.ceil((pcm.length / 16000) * 50) + 128);
const r = await m.transcribe(pcm, { threads: 1, audioCtx, tokenTimestamps: false, suppressNonSpeechTokens: false, temperature: 0, temperatureInc: 0.4, bestOf: 2, initialPrompt: prompt, language, threadPoll: 0 });
console.log(JSON.stringify(r.segments.map((s) => s.text)));
m.free();
`;

async function countInstructions(
  addon: string,
  model: string,
  clip: string,
  prompts: Record<string, string>,
  languages: string[],
): Promise<void> {
  const counts: Record<string, number> = {};
  for (const [name, prompt] of Object.entries(prompts)) {
    const args = [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      '--collect-atstart=no',
      '--toggle-collect=whisper_full_with_state',
      process.execPath,
      '--input-type=module',
      '-e',
      ONE_TRANSCRIPTION,
      addon,
      model,
      clip,
      prompt,
      languages.length === 1 ? languages[0]! : 'auto',
    ];
    const { stdout, stderr } = await promisify(execFile)('valgrind', args, { maxBuffer: 64 * 1024 * 1024 });
    const collected = /Collected : (\d+)/.exec(stderr);
    if (!collected) throw new Error(`valgrind counted nothing for "${name}":\n${stderr.split('\n').slice(-5).join('\n')}`);
    counts[name] = Number(collected[1]);
    console.log(
      `  ${name.padEnd(8)} ${(counts[name]! / 1e9).toFixed(3)} G instructions  ×${(counts[name]! / counts.fillers!).toFixed(3)}  decoded ${stdout.trim()}`,
    );
  }
}

await main();
