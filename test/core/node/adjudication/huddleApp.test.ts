import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchApiCall } from '../../../../core/node/app/apiDispatcher';
import { AppService } from '../../../../core/node/app/appService';
import { RoomClient } from '../rooms/roomClient';
import { threeAnnotatorStudy } from './adjudicationStudy';

const open: AppService[] = [];
afterEach(async () => {
  for (const app of open.splice(0)) await app.close();
});

const logLines = async (file: string) =>
  (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });

describe('a huddle from the Adjudicate tab, through the app API', () => {
  it("sends queued items to a room the app serves, and takes its outcome as the lead's decisions with the room named", async () => {
    const dir = await threeAnnotatorStudy();
    const sessionsBefore = await Promise.all(['ana', 'ben', 'cai'].map((a) => readFile(path.join(dir, 'sessions', a, 'events.jsonl'))));
    const app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null });
    open.push(app);
    await app.openSession('lead');

    // the same rules as --huddle: an item not in the queue (demo-01 is unanimous) is refused, and nothing is logged or opened
    expect(await dispatchApiCall(app, 'sendToHuddle', [['demo-02', 'demo-01'], false])).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/demo-01.*not in the adjudication queue/) },
    });
    expect(await dispatchApiCall(app, 'sendToHuddle', [[], false])).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await app.room()).toBeNull();
    expect(await app.huddles()).toEqual([]);

    const sent = await app.sendToHuddle(['demo-02', 'demo-03'], false);
    expect(sent).toMatchObject({ item_ids: ['demo-02', 'demo-03'], closed: false, decisions: 0 });
    const status = (await app.room())!;
    // the room panel serves it: the same room, a huddle, at the address the tab shows
    expect(status.code).toBe(sent.room);
    expect(sent.url).toBe(status.url);
    expect(status.view.items.map((i) => i.item_id)).toEqual(['demo-02', 'demo-03']);
    expect(await app.huddles()).toEqual([sent]);
    // one room at a time: a second huddle is refused before anything is logged
    expect(await dispatchApiCall(app, 'sendToHuddle', [['demo-02'], false])).toMatchObject({ ok: false, error: { code: 'conflict' } });

    const [ana, ben, cai] = [
      await RoomClient.join(status.url, status.code, 'ana'),
      await RoomClient.join(status.url, status.code, 'ben'),
      await RoomClient.join(status.url, status.code, 'cai'),
    ];
    for (const m of [ana, ben, cai]) await m.vote('demo-02', 'Impolite');
    await ana.vote('demo-03', 'Polite');
    await ben.vote('demo-03', 'Neutral');
    await app.revealRoomItem('demo-02');
    await app.revealRoomItem('demo-03');
    // votes are not final while the room is open
    expect(await dispatchApiCall(app, 'decideFromRoom', [sent.room, 'high', ['ambiguous text'], null])).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/still open: close it first/) },
    });
    expect(await dispatchApiCall(app, 'decideFromRoom', [sent.room, 'sure', ['ambiguous text'], null])).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    await app.closeRoom();
    expect(await dispatchApiCall(app, 'decideFromRoom', [sent.room, 'high', ['no such cause'], null])).toMatchObject({
      ok: false,
      error: { code: 'bad_request', message: expect.stringMatching(/cause "no such cause"/) },
    });

    const outcome = await app.decideFromRoom(sent.room, 'high', ['ambiguous text'], 'the huddle heard the irony');
    expect(outcome).toEqual({
      room: sent.room,
      outcomes: [
        { item_id: 'demo-02', label: 'Impolite', decided: true },
        { item_id: 'demo-03', label: null, decided: false, reason: 'the room has no majority on it', why: 'no_majority' },
      ],
      decisions: 1,
    });
    // taking it again logs nothing new
    expect((await app.decideFromRoom(sent.room, 'high', ['ambiguous text'], 'the huddle heard the irony')).decisions).toBe(0);
    expect(await app.huddles()).toEqual([{ ...sent, url: null, closed: true, decisions: 1 }]);
    const item = await app.adjudicationItem('demo-02');
    expect(item.decision).toMatchObject({ adjudicator: 'lead', label: 'Impolite', room: sent.room, confidence: 'high' });

    const log = await logLines(path.join(dir, 'adjudication', 'lead', 'events.jsonl'));
    expect(log.map((e) => e.type)).toEqual(['adjudication_started', 'items_sent_to_huddle', 'decision_recorded']);
    expect(log[1]!.data).toEqual({ item_ids: ['demo-02', 'demo-03'], room: sent.room });
    expect(log[2]!.data).toMatchObject({
      item_id: 'demo-02',
      label: 'Impolite',
      room: sent.room,
      adopted: ['cai'],
      causes: ['ambiguous text'],
    });
    // the annotators' logs are byte-identical
    const sessionsAfter = await Promise.all(['ana', 'ben', 'cai'].map((a) => readFile(path.join(dir, 'sessions', a, 'events.jsonl'))));
    sessionsAfter.forEach((bytes, i) => expect(bytes.equals(sessionsBefore[i]!)).toBe(true));
  });
});
