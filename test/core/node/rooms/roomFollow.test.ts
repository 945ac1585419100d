import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoomHost } from '../../../../core/node/rooms/roomHost';
import type { RoomListener } from '../../../../core/node/rooms/roomHttp';
import { startRoomListener } from '../../../../core/node/rooms/roomListener';
import { request, RoomClient } from './roomClient';

/** The member page follows a norming room as the shadow page follows hers: a state request that waits for a change. */
describe("following a norming room with wait=1 (the member page's way)", () => {
  let host: RoomHost;
  let listener: RoomListener;
  let ana: RoomClient;

  beforeAll(async () => {
    host = await RoomHost.create(await mkdtemp(path.join(tmpdir(), 'aloud-room-follow-')), {
      project: 'p',
      mode: 'items',
      items: [{ id: 'r1', text: 'Thanks!' }],
      labels: ['Polite', 'Impolite'],
      level: 'nominal',
      max_members: 4,
    });
    listener = await startRoomListener(host);
    ana = await RoomClient.join(listener.url, host.code, 'ana');
  });
  afterAll(async () => {
    await listener?.close();
    await host?.close().catch(() => undefined);
  });

  it('an answer waits until the room changes, then carries the new view', async () => {
    const seq = host.seq;
    const started = Date.now();
    const waiting = request(listener.url, 'GET', `/api/state?after=${seq}&chat_after=0&wait=1`, { token: ana.token });
    let answered = false;
    void waiting.then(() => (answered = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    await host.chat(null, 'hello room');
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(answer.body.seq).toBe(seq + 1);
    expect((answer.body as unknown as { chat: Array<{ text: string }> }).chat.map((c) => c.text)).toEqual(['hello room']);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('behind the room it answers at once; without wait=1 it never waits', async () => {
    expect((await request(listener.url, 'GET', '/api/state?after=0&wait=1', { token: ana.token })).body.seq).toBe(host.seq);
    const now = await request(listener.url, 'GET', `/api/state?after=${host.seq}`, { token: ana.token });
    expect(now.body).toEqual({ seq: host.seq, unchanged: true });
  });

  it('a member removed while waiting is refused (403), not shown one more view', async () => {
    const ben = await RoomClient.join(listener.url, host.code, 'ben');
    const waiting = request(listener.url, 'GET', `/api/state?after=${host.seq}&wait=1`, { token: ben.token });
    await new Promise((r) => setTimeout(r, 200));
    const view = await new RoomClient(listener.url, 'lead', host.leadToken).view();
    const benId = view.members.find((m) => m.name === 'ben')!.member_id!;
    await host.remove(benId);
    expect((await waiting).status).toBe(403);
  });
});
