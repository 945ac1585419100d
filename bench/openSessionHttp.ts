/**
 * Opening a session as the annotator waits for it: the app in browser mode (bench/scaleActsHost.ts, one process per
 * open), the page's HTTP call `openSession` timed from request to parsed answer (figures only; nothing is asserted).
 * Run on a study written by `npx tsx bench/openSession.ts --prepare DIR` (its events.jsonl.pristine kept beside the log):
 *   npx tsx bench/openSessionHttp.ts --dir DIR [--against CHECKOUT] [--rounds 5]
 * Each round, for each checkout in turn (interleaved): the pristine log put back and nothing derived beside it, an app
 * started and the session opened (the first open ever), then a second app started and the session opened again
 * (whatever the first left beside the log). Wall time (what the annotator waits), the host's processor time, answer size.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AppProcess } from './scaleActs';
import { restorePristineLog } from './scaleStudy';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { dir: { type: 'string' }, against: { type: 'string' }, rounds: { type: 'string', default: '5' } },
});
const dir = path.resolve(values.dir!);
const checkouts = [REPO, ...(values.against ? [path.resolve(values.against)] : [])];
type Figure = { wall_ms: number; cpu_ms: number; mb: number };
const figures = new Map<string, Figure[]>();

const pristine = (): Promise<void> => restorePristineLog(dir, 'ana');

async function openOnce(repo: string): Promise<Figure> {
  const app = await AppProcess.start(repo, dir);
  try {
    const cpu = await app.cpuMs();
    const { ms, bytes } = await app.call('openSession', 'ana');
    return { wall_ms: ms, cpu_ms: (await app.cpuMs()) - cpu, mb: bytes / 1024 / 1024 };
  } finally {
    await app.stop();
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (let round = 0; round < Number(values.rounds); round++) {
  for (const repo of checkouts) {
    await pristine();
    const first = await openOnce(repo);
    const next = await openOnce(repo);
    for (const [k, f] of [[`${repo} first open`, first] as const, [`${repo} next open`, next] as const])
      figures.set(k, [...(figures.get(k) ?? []), f]);
    console.log(
      `round ${round + 1} ${repo}: first ${first.wall_ms.toFixed(0)} ms wall / ${first.cpu_ms.toFixed(0)} ms cpu; next ${next.wall_ms.toFixed(0)} / ${next.cpu_ms.toFixed(0)}`,
    );
  }
}
for (const [k, fs] of figures)
  console.log(
    `${k} (medians of ${fs.length}): ${median(fs.map((f) => f.wall_ms)).toFixed(0)} ms wall, ${median(fs.map((f) => f.cpu_ms)).toFixed(0)} ms cpu, answer ${median(fs.map((f) => f.mb)).toFixed(2)} MB`,
  );
await pristine();
