/**
 * Where opening one annotator's session goes, phase by phase, in one process (figures only; nothing is asserted). Run on
 * a study written by `bench/openSession.ts --prepare DIR`, bundled as the app is:
 *   node bench/buildOpenSessionBench.mjs . out/bench/phases.mjs bench/openSessionPhases.ts && node out/bench/phases.mjs DIR
 * Two rounds: the first trusts the whole log as schema-checked (as a fitting note beside it would), the second checks every line.
 */
import { readFile } from 'node:fs/promises';
import { CodingFold } from '../core/common/coding/codingFold';
import { SessionFold } from '../core/common/session/sessionFold';
import { parseSessionLogBytes } from '../core/common/session/sessionLog';
import { strictUtf8 } from '../core/node/log/appendLog';
import { loadProjectConfig } from '../core/node/project/projectFolder';
import { sessionPaths } from '../core/node/session/sessionPaths';
import { foldOptionsOf } from '../core/node/session/sessionStore';

const dir = process.argv[2]!;
const file = sessionPaths(dir, process.argv[3] ?? 'ana').events;
const project = await loadProjectConfig(dir);
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const laps = new Map<string, number[]>();
const rounds = Number(process.env.ROUNDS ?? 2);
for (let round = 0; round < rounds; round++) {
  let t = cpu();
  const lap = (what: string): void => {
    const now = cpu();
    process.stdout.write(`${what} ${(now - t).toFixed(0)}  `);
    laps.set(what, [...(laps.get(what) ?? []), now - t]);
    t = now;
  };
  const bytes = await readFile(file);
  lap('read');
  const text = strictUtf8(bytes);
  lap('decode');
  const lines = text.split('\n');
  lap('split');
  for (const line of lines) if (line !== '') JSON.parse(line);
  lap('JSON.parse');
  const { events } = parseSessionLogBytes(bytes, file, strictUtf8, undefined, round % 2 === 0 ? Number.MAX_SAFE_INTEGER : 0);
  lap(round % 2 === 0 ? 'parse (schema checks trusted)' : 'parse (every check)');
  const fold = new SessionFold(project.config, file, foldOptionsOf(project));
  const coding = new CodingFold();
  for (const event of events) {
    fold.apply(event);
    coding.apply(event);
  }
  lap('fold');
  if (fold.currentItemId !== null) fold.itemState(fold.currentItemId);
  lap('open item state');
  const summaries = fold.summaries();
  lap('item list');
  JSON.stringify(summaries);
  lap('its JSON');
  process.stdout.write('(ms of processor time)\n');
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `medians of ${rounds} rounds (ms of processor time): ${[...laps].map(([what, xs]) => `${what} ${median(xs).toFixed(0)}`).join('  ')}`,
);
