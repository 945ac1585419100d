/**
 * Label acts at study size, through the app's own HTTP API in browser mode (figures only; nothing is asserted): the
 * acts section of `npm run bench:scale`, or on its own:
 *
 *   tsx bench/scaleActs.ts [--against DIR] [--no-full | --only-full] [--keep DIR] [--items N (default 10000)] [--window N (default 100)] [--json]
 *
 * An annotator labels by key as the Label screen does (openItem, commitLabel, completeItem per item) with the page's
 * event stream open. For each contender (this checkout; with --against, an earlier one, interleaved):
 *   - items 1–100 of a fresh 10,000-item project, 3 annotators one after the other;
 *   - items 9,901–10,000 of a project whose 3 sessions already hold 9,900 items (written as the app logs a study,
 *     bench/scaleStudy.ts), and opening each 10,000-item session after a restart of the app;
 *   - the app process's resident memory (peak).
 * And for this checkout (unless --no-full) the whole study through the API: 3 annotators × 10,000 items, every act
 * timed, the figures at the 100th and the 10,000th item taken from that one pass.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile, cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seededRandom } from '../core/common/agreement/krippendorff';
import { DEFAULT_STUDY_SHAPE, studyItemId, writeScaleStudy } from './scaleStudy';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let ITEMS = 10_000;
let WINDOW = 100;
const ANNOTATORS = ['annotator-01', 'annotator-02', 'annotator-03'];
const LABELS = ['Polite', 'Impolite', 'Neutral'];

export interface ActSectionOptions {
  /** where the projects are written */
  root: string;
  /** an earlier checkout to compare with (its TypeScript source), or null */
  against: string | null;
  /** also the whole 3 × 10,000 pass through the API (this checkout only); 'only': that pass alone */
  full: boolean | 'only';
  say: (line: string) => void;
  /** items of the study (default 10,000; smaller for a quick look) */
  items?: number;
  /** items per annotator timed at the start and at the end (default 100) */
  window?: number;
}

/** Times of one kind of call: milliseconds and answer sizes (bytes). */
interface Calls {
  ms: number[];
  bytes: number[];
}

export interface ActFigures {
  contender: string;
  /** per call, at items 1–100 and 9,901–10,000 (the 3 annotators' acts together) */
  windows: Record<string, Record<'first' | 'last', { median_ms: number; p95_ms: number; median_kb: number }>>;
  /** processor time of the app process per item (its three calls), at items 1–100 and 9,901–10,000 */
  cpu_ms_per_item: Record<'first' | 'last', number>;
  /** opening a 10,000-item session after a restart of the app (each annotator's, median): wall and the app's processor time */
  open_10k_ms: number;
  open_10k_cpu_ms: number;
  open_10k_kb: number;
  /** peak resident memory of the app process over the runs */
  peak_rss_mb: number;
  /** the whole pass, when run: wall seconds for 3 × 10,000 items */
  full_pass_s?: number;
}

const quantile = (xs: readonly number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const median = (xs: readonly number[]): number => quantile(xs, 0.5);

/** One app process in browser mode (bench/scaleActsHost.ts) and a client speaking its HTTP API as the page does. */
export class AppProcess {
  private events: AbortController | null = null;

  private constructor(
    private readonly child: ChildProcess,
    private readonly origin: string,
    private readonly headers: Record<string, string>,
  ) {}

  static async start(repo: string, project: string): Promise<AppProcess> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO, 'bench/scaleActsHost.ts'), '--repo', repo, '--project', project],
      { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`the app process exited (${code}) before it listened`)));
    });
    const { origin, port, token } = JSON.parse(first) as { origin: string; port: number; token: string };
    const app = new AppProcess(child, origin, {
      cookie: `aloud_token_${port}=${token}`,
      'x-aloud-client': 'bench-page',
      'content-type': 'application/json',
    });
    app.listen();
    return app;
  }

  /** The page's event stream, read and dropped (the host writes every pushed event to it, as for a page). */
  private listen(): void {
    this.events = new AbortController();
    void fetch(`${this.origin}/api/events`, { headers: this.headers, signal: this.events.signal })
      .then(async (response) => {
        const reader = response.body?.getReader();
        while (reader && !(await reader.read()).done);
      })
      .catch(() => undefined);
  }

  /** One call of the API: milliseconds to the parsed answer, and its size. */
  async call(method: string, ...args: unknown[]): Promise<{ ms: number; bytes: number }> {
    const started = performance.now();
    const response = await fetch(`${this.origin}/api/call/${method}`, {
      method: 'POST',
      headers: this.headers,
      body: JSON.stringify({ args }),
    });
    const text = await response.text();
    const outcome = JSON.parse(text) as { ok: boolean; error?: { message: string } };
    const ms = performance.now() - started;
    if (!outcome.ok) throw new Error(`${method}: ${outcome.error?.message ?? response.status}`);
    return { ms, bytes: Buffer.byteLength(text) };
  }

  /** Processor time the app process has used (user + system, ms): steadier than wall time on a shared machine. */
  async cpuMs(): Promise<number> {
    // utime and stime, fields 14 and 15 of /proc/PID/stat, in clock ticks (100 a second on Linux)
    const stat = (await readFile(`/proc/${this.child.pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.split(' ') ?? [];
    return (Number(stat[11]) + Number(stat[12])) * 10;
  }

  /** Peak resident memory of the app process so far (MB). */
  async peakRssMb(): Promise<number> {
    const status = await readFile(`/proc/${this.child.pid}/status`, 'utf8').catch(() => '');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
    return hwm ? Number(hwm[1]) / 1024 : NaN;
  }

  async stop(): Promise<void> {
    this.events?.abort();
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** A project of `items` items whose annotators' sessions hold the first `labelled` of them (completing needs no spoken label). */
async function studyProject(dir: string, items: number, labelled: number): Promise<string> {
  await writeScaleStudy(dir, { ...DEFAULT_STUDY_SHAPE, items: labelled, annotators: labelled > 0 ? ANNOTATORS : [] });
  const more: string[] = [];
  for (let i = labelled; i < items; i++)
    more.push(JSON.stringify({ id: studyItemId(i), text: `Reply ${i + 1}: thank you for waiting, the order arrives tomorrow.` }));
  if (more.length > 0) await appendFile(path.join(dir, 'items.jsonl'), `${more.join('\n')}\n`);
  // labelled by key, as the annotator did: completing does not wait for a spoken label
  await appendFile(path.join(dir, 'aloud.yaml'), '  require_spoken_label: false\n');
  return dir;
}

/**
 * One annotator labels items [from, to) by key (opening the session first unless `open` is false); each call's time is
 * kept by its kind, by item in `byItem`, and the app's processor time per item in `cpu`.
 */
async function label(
  app: AppProcess,
  annotator: string,
  from: number,
  to: number,
  calls: Map<string, Calls>,
  more: { byItem?: number[]; cpu?: number[]; open?: boolean } = {},
): Promise<void> {
  if (more.open !== false) await app.call('openSession', annotator);
  const cpuBefore = await app.cpuMs();
  const random = seededRandom(from + annotator.length);
  const keep = (method: string, m: { ms: number; bytes: number }): void => {
    let c = calls.get(method);
    if (!c) calls.set(method, (c = { ms: [], bytes: [] }));
    c.ms.push(m.ms);
    c.bytes.push(m.bytes);
  };
  for (let i = from; i < to; i++) {
    keep('openItem', await app.call('openItem', studyItemId(i)));
    const labelled = await app.call('commitLabel', LABELS[Math.floor(random() * LABELS.length)]!, 'key');
    keep('commitLabel', labelled);
    more.byItem?.push(labelled.ms);
    keep('completeItem', await app.call('completeItem'));
  }
  more.cpu?.push(((await app.cpuMs()) - cpuBefore) / (to - from));
}

const windowOf = (calls: Map<string, Calls>) =>
  Object.fromEntries(
    [...calls].map(([method, c]) => [method, { median_ms: median(c.ms), p95_ms: quantile(c.ms, 0.95), median_kb: median(c.bytes) / 1024 }]),
  );

/** Items 1–100 and 9,901–10,000 for one checkout, opening 10,000-item sessions after a restart, and the memory. */
async function sampled(name: string, repo: string, root: string, fresh: string, nearlyFull: string): Promise<ActFigures> {
  const first = new Map<string, Calls>();
  const last = new Map<string, Calls>();
  let peak = 0;
  const freshCopy = path.join(root, `${name}-fresh`);
  await cp(fresh, freshCopy, { recursive: true });
  let app = await AppProcess.start(repo, freshCopy);
  const cpuFirst: number[] = [];
  const cpuLast: number[] = [];
  for (const annotator of ANNOTATORS) await label(app, annotator, 0, WINDOW, first, { cpu: cpuFirst });
  peak = Math.max(peak, await app.peakRssMb());
  await app.stop();

  const fullCopy = path.join(root, `${name}-9900`);
  await cp(nearlyFull, fullCopy, { recursive: true });
  app = await AppProcess.start(repo, fullCopy);
  for (const annotator of ANNOTATORS) await label(app, annotator, ITEMS - WINDOW, ITEMS, last, { cpu: cpuLast });
  peak = Math.max(peak, await app.peakRssMb());
  await app.stop();

  // each annotator's 10,000-item session, opened by a freshly started app
  const opens: Array<{ ms: number; bytes: number; cpu: number }> = [];
  for (const annotator of ANNOTATORS) {
    app = await AppProcess.start(repo, fullCopy);
    const cpu = await app.cpuMs();
    const opened = await app.call('openSession', annotator);
    opens.push({ ...opened, cpu: (await app.cpuMs()) - cpu });
    peak = Math.max(peak, await app.peakRssMb());
    await app.stop();
  }
  const windows: ActFigures['windows'] = {};
  const f = windowOf(first);
  const l = windowOf(last);
  for (const method of Object.keys(f)) windows[method] = { first: f[method]!, last: l[method]! };
  return {
    contender: name,
    windows,
    cpu_ms_per_item: { first: median(cpuFirst), last: median(cpuLast) },
    open_10k_ms: median(opens.map((o) => o.ms)),
    open_10k_cpu_ms: median(opens.map((o) => o.cpu)),
    open_10k_kb: median(opens.map((o) => o.bytes)) / 1024,
    peak_rss_mb: peak,
  };
}

/** The whole study through the API (this checkout): every label act timed, by item. */
async function fullPass(
  root: string,
  fresh: string,
  say: (line: string) => void,
): Promise<{
  figures: ActFigures['windows'];
  cpu: ActFigures['cpu_ms_per_item'];
  seconds: number;
  peak: number;
  open: { ms: number; bytes: number; cpu: number };
}> {
  const dir = path.join(root, 'full-pass');
  await cp(fresh, dir, { recursive: true });
  const app = await AppProcess.start(REPO, dir);
  const started = performance.now();
  const first = new Map<string, Calls>();
  const last = new Map<string, Calls>();
  const cpuFirst: number[] = [];
  const cpuLast: number[] = [];
  for (const annotator of ANNOTATORS) {
    const times: number[] = [];
    // the windows are taken from the same pass: 1–100, the middle (kept by item only), 9,901–10,000
    await label(app, annotator, 0, WINDOW, first, { byItem: times, cpu: cpuFirst });
    await label(app, annotator, WINDOW, ITEMS - WINDOW, new Map(), { byItem: times, open: false });
    await label(app, annotator, ITEMS - WINDOW, ITEMS, last, { byItem: times, cpu: cpuLast, open: false });
    say(
      `    ${annotator}: ${ITEMS} items, ${((performance.now() - started) / 1000).toFixed(0)} s so far; label act median over the first 1,000 items ${median(times.slice(0, 1000)).toFixed(1)} ms, over the last 1,000 ${median(times.slice(-1000)).toFixed(1)} ms`,
    );
  }
  const seconds = (performance.now() - started) / 1000;
  const peak = await app.peakRssMb();
  await app.stop();
  const restarted = await AppProcess.start(REPO, dir);
  const cpu = await restarted.cpuMs();
  const open = { ...(await restarted.call('openSession', ANNOTATORS[0]!)), cpu: 0 };
  open.cpu = (await restarted.cpuMs()) - cpu;
  await restarted.stop();
  const f = windowOf(first);
  const l = windowOf(last);
  const figures: ActFigures['windows'] = {};
  for (const method of Object.keys(f)) figures[method] = { first: f[method]!, last: l[method]! };
  return { figures, cpu: { first: median(cpuFirst), last: median(cpuLast) }, seconds, peak, open };
}

const ms = (x: number): string => `${x.toFixed(1).padStart(6)} ms`;
const kb = (x: number): string => (x >= 1024 ? `${(x / 1024).toFixed(1)} MB` : `${x.toFixed(1)} KB`);

function printWindows(say: (line: string) => void, name: string, windows: ActFigures['windows']): void {
  for (const method of ['commitLabel', 'openItem', 'completeItem']) {
    const w = windows[method];
    if (!w) continue;
    say(
      `  ${name.padEnd(8)} ${method.padEnd(13)} items 1–${WINDOW}: median ${ms(w.first.median_ms)}, p95 ${ms(w.first.p95_ms)}, answer ${kb(w.first.median_kb)}   items ${ITEMS - WINDOW + 1}–${ITEMS}: median ${ms(w.last.median_ms)}, p95 ${ms(w.last.p95_ms)}, answer ${kb(w.last.median_kb)}`,
    );
  }
}

/** The acts section: prints its figures and returns them. */
export async function actSection(options: ActSectionOptions): Promise<ActFigures[]> {
  const { root, against, say } = options;
  WINDOW = Math.max(1, options.window ?? 100);
  ITEMS = Math.max(2 * WINDOW, options.items ?? 10_000);
  await mkdir(root, { recursive: true });
  say(
    `\nLabel acts through the app's HTTP API (browser mode), ${ANNOTATORS.length} annotators, ${ITEMS} items (openItem, commitLabel by key, completeItem; goal: label act median ≤ 5 ms, p95 ≤ 20 ms at the 10,000th item; open ≤ 1 s; RSS ≤ 400 MB)`,
  );
  const fresh = await studyProject(path.join(root, 'acts-fresh'), ITEMS, 0);
  const nearlyFull = options.full === 'only' ? '' : await studyProject(path.join(root, 'acts-9900'), ITEMS, ITEMS - WINDOW);
  const contenders = [{ name: 'after', repo: REPO }, ...(against ? [{ name: 'before', repo: path.resolve(against) }] : [])].reverse();
  const figures: ActFigures[] = [];
  for (const contender of options.full === 'only' ? [] : contenders) {
    say(
      `  ${contender.name}: items 1–${WINDOW} and ${ITEMS - WINDOW + 1}–${ITEMS} (the ${ITEMS - WINDOW} before them written as the app logs a study), opening after a restart…`,
    );
    figures.push(await sampled(contender.name, contender.repo, root, fresh, nearlyFull));
  }
  say('');
  for (const f of figures) printWindows(say, f.contender, f.windows);
  for (const f of figures)
    say(
      `  ${f.contender.padEnd(8)} app processor time per item (3 calls): items 1–${WINDOW} ${ms(f.cpu_ms_per_item.first)}, items ${ITEMS - WINDOW + 1}–${ITEMS} ${ms(f.cpu_ms_per_item.last)}`,
    );
  for (const f of figures)
    say(
      `  ${f.contender.padEnd(8)} openSession of a ${ITEMS}-item session after a restart: ${ms(f.open_10k_ms)} (processor ${ms(f.open_10k_cpu_ms)}; answer ${kb(f.open_10k_kb)}); app process peak RSS ${f.peak_rss_mb.toFixed(0)} MB`,
    );
  if (options.full) {
    say(`\n  after: the whole study through the API, ${ANNOTATORS.length} × ${ITEMS} items, every act timed…`);
    const full = await fullPass(root, fresh, say);
    printWindows(say, 'full', full.figures);
    say(
      `  full     ${ANNOTATORS.length} × ${ITEMS} items in ${full.seconds.toFixed(0)} s; openSession of a ${ITEMS}-item session after a restart ${ms(full.open.ms)} (processor ${ms(full.open.cpu)}; answer ${kb(full.open.bytes / 1024)}); app process peak RSS ${full.peak.toFixed(0)} MB`,
    );
    say(
      `  full     app processor time per item (3 calls): items 1–${WINDOW} ${ms(full.cpu.first)}, items ${ITEMS - WINDOW + 1}–${ITEMS} ${ms(full.cpu.last)}`,
    );
    figures.push({
      contender: 'after (whole pass)',
      windows: full.figures,
      cpu_ms_per_item: full.cpu,
      open_10k_ms: full.open.ms,
      open_10k_cpu_ms: full.open.cpu,
      open_10k_kb: full.open.bytes / 1024,
      peak_rss_mb: full.peak,
      full_pass_s: full.seconds,
    });
  }
  return figures;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      against: { type: 'string' },
      'no-full': { type: 'boolean', default: false },
      'only-full': { type: 'boolean', default: false },
      keep: { type: 'string' },
      json: { type: 'boolean', default: false },
      items: { type: 'string', default: '10000' },
      window: { type: 'string', default: '100' },
    },
  });
  const root = values.keep ? path.resolve(values.keep) : await mkdtemp(path.join(tmpdir(), 'aloud-acts-'));
  try {
    const figures = await actSection({
      root,
      against: values.against ?? null,
      full: values['only-full'] ? 'only' : !values['no-full'],
      items: Number(values.items),
      window: Number(values.window),
      say: (line) => !values.json && process.stdout.write(`${line}\n`),
    });
    if (values.json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  } finally {
    if (!values.keep) await rm(root, { recursive: true, force: true });
  }
}
