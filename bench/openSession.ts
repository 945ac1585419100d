/**
 * Opening one annotator's session of N recorded items in the app (figures only; nothing is asserted). Run:
 *   npx tsx bench/openSession.ts --prepare DIR [--items 10000]      writes the study once (bench/scaleStudy.ts, recordings)
 *   npx tsx bench/openSession.ts --dir DIR --bundles a.mjs,b.mjs [--rounds 3]
 * where each bundle is this file compiled by esbuild from one checkout (as the app is bundled: no keepNames), e.g.
 *   npx esbuild bench/openSession.ts --bundle --platform=node --format=esm --packages=external --outfile=/tmp/after.mjs
 * Each round, for each bundle in turn (interleaved, so they share the machine's noise): the pristine log is put back,
 * then one fresh process opens the session (no derived file beside the log: the first open ever) and a second fresh
 * process opens it again (whatever the first left beside the log). Each child prints the processor time (user +
 * system) and wall time of `openSession`, and of a second `openSession` in the same process; medians are printed.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AppService } from '../core/node/app/appService';
import { DEFAULT_STUDY_SHAPE, keepPristineLog, restorePristineLog, writeScaleStudy } from './scaleStudy';

const { values } = parseArgs({
  options: {
    prepare: { type: 'string' },
    items: { type: 'string', default: '10000' },
    dir: { type: 'string' },
    bundles: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    child: { type: 'boolean', default: false },
  },
});
const ANNOTATOR = 'ana';

interface Figures {
  cpu_ms: number;
  wall_ms: number;
  again_cpu_ms: number;
  again_wall_ms: number;
  items: number;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; cpu_ms: number; wall_ms: number }> {
  const cpu = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const value = await run();
  const wall_ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const used = process.cpuUsage(cpu);
  return { value, cpu_ms: (used.user + used.system) / 1000, wall_ms };
}

async function child(dir: string): Promise<void> {
  const app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null });
  const first = await timed(() => app.openSession(ANNOTATOR));
  const again = await timed(() => app.openSession(ANNOTATOR));
  await app.close();
  const figures: Figures = {
    cpu_ms: first.cpu_ms,
    wall_ms: first.wall_ms,
    again_cpu_ms: again.cpu_ms,
    again_wall_ms: again.wall_ms,
    items: first.value.items.length,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function compare(dir: string, bundles: string[], rounds: number): Promise<void> {
  const results = new Map<string, { cold: Figures[]; next: Figures[] }>(bundles.map((b) => [b, { cold: [], next: [] }]));
  const run = (bundle: string): Figures =>
    JSON.parse(execFileSync(process.execPath, [bundle, '--child', '--dir', dir], { encoding: 'utf8' })) as Figures;
  for (let r = 0; r < rounds; r++) {
    for (const bundle of bundles) {
      // the log as the study wrote it, and nothing derived from it beside it
      await restorePristineLog(dir, ANNOTATOR);
      const cold = run(bundle);
      const next = run(bundle);
      results.get(bundle)!.cold.push(cold);
      results.get(bundle)!.next.push(next);
      console.log(
        `round ${r + 1} ${path.basename(bundle)}: first open ${cold.cpu_ms.toFixed(0)} ms cpu / ${cold.wall_ms.toFixed(0)} ms wall; next process ${next.cpu_ms.toFixed(0)} / ${next.wall_ms.toFixed(0)}; same process again ${cold.again_cpu_ms.toFixed(0)} / ${cold.again_wall_ms.toFixed(0)}`,
      );
    }
  }
  for (const [bundle, { cold, next }] of results) {
    const m = (xs: Figures[], k: keyof Figures): string => median(xs.map((x) => x[k])).toFixed(0);
    console.log(
      `${path.basename(bundle)} (${cold[0]!.items} items, medians of ${rounds}): openSession in a fresh process, no file beside the log: ${m(cold, 'cpu_ms')} ms cpu, ${m(cold, 'wall_ms')} ms wall | fresh process after one open: ${m(next, 'cpu_ms')} ms cpu, ${m(next, 'wall_ms')} ms wall | again in the same process: ${m(cold, 'again_cpu_ms')} ms cpu, ${m(cold, 'again_wall_ms')} ms wall`,
    );
  }
}

if (values.prepare) {
  await writeScaleStudy(values.prepare, { ...DEFAULT_STUDY_SHAPE, items: Number(values.items), annotators: [ANNOTATOR], recordings: true });
  await keepPristineLog(values.prepare, ANNOTATOR);
  console.log(`wrote ${values.prepare} (${values.items} recorded items of "${ANNOTATOR}")`);
} else if (values.child) await child(values.dir!);
else await compare(values.dir!, values.bundles!.split(','), Number(values.rounds));
