/**
 * What the project's initial prompt costs: the 5 s utterance of `npm run bench:engine` (tiny.en-sized random-weight
 * model, espeak-ng speech) transcribed by the engine worker with the filler prompt alone and with the demo project's
 * prompt (label names, synonyms, commit phrases, then the filler prompt), interleaved in every round so both share
 * whatever else the machine does. Prints medians, the ratio, and what was decoded (random weights decode noise, so
 * the decoded lengths are printed to show the two sides did comparable work). Figures only; nothing is asserted.
 * Run: npx tsx scripts/bench-initial-prompt.ts [--runs N] [--languages en,de] [--caps 16,32] [--threads N] [--repeat K]
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, ensureBenchModel, ensureSpokenClip, REPO } from '../bench/benchAssets';
import { DEFAULT_INITIAL_PROMPT } from '../core/common/engine/decodeSettings';
import { estimatePromptTokens, projectInitialPrompt } from '../core/common/engine/initialPrompt';
import { readWavFor16k } from '../core/node/engine/audioInput';
import { median } from '../core/node/engine/engineBench';
import { startEngineWorker } from '../core/node/engine/engineHost';
import { loadProjectConfig } from '../core/node/project/projectFolder';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '21' }, languages: { type: 'string', default: 'en' }, caps: { type: 'string' }, threads: { type: 'string', default: '1' }, repeat: { type: 'string', default: '2' } } });
// a fixed thread count: the engine otherwise picks threads from the cores others leave free, which differs call to call
const threads = Math.max(1, Number(values.threads) || 1);
// each contender runs this many times back to back in a round and keeps its fastest: a neighbour's burst only slows one
const repeat = Math.max(1, Number(values.repeat) || 1);
const runs = Math.max(5, Number(values.runs) || 21);
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

async function main(): Promise<void> {
  console.log(`load average before: ${load()}`);
  const model = await ensureBenchModel();
  const clip = await ensureSpokenClip(path.join(BENCH_DIR, 'utterance-5s.wav'), 'Hmm, this reply is, um, kind of polite I guess. I label this polite.', 5);
  const pcm = (await readWavFor16k(clip)).pcm;
  const { config } = await loadProjectConfig(path.join(REPO, 'demo-project'));
  const languages = values.languages!.split(',');
  const project = { labels: config.schema.labels, languages, stems: config.thinkaloud.stems };
  // --caps 16,32: other caps on the project's words, as more contenders in the same rounds
  const prompts: Record<string, string> = { fillers: DEFAULT_INITIAL_PROMPT, project: projectInitialPrompt(project) };
  for (const cap of values.caps?.split(',') ?? []) prompts[`cap ${cap}`] = projectInitialPrompt(project, Number(cap));
  for (const [name, prompt] of Object.entries(prompts)) console.log(`${name}: ~${estimatePromptTokens(prompt)} tokens: ${prompt}`);

  const engine = startEngineWorker({});
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
  console.log(`${runs} rounds, ${threads} thread(s), fastest of ${repeat} per round: median time, and the median of each round's ratio to the filler prompt (decoded characters in brackets):`);
  for (const name of names) {
    const ratio = median(times[name]!.map((t, i) => t / times.fillers![i]!));
    console.log(`  ${name.padEnd(8)} ${median(times[name]!).toFixed(1)} ms  ×${ratio.toFixed(3)} (${((ratio - 1) * 100).toFixed(1)} %)  [${median(decoded[name]!)}]`);
  }
  console.log(`load average after: ${load()}`);
}

await main();
