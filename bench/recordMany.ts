/**
 * Recording item after item through one process (figures only; nothing is asserted). Run:
 *   npx tsx bench/recordMany.ts [--items 1000] [--against DIR]
 *
 * A generated project of N items; one SessionService (no engine) records each in turn as the app does: open the item,
 * start, 1 s of audio in 50 ms chunks, stop. Prints the time per item at the start and the end of the run and, after
 * it, how long reopening the session takes; beside wall time, the processor time per item (steadier on a shared machine). With --against, the same with another checkout's code (its TypeScript
 * through tsx), interleaved in blocks of 100 items so both share the machine's noise.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { items: { type: 'string', default: '1000' }, against: { type: 'string' } } });
const items = Number(values.items);
const HERE = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

interface Code {
  name: string;
  SessionService: {
    open(options: unknown): Promise<{
      openItem(id: string): Promise<void>;
      startRecording(): Promise<void>;
      appendAudio(pcm: Float32Array): Promise<void>;
      stopRecording(): Promise<void>;
      close(): Promise<void>;
    }>;
  };
  loadProjectConfig(dir: string): Promise<unknown>;
  loadProjectItems(project: unknown): Promise<unknown[]>;
}

async function load(name: string, root: string): Promise<Code> {
  const service = (await import(path.join(root, 'core/node/session/sessionService.ts'))) as { SessionService: Code['SessionService'] };
  const project = (await import(path.join(root, 'core/node/project/projectFolder.ts'))) as Pick<
    Code,
    'loadProjectConfig' | 'loadProjectItems'
  >;
  return {
    name,
    SessionService: service.SessionService,
    loadProjectConfig: project.loadProjectConfig,
    loadProjectItems: project.loadProjectItems,
  };
}

async function project(root: string): Promise<string> {
  const dir = path.join(root, 'project');
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, 'aloud.yaml'),
    'name: record-many\nschema:\n  name: p\n  ordered: false\n  labels:\n    - {name: Polite, key: "1"}\n    - {name: Rude, key: "2"}\nitems: items.jsonl\n',
  );
  await writeFile(
    path.join(dir, 'items.jsonl'),
    `${Array.from({ length: items }, (_, i) => JSON.stringify({ id: `item-${String(i).padStart(5, '0')}`, text: `Reply ${i}` })).join('\n')}\n`,
  );
  return dir;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const chunk = Float32Array.from({ length: 800 }, (_, i) => 0.2 * Math.sin(i / 5));

const codes = [await load('perf', HERE), ...(values.against ? [await load('before', path.resolve(values.against))] : [])];
const root = await mkdtemp(path.join(tmpdir(), 'aloud-record-many-'));
try {
  const runs = await Promise.all(
    codes.map(async (code) => {
      const dir = await project(path.join(root, code.name));
      const config = await code.loadProjectConfig(dir);
      const list = (await code.loadProjectItems(config)) as Array<{ id: string }>;
      return {
        code,
        dir,
        config,
        list,
        times: [] as number[],
        cpu: [] as number[],
        service: await code.SessionService.open({ project: config, annotator: 'ana', items: list }),
      };
    }),
  );
  for (let block = 0; block < items; block += 100) {
    for (const run of runs) {
      for (let i = block; i < Math.min(items, block + 100); i++) {
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        await run.service.openItem(run.list[i]!.id);
        await run.service.startRecording();
        for (let c = 0; c < 20; c++) await run.service.appendAudio(chunk);
        await run.service.stopRecording();
        run.times.push(performance.now() - started);
        const cpu = process.cpuUsage(cpuBefore);
        run.cpu.push((cpu.user + cpu.system) / 1000);
      }
    }
  }
  for (const run of runs) {
    await run.service.close();
    const opened = performance.now();
    const again = await run.code.SessionService.open({ project: run.config, annotator: 'ana', items: run.list });
    const openMs = performance.now() - opened;
    await again.close();
    const first = run.times.slice(0, 100);
    const last = run.times.slice(-100);
    process.stdout.write(
      `${run.code.name.padEnd(7)} ${items} items: per item median ${median(first).toFixed(1)} ms (first 100), ${median(last).toFixed(1)} ms (last 100); processor time per item median ${median(run.cpu.slice(0, 100)).toFixed(1)} ms (first 100), ${median(run.cpu.slice(-100)).toFixed(1)} ms (last 100); reopening the session ${openMs.toFixed(0)} ms\n`,
    );
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
