/**
 * Study-size benchmark (figures only; nothing is asserted). Run: npm run bench:scale [-- options]
 *
 * Generates studies of 3 annotators × 1,000, 3,000 and 10,000 items (bench/scaleStudy.ts: labelled by key, every
 * fifth item by voice, every tenth with model reasoning), then times every study-size command of the CLI as a
 * separate process and reads its peak resident memory (/usr/bin/time): export in each format, validate, agreement
 * (1,000 bootstrap resamples), agreement --export, the huddle (`room open --huddle`, until the room is served),
 * session reparse --dry-run; then `aloud --help` (CLI start); then a 20 × 10,000 study (200,000 records) exported,
 * validated and fed to `agreement --export`. Contenders run interleaved, round by round; medians are printed, and for
 * each step how its time grows from the smallest study to the largest (10× the items: 10× the time is linear).
 *
 *   --sizes 1000,3000,10000   item counts of the 3-annotator studies
 *   --runs N                  rounds per step (default 3; CLI start: 5 × N)
 *   --against DIR             also run the CLI of another checkout (its TypeScript source through tsx), interleaved
 *   --big N                   records of the large run, as annotators × 10,000 items (default 200000; 0 skips it)
 *   --keep DIR                write the studies under DIR and keep them (default: a temporary folder, removed)
 *   --json                    print the figures as JSON
 *   --keyed-only              studies labelled by key and voice without recordings (the studies before recordings)
 *   --sections LIST           which sections run (default study,cli,acts,large)
 *   --steps REGEX             only the study steps whose name matches (e.g. "ingest|show")
 *
 * With recordings (the default; --keyed-only leaves them out) every item of every annotator holds a 1 s take (WAV and
 * its events), and the study steps add what recordings cost: the interop exports that copy audio (eaf, textgrid,
 * maxqda, qdpx, hf), session show, session ingest of one more take (opening the session for writing), pack and unpack.
 * Every study, recorded or not, ends with the app opening a session after a start (openSession, reviewSession: time,
 * processor time, answer size).
 *
 * The sections are a list (SECTIONS): a later section (e.g. label acts through the app's API) is one more entry.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { DEFAULT_STUDY_SHAPE, studyItemId, writeScaleStudy } from './scaleStudy';
import { encodeWavPcm16 } from '../core/node/audio/wavFile';
import { actSection, AppProcess, type ActFigures } from './scaleActs';
import { CLI_BUNDLE, ensureCliBundle } from '../scripts/build-cli.mjs';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,3000,10000' },
    runs: { type: 'string', default: '3' },
    against: { type: 'string' },
    big: { type: 'string', default: '200000' },
    keep: { type: 'string' },
    json: { type: 'boolean', default: false },
    'keyed-only': { type: 'boolean', default: false },
    sections: { type: 'string', default: 'study,cli,acts,large' },
    steps: { type: 'string' },
  },
});
const recordings = !values['keyed-only'];
const sizes = values.sizes
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const runs = Math.max(1, Number(values.runs) || 3);
const bigRecords = Number(values.big) || 0;
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const say = (line: string): void => {
  if (!values.json) process.stdout.write(`${line}\n`);
};

/** A CLI to measure: how to start it and where. */
interface Contender {
  name: string;
  command: string[];
  cwd: string;
}

/** One measured command: elapsed seconds, processor seconds (user + system: robust on a shared machine), peak resident memory. */
interface Measure {
  seconds: number;
  cpu_s: number;
  rss_mb: number;
  ok: boolean;
  note?: string;
}

/** How one step runs on a study: the CLI arguments, or a function for steps that need more than waiting for exit. */
interface Step {
  name: string;
  args: (study: Study, run: number) => string[];
  /** the process serves until stopped: measured up to its first line of output, then interrupted */
  untilFirstLine?: boolean;
  /** the step only makes sense once another step has written its input */
  needs?: string;
  /** run before each measured run (not timed): e.g. an empty project to unpack into */
  prepare?: (study: Study, run: number) => Promise<void>;
}

interface Study {
  dir: string;
  items: number;
  annotators: number;
  out: string;
}

/** "3×10k": annotators × items, as the rows name a study. */
const studyLabel = (annotators: number, items: number): string => `${annotators}×${items >= 1000 ? `${items / 1000}k` : items}`;

const annotatorNames = (n: number): string[] => Array.from({ length: n }, (_, i) => `annotator-${String(i + 1).padStart(2, '0')}`);

async function generate(root: string, items: number, annotators: number): Promise<Study> {
  const kind = recordings ? 'rec' : 'keyed';
  const dir = path.join(root, `study-${kind}-${annotators}x${items}`);
  const out = path.join(root, `exports-${kind}-${annotators}x${items}`);
  if (!existsSync(path.join(dir, 'aloud.yaml'))) {
    const started = performance.now();
    await writeScaleStudy(dir, { ...DEFAULT_STUDY_SHAPE, items, annotators: annotatorNames(annotators), recordings });
    say(`  generated ${annotators} × ${items} items in ${((performance.now() - started) / 1000).toFixed(1)} s (${dir})`);
  }
  await mkdir(out, { recursive: true });
  if (recordings) {
    // what session ingest feeds: one more 1 s take, transcribed by a script (no model needed)
    await writeFile(
      path.join(out, 'take.wav'),
      encodeWavPcm16(
        new Float32Array(16_000).map((_, i) => (i > 1_600 && i < 14_400 ? 0.25 * Math.sin(i / 14) : 0)),
        16_000,
      ),
    );
    await writeFile(
      path.join(out, 'engine-script.json'),
      JSON.stringify({ items: { [studyItemId(0)]: [{ text: ' Hmm, I label this polite.', delay_ms: 0 }] } }),
    );
  }
  return { dir, items, annotators, out };
}

const file = (study: Study, contender: string, name: string): string => path.join(study.out, `${contender}-${name}`);

/** The steps of the study section, in the order they run (validate and agreement --export read the exports). */
function studySteps(contender: string): Step[] {
  const exportTo = (format: string, ext: string): Step => ({
    name: `export ${format}`,
    args: (s, run) =>
      [
        'export',
        '--project',
        s.dir,
        '--format',
        format,
        '--out',
        format === 'txt' || format === 'srt' || format === 'vtt'
          ? file(s, contender, `${format}-${run}`)
          : file(s, contender, `export.${ext}`),
        '--force',
      ].filter((a) => a !== '--force' || !['txt', 'srt', 'vtt'].includes(format)),
  });
  return [
    exportTo('jsonl', 'jsonl'),
    exportTo('json', 'json'),
    exportTo('csv', 'csv'),
    exportTo('process-reward', 'pr.jsonl'),
    exportTo('txt', 'txt'),
    exportTo('srt', 'srt'),
    exportTo('vtt', 'vtt'),
    { name: 'validate jsonl', args: (s) => ['validate', file(s, contender, 'export.jsonl'), '--project', s.dir], needs: 'export jsonl' },
    { name: 'validate json', args: (s) => ['validate', file(s, contender, 'export.json'), '--project', s.dir], needs: 'export json' },
    { name: 'validate csv', args: (s) => ['validate', file(s, contender, 'export.csv'), '--project', s.dir], needs: 'export csv' },
    { name: 'agreement', args: (s) => ['agreement', '--project', s.dir, '--json'] },
    {
      name: 'agreement --export',
      args: (s) => ['agreement', '--project', s.dir, '--export', file(s, contender, 'export.jsonl'), '--json'],
      needs: 'export jsonl',
    },
    ...(recordings ? recordedSteps(contender) : []),
    { name: 'huddle', args: (s) => ['room', 'open', '--project', s.dir, '--huddle', '--json'], untilFirstLine: true },
    { name: 'reparse --dry-run', args: (s) => ['session', 'reparse', '--project', s.dir, '--dry-run', '--json'] },
  ];
}

/** What recordings add: the exports that copy audio, reading one session, one more take, pack and unpack. */
function recordedSteps(contender: string): Step[] {
  const interop = (format: string): Step => ({
    name: `export ${format}`,
    args: (s) => ['export', '--project', s.dir, '--format', format, '--out', file(s, contender, format), '--force', '--json'],
  });
  const annotator = annotatorNames(1)[0]!;
  const unpackInto = (s: Study, run: number): string => file(s, contender, `unpacked-${run}`);
  return [
    ...['eaf', 'textgrid', 'maxqda', 'qdpx', 'hf'].map(interop),
    { name: 'session show --json', args: (s) => ['session', 'show', '--project', s.dir, '--annotator', annotator, '--json'] },
    {
      name: 'session ingest',
      args: (s) => [
        'session',
        'ingest',
        '--project',
        s.dir,
        '--annotator',
        annotator,
        '--item',
        studyItemId(0),
        '--wav',
        path.join(s.out, 'take.wav'),
        '--engine-script',
        path.join(s.out, 'engine-script.json'),
        '--json',
      ],
    },
    {
      name: 'session pack',
      args: (s) => [
        'session',
        'pack',
        '--project',
        s.dir,
        '--annotator',
        annotator,
        '--out',
        file(s, contender, 'session.aloudpack'),
        '--force',
        '--json',
      ],
    },
    {
      name: 'session unpack',
      needs: 'session pack',
      prepare: async (s, run) => {
        const into = unpackInto(s, run);
        await rm(into, { recursive: true, force: true });
        await mkdir(into, { recursive: true });
        for (const name of ['aloud.yaml', 'items.jsonl']) await copyFile(path.join(s.dir, name), path.join(into, name));
      },
      args: (s, run) => ['session', 'unpack', file(s, contender, 'session.aloudpack'), '--project', unpackInto(s, run), '--json'],
    },
  ];
}

const exec = promisify(execFile);

/** Runs a command to its end under /usr/bin/time: wall time and the peak resident set of the process. */
async function measureExit(contender: Contender, args: string[]): Promise<Measure> {
  const marker = '@@aloud-bench';
  try {
    const { stderr } = await exec('/usr/bin/time', ['-f', `${marker} %e %U %S %M`, ...contender.command, ...args], {
      cwd: contender.cwd,
      maxBuffer: 1024 * 1024 * 1024,
    });
    return parseTime(stderr, true);
  } catch (e) {
    const err = e as { stderr?: string; code?: number };
    const measured = parseTime(err.stderr ?? '', false);
    const reason = (err.stderr ?? '').split('\n').find((l) => l.startsWith('aloud')) ?? `exit ${err.code}`;
    return { ...measured, ok: false, note: reason.slice(0, 160) };
  }

  function parseTime(stderr: string, ok: boolean): Measure {
    const line = stderr.split('\n').find((l) => l.startsWith(marker));
    const [, seconds, user, system, kb] = line?.split(' ') ?? [];
    return { seconds: Number(seconds ?? NaN), cpu_s: Number(user ?? NaN) + Number(system ?? NaN), rss_mb: Number(kb ?? NaN) / 1024, ok };
  }
}

/** Runs a serving command until its first line of output (the room is open), then interrupts it; peak RSS from /proc. */
function measureFirstLine(contender: Contender, args: string[]): Promise<Measure> {
  return new Promise((resolve) => {
    const started = performance.now();
    const [cmd, ...rest] = contender.command;
    const child = spawn(cmd!, [...rest, ...args], { cwd: contender.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let done = false;
    const finish = async (m: Measure): Promise<void> => {
      if (done) return;
      done = true;
      child.kill('SIGINT');
      resolve(m);
    };
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', async () => {
      const seconds = (performance.now() - started) / 1000;
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
      const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
      // utime and stime, fields 14 and 15 of /proc/PID/stat, in clock ticks (100 a second on Linux)
      const stat = (await readFile(`/proc/${child.pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.split(' ') ?? [];
      const cpu = (Number(stat[11]) + Number(stat[12])) / 100;
      await finish({ seconds, cpu_s: cpu, rss_mb: hwm ? Number(hwm[1]) / 1024 : NaN, ok: true });
    });
    child.on(
      'exit',
      (code) =>
        void finish({
          seconds: (performance.now() - started) / 1000,
          cpu_s: NaN,
          rss_mb: NaN,
          ok: false,
          note: stderr.split('\n')[0]?.slice(0, 160) ?? `exit ${code}`,
        }),
    );
  });
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

interface Row {
  section: string;
  step: string;
  study: string;
  contender: string;
  seconds: number;
  cpu_s: number;
  rss_mb: number;
  runs: number;
  failed: string | null;
}

const rows: Row[] = [];

function report(section: string, step: string, study: string, contender: string, measures: readonly Measure[]): void {
  const failed = measures.find((m) => !m.ok);
  const rssOf = measures.map((m) => m.rss_mb).filter(Number.isFinite);
  const row: Row = {
    section,
    step,
    study,
    contender,
    seconds: median(measures.map((m) => m.seconds)),
    cpu_s: median(measures.map((m) => m.cpu_s)),
    rss_mb: rssOf.length > 0 ? Math.max(...rssOf) : NaN,
    runs: measures.length,
    failed: failed ? (failed.note ?? 'failed') : null,
  };
  rows.push(row);
  const rss = Number.isFinite(row.rss_mb) ? `${row.rss_mb.toFixed(0).padStart(5)} MB` : '     ? MB';
  say(
    `  ${step.padEnd(22)} ${study.padEnd(10)} ${contender.padEnd(8)} ${row.seconds.toFixed(2).padStart(7)} s  cpu ${row.cpu_s.toFixed(2).padStart(6)} s  ${rss}${row.failed ? `  FAILED: ${row.failed}` : ''}`,
  );
}

/** Every contender runs each step once per round, so they share whatever else the machine does. */
async function runSteps(section: string, study: Study, contenders: readonly Contender[], rounds: number): Promise<void> {
  const label = studyLabel(study.annotators, study.items);
  const failedSteps = new Map<string, Set<string>>();
  const stepsOf = new Map(contenders.map((c) => [c.name, studySteps(c.name)]));
  const only = values.steps ? new RegExp(values.steps) : null;
  const names = stepsOf
    .get(contenders[0]!.name)!
    .map((s) => s.name)
    .filter((name) => !only || only.test(name));
  for (const name of names) {
    const measures = new Map<string, Measure[]>(contenders.map((c) => [c.name, []]));
    for (let run = 0; run < rounds; run++) {
      for (const contender of contenders) {
        const step = stepsOf.get(contender.name)!.find((s) => s.name === name)!;
        if (step.needs && failedSteps.get(contender.name)?.has(step.needs)) continue;
        await step.prepare?.(study, run);
        const args = step.args(study, run);
        const m = step.untilFirstLine ? await measureFirstLine(contender, args) : await measureExit(contender, args);
        measures.get(contender.name)!.push(m);
        if (!m.ok) break;
      }
    }
    for (const contender of contenders) {
      const ms = measures.get(contender.name)!;
      if (ms.length === 0) continue;
      if (ms.some((m) => !m.ok)) failedSteps.set(contender.name, new Set([...(failedSteps.get(contender.name) ?? []), name]));
      report(section, name, label, contender.name, ms);
    }
  }
}

/**
 * Opening a recorded session in the app (browser mode, the page's HTTP API): each round a freshly started app opens one
 * annotator's session (openSession) and then reviews another's (reviewSession), as the Label and Review screens do.
 * Wall time of the call, the app's processor time for it and the answer's size (what the page receives).
 */
async function appOpens(study: Study, contenders: readonly Contender[], rounds: number): Promise<void> {
  const label = studyLabel(study.annotators, study.items);
  const [annotator, reviewed] = annotatorNames(Math.min(2, study.annotators));
  const calls: Array<{ step: string; call: (app: AppProcess) => Promise<{ ms: number; bytes: number }> }> = [
    { step: 'app openSession', call: (app) => app.call('openSession', annotator!) },
    { step: 'app reviewSession', call: (app) => app.call('reviewSession', reviewed ?? annotator!, 'bench-reviewer') },
  ];
  const measures = new Map<string, Measure[]>();
  const bytes = new Map<string, number[]>();
  for (let run = 0; run < rounds; run++) {
    for (const contender of contenders) {
      for (const { step, call } of calls) {
        const key = `${step}\u0000${contender.name}`;
        const app = await AppProcess.start(contender.name === 'aloud' ? REPO : contender.cwd, study.dir);
        try {
          const cpuBefore = await app.cpuMs();
          const answer = await call(app);
          const cpu = ((await app.cpuMs()) - cpuBefore) / 1000;
          measures.set(key, [
            ...(measures.get(key) ?? []),
            { seconds: answer.ms / 1000, cpu_s: cpu, rss_mb: await app.peakRssMb(), ok: true },
          ]);
          bytes.set(key, [...(bytes.get(key) ?? []), answer.bytes]);
        } catch (e) {
          const note = (e as Error).message.slice(0, 160);
          measures.set(key, [...(measures.get(key) ?? []), { seconds: NaN, cpu_s: NaN, rss_mb: NaN, ok: false, note }]);
        } finally {
          await app.stop();
        }
      }
    }
  }
  for (const { step } of calls)
    for (const contender of contenders) {
      const key = `${step}\u0000${contender.name}`;
      report('study', step, label, contender.name, measures.get(key) ?? []);
      const answered = bytes.get(key) ?? [];
      if (answered.length > 0) say(`    (answer ${(median(answered) / 1024 / 1024).toFixed(2)} MB)`);
    }
}

async function cliStart(contenders: readonly Contender[], rounds: number): Promise<void> {
  const npmRun: Contender = { name: 'npm run', command: ['npm', 'run', '-s', 'aloud', '--'], cwd: REPO };
  const all = [...contenders, npmRun];
  const measures = new Map<string, Measure[]>(all.map((c) => [c.name, []]));
  for (let run = 0; run < rounds; run++) for (const c of all) measures.get(c.name)!.push(await measureExit(c, ['--help']));
  for (const c of all) report('cli', 'aloud --help', '-', c.name, measures.get(c.name)!);
}

/** Time growth from the smallest study to the largest, per step and contender: 1.0 per 1× more items is linear. */
function growth(): void {
  if (sizes.length < 2) return;
  const small = studyLabel(3, sizes[0]!);
  const large = studyLabel(3, sizes[sizes.length - 1]!);
  const factor = sizes[sizes.length - 1]! / sizes[0]!;
  say(`\nGrowth ${small} → ${large} (${factor}× the items): time ratios, and the processor time above a CLI start (--help):`);
  for (const row of rows.filter((r) => r.study === large)) {
    const from = rows.find((r) => r.study === small && r.step === row.step && r.contender === row.contender);
    const start = rows.find((r) => r.step === 'aloud --help' && r.contender === row.contender)?.cpu_s ?? 0;
    if (!from || row.failed || from.failed) continue;
    const work = (row.cpu_s - start) / Math.max(0.001, from.cpu_s - start);
    say(
      `  ${row.step.padEnd(22)} ${row.contender.padEnd(8)} wall ×${(row.seconds / from.seconds).toFixed(1)}, cpu ×${(row.cpu_s / from.cpu_s).toFixed(1)} (above start-up ×${work.toFixed(1)}), memory ${from.rss_mb.toFixed(0)} → ${row.rss_mb.toFixed(0)} MB`,
    );
  }
}

async function main(): Promise<void> {
  await ensureCliBundle({ quiet: true });
  const contenders: Contender[] = [{ name: 'aloud', command: [process.execPath, CLI_BUNDLE], cwd: REPO }];
  if (values.against)
    contenders.push({
      name: 'before',
      command: [process.execPath, '--import', 'tsx', path.join(path.resolve(values.against), 'core/node/cli/bin.ts')],
      cwd: path.resolve(values.against),
    });
  const root = values.keep ? path.resolve(values.keep) : await mkdtemp(path.join(tmpdir(), 'aloud-scale-'));
  await mkdir(root, { recursive: true });
  let acts: ActFigures[] = [];
  say(
    `Aloud scale benchmark — ${runs} round(s), contenders: ${contenders.map((c) => c.name).join(', ')}; load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  try {
    /** The sections of the benchmark, in order; each prints its own rows. */
    const SECTIONS: Array<{ name: string; run: () => Promise<void> }> = [
      {
        name: 'study',
        run: async () => {
          for (const items of sizes) {
            say(`\n3 annotators × ${items} items`);
            const study = await generate(root, items, 3);
            await runSteps('study', study, contenders, runs);
            if (!values.steps || new RegExp(values.steps).test('app openSession')) await appOpens(study, contenders, runs);
          }
        },
      },
      { name: 'cli', run: async () => (say('\nCLI start'), cliStart(contenders, runs * 5)) },
      // label acts and opening a session through the app's HTTP API (bench/scaleActs.ts)
      {
        name: 'acts',
        run: async () =>
          void (acts = await actSection({ root: path.join(root, 'acts'), against: values.against ?? null, full: true, say })),
      },
      {
        name: 'large',
        run: async () => {
          if (bigRecords <= 0) return;
          const annotators = Math.max(1, Math.round(bigRecords / 10_000));
          say(`\n${annotators} annotators × 10000 items (${annotators * 10_000} records)`);
          const study = await generate(root, 10_000, annotators);
          const label = studyLabel(annotators, 10_000);
          // the CLI under test only: before streaming, this export took about 3.9 GB and validate refused files over 64 MiB
          for (const contender of contenders.slice(0, 1)) {
            const out = file(study, contender.name, 'export.jsonl');
            const exported = await measureExit(contender, ['export', '--project', study.dir, '--format', 'jsonl', '--out', out, '--force']);
            report('large', 'export jsonl', label, contender.name, [exported]);
            if (!exported.ok) continue;
            say(`    (${((await stat(out)).size / 1024 / 1024).toFixed(0)} MB)`);
            report('large', 'validate jsonl', label, contender.name, [
              await measureExit(contender, ['validate', out, '--project', study.dir]),
            ]);
            report('large', 'agreement --export', label, contender.name, [
              await measureExit(contender, ['agreement', '--project', study.dir, '--export', out, '--json']),
            ]);
          }
        },
      },
    ];
    const chosen = new Set(values.sections.split(','));
    for (const section of SECTIONS) if (chosen.has(section.name)) await section.run();
    growth();
    say(
      `\nload ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    if (values.json) process.stdout.write(`${JSON.stringify({ runs, rows, acts }, null, 2)}\n`);
  } finally {
    if (!values.keep) await rm(root, { recursive: true, force: true });
  }
}

await main();
