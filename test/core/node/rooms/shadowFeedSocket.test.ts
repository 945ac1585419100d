import { connect } from 'node:net';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ShadowFeed } from '../../../../core/common/rooms/shadowFeed';
import { initProject, loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { connectShadowFeed, serveShadowFeed, type ShadowFeedServer } from '../../../../core/node/rooms/shadowFeedSocket';
import { ShadowHost } from '../../../../core/node/rooms/shadowHost';

const item = (itemId: string): ShadowFeed => ({
  kind: 'item',
  item_id: itemId,
  prior: null,
  utterances: [],
  commitments: [],
  diagnostics: [],
  selection: null,
  reasoning: null,
  recording: false,
  completed: false,
});

/** A shadow room of a fresh demo project, fed through its local socket as `session ingest --shadow-room` feeds it. */
async function fedRoom() {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-shadow-feed-')), 'p');
  await initProject(dir, { demo: true });
  const project = await loadProjectConfig(dir);
  const host = await ShadowHost.create(
    { dir, config: project.config, items: await loadProjectItems(project) },
    { expert: 'ana', maxMembers: 12 },
  );
  const server = await serveShadowFeed(host, dir);
  return { dir, host, server };
}

describe("a shadow room's feed from another process", () => {
  const open: Array<{ host: ShadowHost; server: ShadowFeedServer }> = [];
  afterEach(async () => {
    for (const { host, server } of open.splice(0)) {
      await server.close();
      await host.close();
    }
  });

  it('takes every record sent before the session hangs up, in order; her leaving is said as such', async () => {
    const room = await fedRoom();
    open.push(room);
    const problems: string[] = [];
    const client = await connectShadowFeed(room.dir, room.host.code, (p) => problems.push(p));
    client.send({ kind: 'expert', annotator: 'ana', via: 'ingest' });
    client.send(item('demo-01'));
    client.send({ kind: 'recording', item_id: 'demo-01', on: true });
    client.send({ kind: 'audio', item_id: 'demo-01', start_sample: 0, pcm: new Float32Array(1600).fill(0.25) });
    client.send({
      kind: 'utterance',
      item_id: 'demo-01',
      utterance: 0,
      segments: [{ t0_ms: 0, t1_ms: 900, text: ' I label this polite.' }],
      commitments: [{ start: 1, end: 20, label: 'Polite' }],
      diagnostics: [],
    });
    client.send({
      kind: 'label',
      item_id: 'demo-01',
      label: 'Polite',
      source: 'voice',
      quote: 'I label this polite',
      audio_ms: 900,
      blind_label: 'Polite',
      final_label: 'Polite',
    });
    client.send({ kind: 'left' });
    // hangs up at once: the lines already sent are still shown
    await client.close();
    await expect.poll(() => room.host.snapshot().items.get('demo-01')?.ended, { timeout: 10_000 }).toBe('expert_left');
    await expect.poll(() => room.host.snapshot().expert_present).toBeNull();
    const types = (await readFile(room.host.logFile, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: unknown });
    expect(types.map((e) => e.type)).toEqual([
      'shadow_opened',
      'expert_joined',
      'item_shown',
      'recording',
      'utterances',
      'label_act',
      'item_left',
      'expert_left',
    ]);
    expect(types.at(-1)!.data).toEqual({ reason: 'session_closed' });
    expect(problems).toEqual([]);
  });

  it('a pointer only its owner reads; a wrong token, a second session, or a record the rules refuse stops that feed and says why', async () => {
    const room = await fedRoom();
    open.push(room);
    if (process.platform !== 'win32') expect((await stat(room.server.file)).mode & 0o077).toBe(0);
    const pointer = JSON.parse(await readFile(room.server.file, 'utf8')) as { socket: string };
    const wrong = await new Promise<string>((resolve) => {
      const s = connect(pointer.socket, () => s.write(`${JSON.stringify({ token: 'guess' })}\n`));
      let answer = '';
      s.on('data', (d) => (answer += d.toString()));
      s.on('close', () => resolve(answer));
    });
    expect(JSON.parse(wrong)).toEqual({ error: 'wrong feed token' });

    const first = await connectShadowFeed(room.dir, room.host.code, () => undefined);
    first.send({ kind: 'expert', annotator: 'ana', via: 'ingest' });
    first.send(item('demo-01'));
    await expect.poll(() => room.host.snapshot().current).toBe('demo-01');
    const secondProblems: string[] = [];
    const second = await connectShadowFeed(room.dir, room.host.code, (p) => secondProblems.push(p));
    second.send({ kind: 'expert', annotator: 'ana', via: 'ingest' });
    await expect
      .poll(() => secondProblems)
      .toEqual([expect.stringMatching(/stopped taking the feed: the room is fed by ana's session already/)]);
    // the second feed going away does not end the first one's live view
    await second.close();
    first.send(item('demo-02'));
    await expect.poll(() => room.host.snapshot().current).toBe('demo-02');
    expect(room.host.snapshot().expert_present).not.toBeNull();

    const problems: string[] = [];
    const third = await connectShadowFeed(room.dir, room.host.code, (p) => problems.push(p));
    third.send({ kind: 'expert', annotator: 'ben', via: 'ingest' });
    await expect.poll(() => problems).toEqual([expect.stringMatching(/this room shadows ana, not ben/)]);
    // a session that vanishes without a word: live view ends as a lost feed
    (first as unknown as { send(f: ShadowFeed): void }).send({ kind: 'partial', item_id: 'demo-02', utterance: 0, text: ' so' });
    await first.close();
    await expect.poll(() => room.host.snapshot().items.get('demo-02')?.ended).toBe('expert_left');
    expect((await readFile(room.host.logFile, 'utf8')).trim().split('\n').at(-1)).toContain('"reason":"feed_lost"');
    await third.close();
  });

  it('names a room that no `aloud room shadow` serves', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-shadow-feed-')), 'p');
    await initProject(dir, { demo: true });
    await expect(connectShadowFeed(dir, 'K7QX3M', () => undefined)).rejects.toThrow(
      /room K7QX3M is not being served by `aloud room shadow` in this project/,
    );
    await expect(connectShadowFeed(dir, '../../etc', () => undefined)).rejects.toThrow(/is not a room code/);
  });
});
