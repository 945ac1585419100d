/**
 * A room listener's refusals speak the asker's language (issue 34): the API keeps its English `error` for programs
 * and adds the catalog message (`say`) and its words in the Accept-Language (`message`); a browser opening a page
 * that is not there gets a page in its language. English stays what it was.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFailure } from '../../../../core/node/http/localHttpServer';
import { initProject } from '../../../../core/node/project/projectFolder';
import { RoomHost } from '../../../../core/node/rooms/roomHost';
import { failureText, roomFailure, type RoomListener } from '../../../../core/node/rooms/roomHttp';
import { startRoomListener } from '../../../../core/node/rooms/roomListener';
import { request } from './roomClient';

const GERMAN = { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.5' };

describe("a room listener's refusals, in the asker's language", () => {
  let room: RoomHost;
  let listener: RoomListener;

  beforeAll(async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-room-words-')), 'p');
    await initProject(dir, { demo: true });
    room = await RoomHost.create(dir, {
      project: 'p',
      mode: 'items',
      items: [{ id: 'a', text: 'A' }],
      labels: ['X', 'Y'],
      level: 'nominal',
      max_members: 2,
    });
    listener = await startRoomListener(room);
  });
  afterAll(async () => {
    await listener?.close();
    await room?.close().catch(() => undefined);
  });

  it("the server's own refusals: English error kept, German message, Content-Language and Vary", async () => {
    const wrongToken = await request(listener.url, 'GET', '/api/state', { token: 'nope', headers: GERMAN });
    expect(wrongToken.status).toBe(403);
    expect(wrongToken.body).toEqual({
      error: 'this token is not (or no longer) a member of the room',
      say: { id: 'room.error.wrongToken' },
      message: 'Dieser Schlüssel gehört keinem Mitglied des Raums (mehr)',
    });
    expect(wrongToken.headers.get('content-language')).toBe('de');
    expect(wrongToken.headers.get('vary')).toBe('Accept-Language');

    const english = await request(listener.url, 'GET', '/api/state', { token: 'nope', headers: { 'Accept-Language': 'en-GB' } });
    expect(english.body.message).toBe('this token is not (or no longer) a member of the room');
    expect(english.headers.get('content-language')).toBe('en');

    const wrongCode = await request(listener.url, 'POST', '/api/join', { body: { code: 'ZZZZZZ', name: 'ana' }, headers: GERMAN });
    expect(wrongCode.status).toBe(403);
    expect([wrongCode.body.error, wrongCode.body.message]).toEqual(['wrong room code', 'Falscher Raumcode']);

    const joinFirst = await request(listener.url, 'POST', '/api/vote', { body: { item_id: 'a', label: 'X' }, headers: GERMAN });
    expect([joinFirst.status, joinFirst.body.error, joinFirst.body.message]).toEqual([
      401,
      'join the room first',
      'Treten Sie zuerst dem Raum bei',
    ]);

    const notJson = await request(listener.url, 'POST', '/api/join', {
      body: 'x',
      headers: { ...GERMAN, 'Content-Type': 'text/plain' },
    });
    expect([notJson.status, notJson.body.error, notJson.body.message]).toEqual([
      415,
      'send JSON (Content-Type: application/json)',
      'Senden Sie JSON (Content-Type: application/json)',
    ]);
  });

  it('a body over the limit says its limit in both languages, the English as programs always read it', async () => {
    const big = { code: 'x'.repeat(5000) };
    const english = await request(listener.url, 'POST', '/api/join', { body: big });
    const german = await request(listener.url, 'POST', '/api/join', { body: big, headers: GERMAN });
    expect([english.status, english.body.error, english.body.message]).toEqual([
      413,
      'a request body has at most 4096 bytes',
      'a request body has at most 4096 bytes',
    ]);
    expect([german.body.error, german.body.message]).toEqual([
      'a request body has at most 4096 bytes',
      'Eine Anfrage darf höchstens 4096 Bytes enthalten',
    ]);
  });

  it("the room's rules refusing (a taken name, a lead who votes) say so in German, the English error unchanged", async () => {
    const first = await request(listener.url, 'POST', '/api/join', { body: { code: room.code, name: 'ana' } });
    expect(first.status).toBe(200);
    const taken = await request(listener.url, 'POST', '/api/join', { body: { code: room.code, name: 'ana' }, headers: GERMAN });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatch(/already in the room/);
    expect(taken.body.message).toMatch(/ist bereits im Raum/);
    expect((taken.body.say as { id: string }).id).toMatch(/^refusal\.rooms\./);

    const leadVotes = await request(listener.url, 'POST', '/api/vote', {
      token: room.leadToken,
      body: { item_id: 'a', label: 'X' },
      headers: GERMAN,
    });
    expect([leadVotes.status, leadVotes.body.error, leadVotes.body.message]).toEqual([
      403,
      'the lead does not vote; join as a member to vote',
      'Die Projektleitung stimmt nicht ab; treten Sie als Mitglied bei, um abzustimmen',
    ]);
  });

  it('a browser opening a page that is not there gets a page in its language, the API JSON', async () => {
    const page = await request(listener.url, 'GET', '/nothing', {
      headers: { ...GERMAN, Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = String(page.body.text);
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Nicht gefunden: Dieser Dienst stellt nur den Kalibrierungsraum bereit');
    expect(html).toContain('<a href="/">Zur Raumseite</a>');
    expect(html).not.toMatch(/not found|listener/);

    const api = await request(listener.url, 'GET', '/api/nothing', { headers: { ...GERMAN, Accept: 'text/html' } });
    expect(api.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(api.body.error).toBe('not found: this listener serves only the norming room');
  });
});

describe('failureText', () => {
  it("formats a room failure's catalog message in either language, with its values", () => {
    const failure = roomFailure(429, 'room.error.tooMany', { wait: 12 });
    expect(failure.message).toBe('too many requests; try again in 12 s');
    expect(failureText(failure, 'en')).toBe('too many requests; try again in 12 s');
    expect(failureText(failure, 'de')).toBe('Zu viele Anfragen; versuchen Sie es in 12 s erneut');
  });

  it('keeps the English of a failure without a catalog message, or with an id no catalog knows', () => {
    expect(failureText(new HttpFailure(400, 'plain English'), 'de')).toBe('plain English');
    expect(failureText(new HttpFailure(400, 'plain English', {}, { id: 'nowhere.atAll' }), 'de')).toBe('plain English');
  });
});
