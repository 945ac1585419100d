/**
 * Interop export benchmark (figures only; nothing is asserted). Run: npm run bench:interop [-- --items 400] [-- --runs 3]
 * [-- --formats eaf,qdpx] (only these formats: one format per process gives its own peak memory, printed at the end)
 *
 * A demo project grown to N items, one annotator who recorded every item (three 1 s utterances, transcribed with
 * token times, a spoken label, audio signals), exported as eaf, textgrid, qdpx, hf and maxqda through the CLI's
 * own code path. Each round runs every format once, so they share whatever else the machine does; medians of the
 * wall time are printed with the size of what each export wrote (its files, WAV copies included).
 */
import { cp, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { INTEROP_FORMATS } from '../core/common/export/interop/interopFormats';
import { runCli } from '../core/node/cli/main';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../core/node/project/projectFolder';
import { recordSession } from '../test/core/node/export/recordSession';

const { values } = parseArgs({
  options: { items: { type: 'string', default: '400' }, runs: { type: 'string', default: '3' }, formats: { type: 'string' } },
});
const itemCount = Math.max(1, Number(values.items) || 400);
const runs = Math.max(1, Number(values.runs) || 3);
const formats = values.formats === undefined ? [...INTEROP_FORMATS] : values.formats.split(',');
for (const f of formats)
  if (!(INTEROP_FORMATS as readonly string[]).includes(f)) throw new Error(`--formats: "${f}" is not one of ${INTEROP_FORMATS.join(', ')}`);

async function folderBytes(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    bytes += (await stat(path.join(entry.parentPath, entry.name))).size;
    files++;
  }
  return { bytes, files };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const root = await mkdtemp(path.join(tmpdir(), 'aloud-bench-interop-'));
const dir = path.join(root, 'proj');
await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
const ids = Array.from({ length: itemCount }, (_, i) => `item-${String(i + 1).padStart(4, '0')}`);
await writeFile(
  path.join(dir, 'items.jsonl'),
  ids.map((id, i) => `${JSON.stringify({ id, text: `Reply number ${i + 1}: thank you for waiting, it ships tomorrow.` })}\n`).join(''),
);
const built = performance.now();
await recordSession(
  await loadProjectConfig(dir),
  'ann',
  ids.map((id, i) => ({
    id,
    said: [
      ' Hmm, well, um, let me read it again.',
      ' It is kind of friendly, I guess.',
      i % 3 ? ' I label this polite.' : ' I label this neutral.',
    ],
    complete: true,
  })),
);
process.stdout.write(
  `${itemCount} items recorded (3 s of audio each) in ${((performance.now() - built) / 1000).toFixed(1)} s; load average ${loadavg()[0]!.toFixed(2)}\n`,
);

const times = new Map<string, number[]>(formats.map((f) => [f, []]));
// the peak before any export (the recorded session's fold and WAVs are the bench's own), to tell the exports' peak apart
const rssBeforeMiB = process.resourceUsage().maxRSS / 1024;
const sizes = new Map<string, { bytes: number; files: number }>();
const quiet = { out: () => undefined, err: () => undefined };
for (let round = 0; round < runs; round++) {
  for (const format of formats) {
    const out = path.join(root, `out-${format}`);
    await rm(out, { recursive: true, force: true });
    const start = performance.now();
    const code = await runCli(['export', '--project', dir, '--format', format, '--out', out], quiet);
    const ms = performance.now() - start;
    if (code !== 0) throw new Error(`export --format ${format} exited ${code}`);
    times.get(format)!.push(ms);
    sizes.set(format, await folderBytes(out));
  }
}
process.stdout.write(
  `\n${'format'.padEnd(10)}${'median s'.padStart(10)}${'MiB'.padStart(10)}${'files'.padStart(8)}   (${runs} rounds, interleaved)\n`,
);
for (const format of formats) {
  const size = sizes.get(format)!;
  process.stdout.write(
    `${format.padEnd(10)}${(median(times.get(format)!) / 1000).toFixed(2).padStart(10)}${(size.bytes / 2 ** 20).toFixed(1).padStart(10)}${String(size.files).padStart(8)}\n`,
  );
}
process.stdout.write(
  `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (${rssBeforeMiB.toFixed(0)} MiB before the first export); load average ${loadavg()[0]!.toFixed(2)}\n`,
);
await rm(root, { recursive: true, force: true });
