import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../../../helpers/cli';
import { netnsUnavailable, twoMachines } from '../../../helpers/netns';

/**
 * A LAN between two network namespaces joined by a veth pair (addresses from 10.231.0.0/16, our own): the room host
 * in one, a member's machine in the other. Needs root and iproute2; skipped otherwise. No other address is touched.
 */
const tag = String(process.pid % 250);
const machines = twoMachines({ a: `aloud-room-host-${tag}`, b: `aloud-room-member-${tag}`, link: 'alr' }, '10.231', tag);
const [HOST_NS, MEMBER_NS, HOST_IP] = [machines.a.ns, machines.b.ns, machines.a.ip];

const unavailable = netnsUnavailable(`aloud-probe-${tag}`);
if (unavailable) console.warn(`skipping the LAN room test: ${unavailable}`);

/** Runs a fetch script on the member's machine (the other namespace) and returns what it printed. */
function fromMemberMachine(script: string, env: Record<string, string>): unknown {
  const out = execFileSync('ip', ['netns', 'exec', MEMBER_NS, process.execPath, '--input-type=module', '-e', script], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return JSON.parse(out);
}

describe.skipIf(unavailable !== undefined)('a room opened to the LAN (two network namespaces)', () => {
  let child: ChildProcess;
  let info: { code: string; url: string; address: string; port: number; lan: boolean };

  beforeAll(async () => {
    machines.up();
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-room-lan-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    const bin = path.resolve('core/node/cli/bin.ts');
    // --lan without --address: the host namespace's only network address is the veth's
    child = spawn(
      'ip',
      [
        'netns',
        'exec',
        HOST_NS,
        process.execPath,
        '--import',
        'tsx',
        bin,
        'room',
        'open',
        '--project',
        dir,
        '--items',
        'demo-01',
        '--lan',
        '--json',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    info = await new Promise((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
      });
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      child.on('exit', (code) => reject(new Error(`room host exited (${code}): ${err}`)));
    });
  }, 60_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    machines.down();
  });

  it('listens on the LAN address it shows, and a member on another machine joins and votes', () => {
    expect(info).toMatchObject({ address: HOST_IP, lan: true });
    expect(info.url).toBe(`http://${HOST_IP}:${info.port}/`);
    const result = fromMemberMachine(
      `const base = process.env.ROOM_URL;
       const page = await fetch(base);
       const join = await fetch(base + 'api/join', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: process.env.ROOM_CODE, name: 'remote' }) });
       const { token } = await join.json();
       const auth = { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' };
       const vote = await fetch(base + 'api/vote', { method: 'POST', headers: auth, body: JSON.stringify({ item_id: 'demo-01', label: 'Polite' }) });
       const state = await (await fetch(base + 'api/state?after=0', { headers: auth })).json();
       const others = {};
       for (const p of ['api/project', 'api/agreement', 'aloud.yaml', 'items.jsonl', 'sessions/', 'rooms/' + process.env.ROOM_CODE + '/events.jsonl']) others[p] = (await fetch(base + p)).status;
       console.log(JSON.stringify({ page: page.status, csp: page.headers.get('content-security-policy'), join: join.status, vote: vote.status, me: state.me.name, voted: state.items[0].voted, others }));`,
      { ROOM_URL: info.url, ROOM_CODE: info.code },
    ) as Record<string, unknown>;
    expect(result).toMatchObject({ page: 200, join: 200, vote: 200, me: 'remote', voted: ['remote'] });
    expect(String(result.csp)).toContain("default-src 'none'");
    expect(Object.values(result.others as Record<string, number>)).toEqual([404, 404, 404, 404, 404, 404]);
  });

  it('answers nothing at loopback when opened to the LAN: it binds the one address it shows', () => {
    const r = spawnSync(
      'ip',
      [
        'netns',
        'exec',
        HOST_NS,
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
