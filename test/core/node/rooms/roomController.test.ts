import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchApiCall } from '../../../../core/node/app/apiDispatcher';
import { AppService } from '../../../../core/node/app/appService';
import { cli } from '../../../helpers/cli';
import { request, RoomClient } from './roomClient';

/** The lead's side of a room through the app API (the same dispatcher Electron IPC and browser mode use). */
describe('norming rooms through the app API', () => {
  let app: AppService;
  let dir: string;

  beforeAll(async () => {
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-room-app-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('checks the arguments, refuses a huddle without disagreements, opens a room on 127.0.0.1', async () => {
    expect(await dispatchApiCall(app, 'openRoom', [['demo-01'], 'yes'])).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await dispatchApiCall(app, 'openRoom', ['demo-01', false])).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await dispatchApiCall(app, 'openRoom', [null, false])).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/no disagreements/) },
    });
    expect(await dispatchApiCall(app, 'openRoom', [['nope'], false])).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await app.room()).toBeNull();
    const status = await app.openRoom(['demo-01', 'demo-02'], false);
    expect(status).toMatchObject({ address: '127.0.0.1', lan: false });
    expect(status.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(status.view.items.map((i) => i.item_id)).toEqual(['demo-01', 'demo-02']);
    expect(await dispatchApiCall(app, 'openRoom', [['demo-03'], false])).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });

  it('the lead reveals and removes through the API while members vote in their browsers', async () => {
    const status = (await app.room())!;
    const ana = await RoomClient.join(status.url, status.code, 'ana');
    const ben = await RoomClient.join(status.url, status.code, 'ben');
    await ana.vote('demo-01', 'Polite');
    await ben.vote('demo-01', 'Neutral');
    const before = (await app.room())!.view.items[0]!;
    expect(before).toMatchObject({ revealed: false, voted: ['ana', 'ben'] });
    expect(before).not.toHaveProperty('blind_votes');
    const after = await app.revealRoomItem('demo-01');
    expect(after.view.items[0]!.blind_votes).toEqual({ ana: 'Polite', ben: 'Neutral' });
    const benId = after.view.members.find((m) => m.name === 'ben')!.member_id!;
    await app.removeRoomMember(benId);
    expect((await ben.call('GET', '/api/state?after=0')).status).toBe(403);
    expect(await app.closeRoom()).toBeNull();
    expect(await app.room()).toBeNull();
    // the closed room's listener stays a while, so members learn the room was closed: nothing can change it any more
    expect(((await ana.call('GET', '/api/state?after=0')).body as { closed?: boolean }).closed).toBe(true);
    expect((await ana.call('POST', '/api/vote', { item_id: 'demo-01', label: 'Neutral' })).status).toBe(409);
    expect((await ana.call('POST', '/api/chat', { text: 'still here?' })).status).toBe(409);
    expect((await request(status.url, 'POST', '/api/join', { body: { code: status.code, name: 'cai' } })).status).toBe(409);
    const exported = JSON.parse((await cli('room', 'export', status.code, '--project', dir, '--json')).out);
    expect(exported.log.at(-1).type).toBe('room_closed');
    const sessions = await app.writeBackRoom(status.code);
    expect(sessions.map((x) => [x.annotator, x.labels])).toEqual([[`ana (room ${status.code})`, 1]]);
    expect(await dispatchApiCall(app, 'writeBackRoom', [status.code])).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/written back already/) },
    });
    expect(await dispatchApiCall(app, 'writeBackRoom', ['ZZZZZZ'])).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // the next room ends the closed room's listener
    const next = await app.openRoom(['demo-03'], false);
    await expect(fetch(status.url)).rejects.toThrow();
    expect(next.code).not.toBe(status.code);
    await app.closeRoom();
  });

  it("tells the lead's page when members act through the room's own listener, and once the room is no longer served", async () => {
    const status = await app.openRoom(['demo-04'], false);
    const heard: string[] = [];
    /** what the lead's page reads on each event */
    const reads: Array<ReturnType<AppService['room']>> = [];
    const stop = app.subscribe((event) => {
      if (event.type !== 'room_changed') return;
      heard.push(event.room);
      reads.push(app.room());
    });
    try {
      const dan = await RoomClient.join(status.url, status.code, 'dan');
      expect(heard).toEqual(['norming']);
      expect((await reads[0])!.view.members.map((m) => m.name)).toEqual(['dan']);
      await dan.vote('demo-04', 'Polite');
      expect(heard).toEqual(['norming', 'norming']);
      // the event is sent once the room has applied the vote: the read it starts sees the vote
      expect((await reads[1])!.view.items[0]!.voted).toEqual(['dan']);
      await app.closeRoom();
      // the last event comes once the room is no longer served: the read it starts finds no room
      expect(heard.length).toBeGreaterThan(2);
      expect(await reads.at(-1)).toBeNull();
    } finally {
      stop();
    }
  });
});
