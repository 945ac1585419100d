import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { cli } from '../../../helpers/cli';
import { netnsUnavailable, twoMachines } from '../../../helpers/netns';

/**
 * A shadow room opened to the LAN between two network namespaces joined by a veth pair (addresses from
 * 10.232.0.0/16, our own): the expert's machine (`aloud room shadow --lan` and her `session ingest --realtime`) in
 * one, a trainee's machine in the other. Needs root and iproute2; skipped otherwise. No other address is touched.
 */
const tag = String(process.pid % 250);
const machines = twoMachines({ a: `aloud-shadow-expert-${tag}`, b: `aloud-shadow-trainee-${tag}`, link: 'als' }, '10.232', tag);
const [EXPERT_NS, TRAINEE_NS, EXPERT_IP] = [machines.a.ns, machines.b.ns, machines.a.ip];
const clip = path.resolve(import.meta.dirname, '../../../../../shared/fixtures/audio/commit-polite.wav');

const unavailable = existsSync(clip) ? netnsUnavailable(`aloud-sprobe-${tag}`) : `fixture ${clip} is absent`;
if (unavailable) console.warn(`skipping the LAN shadow room test: ${unavailable}`);

const bin = path.resolve('core/node/cli/bin.ts');

/** A process in a namespace; done resolves with its exit code and output. */
function inNamespace(
  ns: string,
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn('ip', ['netns', 'exec', ns, process.execPath, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return { child, done: new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err }))) };
}

/**
 * The trainee's machine: joins, polls with the cursor (each poll held until the room changes) as the page does,
 * answers Impolite as soon as her item is live, and records every view of the item with its own clock until her
 * label is shown; then tries what a trainee must not reach.
 */
const TRAINEE = `
const base = process.env.ROOM_URL;
const join = await fetch(base + 'api/join', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: process.env.ROOM_CODE, name: 'remote' }) });
const { token } = await join.json();
const auth = { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' };
process.stdout.write('joined\\n');
const seen = [];
let seq = 0;
let practice = null;
const until = Date.now() + 150000;
while (Date.now() < until) {
  const view = await (await fetch(base + 'api/state?after=' + seq + '&wait=1', { headers: auth })).json();
  seq = view.seq;
  const c = view.current;
  if (view.unchanged || !c) continue;
  const text = (pieces) => (pieces ?? []).map((p) => (p.kind === 'hidden' ? '#' : p.text)).join('');
  seen.push({ t: Date.now(), item: c.item_id, live: c.live, transcript: text(c.transcript), partial: c.partial !== null, shown: c.expert.shown, has_labelled: c.expert.has_labelled ?? null, final: c.expert.final_label ?? null });
  if (c.live && practice === null) practice = (await fetch(base + 'api/practice', { method: 'POST', headers: auth, body: JSON.stringify({ item_id: c.item_id, label: 'Impolite' }) })).status;
  if (!c.live && c.expert.shown) break;
}
const others = {};
for (const [method, p] of [['POST', 'api/call'], ['POST', 'api/commitLabel'], ['GET', 'api/session'], ['POST', 'api/lead/close'], ['GET', 'api/audio?item=demo-01'], ['GET', 'sessions/ana/events.jsonl']]) {
  others[p] = (await fetch(base + p, { method, headers: auth, body: method === 'POST' ? '{}' : undefined })).status;
}
console.log(JSON.stringify({ join: join.status, practice, seen, others }));
`;

describe.skipIf(unavailable !== undefined)('a shadow room opened to the LAN (two network namespaces)', () => {
  let dir: string;
  let script: string;
  let room: ReturnType<typeof inNamespace>;
  let info: { code: string; url: string; address: string; port: number; lan: boolean; log: string };

  beforeAll(async () => {
    machines.up();
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-shadow-lan-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    script = path.join(dir, '..', 'engine-script.json');
    await writeFile(
      script,
      JSON.stringify({
        items: {
          'demo-01': [
            { text: ' Hmm, well. This reply is, um, kind of polite, I guess.', delay_ms: 200 },
            { text: ' I label this polite.', delay_ms: 200 },
          ],
        },
      }),
    );
    // --lan without --address: the expert namespace's only network address is the veth's
    room = inNamespace(EXPERT_NS, ['--import', 'tsx', bin, 'room', 'shadow', '--project', dir, '--annotator', 'ana', '--lan', '--json']);
    info = await new Promise((resolve, reject) => {
      let out = '';
      room.child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
      });
      void room.done.then((r) => reject(new Error(`room shadow exited (${r.code}): ${r.err}`)));
    });
  }, 90_000);

  afterAll(async () => {
    if (room && room.child.exitCode === null && room.child.signalCode === null) {
      room.child.kill('SIGTERM');
      await room.done;
    }
    machines.down();
  });

  it(
    'a trainee on another machine watches her transcript grow and her label arrive, practises first, and reaches nothing else',
    { timeout: 240_000 },
    async () => {
      expect(info).toMatchObject({ address: EXPERT_IP, lan: true });
      expect(info.url).toBe(`http://${EXPERT_IP}:${info.port}/`);
      const trainee = inNamespace(TRAINEE_NS, ['--input-type=module', '-e', TRAINEE], { ROOM_URL: info.url, ROOM_CODE: info.code });
      await new Promise<void>((resolve, reject) => {
        trainee.child.stdout!.on('data', (d: Buffer) => d.toString().includes('joined') && resolve());
        void trainee.done.then((r) => reject(new Error(`the trainee's script ended (${r.code}): ${r.err}`)));
      });
      const ingest = inNamespace(EXPERT_NS, [
        '--import',
        'tsx',
        bin,
        'session',
        'ingest',
        '--project',
        dir,
        '--annotator',
        'ana',
        '--item',
        'demo-01',
        '--wav',
        clip,
        '--realtime',
        '--engine-script',
        script,
        '--shadow-room',
        info.code,
      ]);
      const expert = await ingest.done;
      expect(expert.code, expert.err).toBe(0);
      const watched = await trainee.done;
      expect(watched.code, watched.err).toBe(0);
      const result = JSON.parse(watched.out.slice(watched.out.indexOf('{'))) as {
        join: number;
        practice: number;
        seen: Array<{
          t: number;
          item: string;
          live: boolean;
          transcript: string;
          partial: boolean;
          shown: boolean;
          has_labelled: boolean | null;
          final: string | null;
        }>;
        others: Record<string, number>;
      };
      expect(result.join).toBe(200);
      expect(result.practice).toBe(200);
      const seen = result.seen;
      // the transcript grew over the network: a partial, the first final, the second; her label arrived, shown because the trainee answered first
      const firstPartial = seen.findIndex((s) => s.partial);
      const firstFinal = seen.findIndex((s) => s.transcript.includes('kind of polite, I guess.'));
      const secondFinal = seen.findIndex((s) => s.transcript.includes('I label this polite.'));
      const labelShown = seen.findIndex((s) => s.shown && s.final === 'Polite');
      expect(firstPartial).toBeGreaterThanOrEqual(0);
      expect(firstFinal).toBeGreaterThan(firstPartial);
      expect(secondFinal).toBeGreaterThan(firstFinal);
      expect(labelShown).toBeGreaterThanOrEqual(firstFinal);
      expect(seen.at(-1)).toMatchObject({ item: 'demo-01', live: false, shown: true, final: 'Polite' });
      expect(result.others).toEqual({
        'api/call': 404,
        'api/commitLabel': 404,
        'api/session': 404,
        'api/lead/close': 403,
        'api/audio?item=demo-01': 403,
        'sessions/ana/events.jsonl': 404,
      });

      // how long after her session logged each (one machine, one clock): printed, never asserted
      const session = (await readSessionLog(sessionPaths(dir, 'ana').events)).events;
      const finals = session.filter((e) => e.type === 'utterance_transcribed').map((e) => Date.parse(e.ts));
      const label = Date.parse(session.find((e) => e.type === 'label_committed')!.ts);
      console.log(
        `shadow room latency over the LAN (veth), ms: first final ${seen[firstFinal]!.t - finals[0]!}, second final ${seen[secondFinal]!.t - finals[1]!}, label ${seen[labelShown]!.t - label}`,
      );

      // her session has nothing of the trainee; the room log has the practice answer
      expect(await readFile(sessionPaths(dir, 'ana').events, 'utf8')).not.toMatch(/remote|practice/);
      expect(await readFile(info.log, 'utf8')).toMatch(/"type":"practice_vote","data":\{[^}]*"label":"Impolite"/);
    },
  );

  it('answers nothing at loopback when opened to the LAN: it binds the one address it shows', () => {
    const r = spawnSync(
      'ip',
      [
        'netns',
        'exec',
        EXPERT_NS,
        process.execPath,
        '--input-type=module',
        '-e',
        `try { await fetch('http://127.0.0.1:${info.port}/'); console.log('reached'); } catch { console.log('refused'); }`,
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(r.stdout.trim()).toBe('refused');
  });
});
