import { type ChildProcess, spawn } from 'node:child_process';
import { appendFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RoomView } from '../../../../core/common/rooms/roomViews';
import { cli } from '../../../helpers/cli';
import { RoomClient } from './roomClient';

const BIN = path.resolve('core/node/cli/bin.ts');
const children: ChildProcess[] = [];

/** `aloud room …` in its own process; resolves with the first line it prints (the --json room info). */
function roomProcess(args: string[]): Promise<{ child: ChildProcess; info: { code: string; url: string; lead_url: string; log: string } }> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, 'room', ...args, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ child, info: JSON.parse(out.slice(0, nl)) });
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`room process exited (${code}) before it listened: ${err}`)));
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await exited(c);
  }
});

describe('a room host restarted mid-meeting', () => {
  it(
    'loses nothing: a SIGKILLed host resumes from the log, members keep their tokens, blind votes stay blind',
    { timeout: 60_000 },
    async () => {
      const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-room-restart-')), 'p');
      expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
      const first = await roomProcess(['open', '--project', dir, '--items', 'demo-01,demo-02']);
      const { code } = first.info;
      const names = ['ana', 'ben', 'cai', 'dee', 'eve'];
      const members = [];
      for (const n of names) members.push(await RoomClient.join(first.info.url, code, n));
      const lead = new RoomClient(first.info.url, 'lead', decodeURIComponent(first.info.lead_url.split('#lead=')[1]!));
      const blind = ['Polite', 'Polite', 'Impolite', 'Polite', 'Neutral'];
      for (let i = 0; i < 5; i++) await members[i]!.vote('demo-01', blind[i]!);
      expect((await lead.call('POST', '/api/lead/reveal', { item_id: 'demo-01' })).status).toBe(200);
      await members[2]!.vote('demo-01', 'Polite');
      await members[0]!.vote('demo-02', 'Neutral');
      const before = await members[1]!.view();

      // a crash: no clean close, no chance to flush anything that was not already durable
      first.child.kill('SIGKILL');
      await exited(first.child);
      // and a torn half line, as a crash mid-write would leave
      await appendFile(first.info.log, '{"v":1,"seq":99,"ts":"2026-');

      const second = await roomProcess(['resume', code, '--project', dir]);
      expect(second.info.code).toBe(code);
      for (const m of members) m.base = second.info.url;
      const after = await members[1]!.view();
      expect(after.seq).toBe(before.seq);
      expect(after.items).toEqual(before.items);
      expect(after.metrics).toEqual(before.metrics);
      const d1 = after.items.find((i) => i.item_id === 'demo-01')!;
      expect(d1.blind_votes).toEqual({ ana: 'Polite', ben: 'Polite', cai: 'Impolite', dee: 'Polite', eve: 'Neutral' });
      expect(d1.changes!.map((c) => [c.name, c.from, c.to, c.majority_of_others])).toEqual([['cai', 'Impolite', 'Polite', 'Polite']]);
      // demo-02 is still blind after the restart: ben sees that ana voted, not what
      const d2 = after.items.find((i) => i.item_id === 'demo-02')!;
      expect(d2).toEqual({ item_id: 'demo-02', text: d2.text, revealed: false, voted: ['ana'], my_vote: null });

      // the old lead link is dead (the lead token lived in the killed process); the new one works
      expect(
        (await new RoomClient(second.info.url, 'old lead', lead.token).call('POST', '/api/lead/reveal', { item_id: 'demo-02' })).status,
      ).toBe(403);
      const newLead = new RoomClient(second.info.url, 'lead', decodeURIComponent(second.info.lead_url.split('#lead=')[1]!));
      // the meeting goes on
      await members[4]!.vote('demo-02', 'Neutral');
      expect((await newLead.call('POST', '/api/lead/reveal', { item_id: 'demo-02' })).status).toBe(200);
      const done = (await members[3]!.view()) as RoomView;
      expect(done.items[1]!.blind_votes).toEqual({ ana: 'Neutral', eve: 'Neutral' });

      second.child.kill('SIGTERM');
      await exited(second.child);
      const lines = (await readFile(first.info.log, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      expect(lines.map((e) => e.seq)).toEqual(lines.map((_, i) => i + 1));
      expect(lines.at(-1).type).toBe('item_revealed');
    },
  );

  it('a huddle opens over the items the team disagrees on, from the CLI', { timeout: 60_000 }, async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-huddle-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    const { SessionService } = await import('../../../../core/node/session/sessionService');
    const { loadProjectConfig, loadProjectItems } = await import('../../../../core/node/project/projectFolder');
    const project = await loadProjectConfig(dir);
    const items = await loadProjectItems(project);
    for (const [annotator, labels] of [
      ['ana', ['Polite', 'Polite', 'Neutral']],
      ['ben', ['Polite', 'Impolite', 'Polite']],
    ] as const) {
      const s = await SessionService.open({ project, annotator, items });
      for (const [i, label] of labels.entries()) {
        await s.openItem(`demo-0${i + 1}`);
        await s.commitLabel(label, 'click');
      }
      await s.close();
    }
    expect((await cli('room', 'open', '--project', dir, '--address', '10.0.0.1')).err).toMatch(/--address needs --lan/);
    const room = await roomProcess(['open', '--project', dir, '--huddle']);
    const lead = new RoomClient(room.info.url, 'lead', decodeURIComponent(room.info.lead_url.split('#lead=')[1]!));
    const view = await lead.view();
    expect(view.items.map((i) => i.item_id)).toEqual(['demo-02', 'demo-03']);
    const log = (await readFile(room.info.log, 'utf8')).split('\n')[0]!;
    expect(JSON.parse(log).data.mode).toBe('huddle');
  });
});
