/**
 * Shadow room latency benchmark (figures only; nothing is asserted). Run: npm run bench:shadow [-- --items 6]
 *
 * `aloud room shadow` in its own process; for each item, `aloud session ingest --realtime --engine-script
 * --shadow-room CODE` in its own process (her session, 2 scripted utterances, the second a commit phrase); two
 * trainees poll the room over loopback with the cursor, as their pages do: ben answers as soon as the item is live
 * (so her label is shown to him), cy never answers (so it is hidden: he sees that she has labelled). Each delay is the
 * moment a trainee's poll brought it minus the time her session logged it (the moment her own screen hears it; one
 * machine, one clock). Medians with the spread are printed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ShadowView } from '../core/common/rooms/shadowViews';
import { DEMO_PROJECT_DIR } from '../core/node/project/projectFolder';
import { readRoomLog, roomPaths } from '../core/node/rooms/roomLogFile';
import { checkShadowEvent } from '../core/node/rooms/shadowLogFile';
import { readSessionLog } from '../core/node/session/sessionLogFile';
import { sessionPaths } from '../core/node/session/sessionPaths';

const { values } = parseArgs({ options: { items: { type: 'string', default: '6' } } });
const itemCount = Math.min(20, Math.max(1, Number(values.items) || 6));
const clip = path.resolve(import.meta.dirname, '../../shared/fixtures/audio/commit-polite.wav');
const bin = path.resolve(import.meta.dirname, '../core/node/cli/bin.ts');

const root = await mkdtemp(path.join(tmpdir(), 'aloud-bench-shadow-'));
const dir = path.join(root, 'proj');
await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
const ids = Array.from({ length: itemCount }, (_, i) => `demo-${String(i + 1).padStart(2, '0')}`);
const LABELS = ['polite', 'impolite', 'neutral'];
// the clip holds two stretches of speech: two utterances, the second a commit phrase
const said = (i: number) => [' Hmm, well, it is, um, kind of friendly, I guess.', ` I label this ${LABELS[i % 3]}.`];
const script = path.join(root, 'engine-script.json');
await writeFile(
  script,
  JSON.stringify({ items: Object.fromEntries(ids.map((id, i) => [id, said(i).map((text) => ({ text, delay_ms: 150 }))])) }),
);

function run(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; err: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return { child, done: new Promise((resolve) => child.on('exit', (code) => resolve({ code, err }))) };
}

const room = run(['room', 'shadow', '--project', dir, '--annotator', 'ana', '--json']);
const info = await new Promise<{ code: string; url: string }>((resolve, reject) => {
  let out = '';
  room.child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
  });
  void room.done.then((r) => reject(new Error(`room shadow exited (${r.code}): ${r.err}`)));
});

interface Seen {
  /** item → utterance text → first time it was shown as final */
  finals: Map<string, Map<string, number>>;
  /** item → count of her label acts → first time shown (ben) */
  labels: Map<string, number[]>;
  /** item → first time "she has labelled" was shown (cy) */
  labelled: Map<string, number>;
}

async function trainee(name: string, practise: boolean, stop: { done: boolean }): Promise<Seen> {
  const post = (p: string, body: unknown, token?: string) =>
    fetch(new URL(p, info.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const { token } = (await (await post('/api/join', { code: info.code, name })).json()) as { token: string };
  const seen: Seen = { finals: new Map(), labels: new Map(), labelled: new Map() };
  const answered = new Set<string>();
  let seq = 0;
  while (!stop.done) {
    const answer = (await (
      await fetch(new URL(`/api/state?after=${seq}&wait=1`, info.url), { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as ShadowView & { unchanged?: boolean };
    const now = Date.now();
    seq = answer.seq;
    const c = answer.current;
    if (answer.unchanged || !c) continue;
    const text = c.transcript.map((p) => (p.kind === 'hidden' ? '' : p.text)).join('');
    const finals = seen.finals.get(c.item_id) ?? new Map<string, number>();
    seen.finals.set(c.item_id, finals);
    for (const u of said(ids.indexOf(c.item_id))) if (text.includes(u.trim()) && !finals.has(u.trim())) finals.set(u.trim(), now);
    if (c.expert.shown) {
      const times = seen.labels.get(c.item_id) ?? [];
      while (times.length < c.expert.acts.length) times.push(now);
      seen.labels.set(c.item_id, times);
    } else if (c.expert.has_labelled && !seen.labelled.has(c.item_id)) seen.labelled.set(c.item_id, now);
    if (practise && c.live && !answered.has(c.item_id)) {
      answered.add(c.item_id);
      await post('/api/practice', { item_id: c.item_id, label: 'Neutral' }, token);
    }
  }
  return seen;
}

const stop = { done: false };
const watching = [trainee('ben', true, stop), trainee('cy', false, stop)];
const started = performance.now();
for (const id of ids) {
  const ingest = run([
    'session',
    'ingest',
    '--project',
    dir,
    '--annotator',
    'ana',
    '--item',
    id,
    '--wav',
    clip,
    '--realtime',
    '--engine-script',
    script,
    '--shadow-room',
    info.code,
  ]);
  const r = await ingest.done;
  if (r.code !== 0) throw new Error(`session ingest ${id} exited ${r.code}: ${r.err}`);
}
// the last item ends with her session; one more poll round brings it
await new Promise((resolve) => setTimeout(resolve, 1500));
stop.done = true;
room.child.kill('SIGINT');
const [ben, cy] = await Promise.all(watching);
await room.done;

const session = (await readSessionLog(sessionPaths(dir, 'ana').events)).events;
const delays = {
  finalBen: [] as number[],
  finalCy: [] as number[],
  labelBen: [] as number[],
  labelledCy: [] as number[],
  labelToRoom: [] as number[],
  labelRoomToBen: [] as number[],
};
// when the room logged her first label of each item: splits the delay into her session → the room → the trainee
const roomLabels = new Map<string, number>();
for (const e of (await readRoomLog(roomPaths(dir, info.code).events, checkShadowEvent)).events) {
  if (e.type === 'label_act' && !roomLabels.has(e.data.item_id)) roomLabels.set(e.data.item_id, Date.parse(e.ts));
}
let missing = 0;
for (const e of session) {
  const at = Date.parse(e.ts);
  if (e.type === 'utterance_transcribed') {
    const text = e.data.segments
      .map((s) => s.text)
      .join('')
      .trim();
    const ownShown = ben!.finals.get(e.data.item_id)?.get(text);
    if (ownShown !== undefined) delays.finalBen.push(ownShown - at);
    else missing++;
    // cy never sees her commit phrase while the item is live (hidden from him): only her other words count
    const cyShown = cy!.finals.get(e.data.item_id)?.get(text);
    if (cyShown !== undefined && !text.startsWith('I label')) delays.finalCy.push(cyShown - at);
  }
  if (e.type === 'label_committed') {
    const first = ben!.labels.get(e.data.item_id)?.[0];
    if (first !== undefined) delays.labelBen.push(first - at);
    else missing++;
    const logged = roomLabels.get(e.data.item_id);
    if (logged !== undefined && first !== undefined) {
      delays.labelToRoom.push(logged - at);
      delays.labelRoomToBen.push(first - logged);
    }
    const hidden = cy!.labelled.get(e.data.item_id);
    if (hidden !== undefined) delays.labelledCy.push(hidden - at);
  }
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const line = (what: string, xs: number[]) =>
  `  ${what.padEnd(44)} median ${String(Math.round(median(xs))).padStart(5)} ms   min ${Math.min(...xs)}   max ${Math.max(...xs)}   n=${xs.length}`;
process.stdout.write(
  [
    `shadow room latency over loopback, ${itemCount} items of real-time ingest (${((performance.now() - started) / 1000).toFixed(0)} s), load average ${loadavg()[0]!.toFixed(2)}:`,
    "  (a trainee's poll brought it − her session logged it)",
    line('final transcript, trainee who answered', delays.finalBen),
    line('final (not a commit phrase), did not answer', delays.finalCy),
    line('her label, shown (trainee who answered)', delays.labelBen),
    line('"she has labelled", hidden (did not answer)', delays.labelledCy),
    line('  of which: her label → logged by the room', delays.labelToRoom),
    line("  of which: logged by the room → ben's poll", delays.labelRoomToBen),
    missing ? `  ${missing} events never shown to ben` : '  every final and label was shown',
    '',
  ].join('\n'),
);
