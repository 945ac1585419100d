import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import type { ShadowFeed } from '../../../core/common/rooms/shadowFeed';
import type { ShadowView } from '../../../core/common/rooms/shadowViews';
import { dispatchApiCall } from '../../../core/node/app/apiDispatcher';
import { AppService } from '../../../core/node/app/appService';
import { loadProjectItems, type OpenProject } from '../../../core/node/project/projectFolder';
import type { RoomListener } from '../../../core/node/rooms/roomHttp';
import { roomPaths } from '../../../core/node/rooms/roomLogFile';
import { FEED_FILE } from '../../../core/node/rooms/shadowFeedSocket';
import { ShadowHost } from '../../../core/node/rooms/shadowHost';
import { startShadowListener } from '../../../core/node/rooms/shadowListener';
import { sessionPaths } from '../../../core/node/session/sessionPaths';
import { ShadowClient } from '../../core/node/rooms/shadowClient';
import { freshProject } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';

interface OpenShadow {
  project: OpenProject;
  host: ShadowHost;
  listener: RoomListener;
  expert: ShadowClient;
  close(): Promise<void>;
}

const ITEM: Extract<ShadowFeed, { kind: 'item' }> = {
  kind: 'item',
  item_id: 'demo-01',
  prior: null,
  utterances: [],
  commitments: [],
  diagnostics: [],
  selection: null,
  reasoning: null,
  recording: false,
  completed: false,
};

/** A shadow room of a fresh demo project on 127.0.0.1 (3 trainees at most), fed by ana's session, which is on demo-01. */
async function openShadow(): Promise<OpenShadow> {
  const { project } = await freshProject();
  const items = await loadProjectItems(project);
  const host = await ShadowHost.create({ dir: project.dir, config: project.config, items }, { expert: 'ana', maxMembers: 3 });
  const listener = await startShadowListener(host);
  await host.feed({ kind: 'expert', annotator: 'ana', via: 'ingest' });
  await host.feed(ITEM);
  return {
    project,
    host,
    listener,
    expert: new ShadowClient(listener.url, 'ana', host.leadToken),
    async close() {
      await listener.close();
      await host.close().catch(() => undefined);
    },
  };
}

async function inShadow(run: (room: OpenShadow) => Promise<void>): Promise<void> {
  const room = await openShadow();
  try {
    await run(room);
  } finally {
    await room.close();
  }
}

interface Raw {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One request as an attacker writes it: any Host, Origin, content type and body, from a chosen loopback address. */
function raw(
  room: OpenShadow,
  method: string,
  pathname: string,
  options: { headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: `127.0.0.1:${room.listener.port}`, ...options.headers };
    if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
    const req = httpRequest(
      { host: '127.0.0.1', port: room.listener.port, localAddress: options.localAddress ?? '127.0.0.1', method, path: pathname, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const auth = (client: ShadowClient) => ({ Authorization: `Bearer ${client.token}`, 'Content-Type': 'application/json' });
const logOf = (room: OpenShadow) => readFile(room.host.logFile, 'utf8');
const joinAs = (room: OpenShadow, name: string, code = room.host.code) =>
  raw(room, 'POST', '/api/join', { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code, name }) });

/** `aloud room shadow` in its own process, shared by the cases that need the CLI's room (its feed socket, its terminal). */
interface ServedShadow {
  info: { code: string; url: string; port: number; log: string };
  pointer: { socket: string; token: string };
  project: OpenProject;
  err(): string;
  stop(): Promise<void>;
}

const cases: Array<HostileCase<ServedShadow>> = [];
const add = (name: string, run: (served: ServedShadow) => Promise<void> | void) => cases.push({ name, run });

// 1. The norming room's walls stand around the shadow room too: codes, tokens, Host, origin, bodies.
add('after 5 wrong codes from an address the right code from it waits too (429), and no trainee joined', () =>
  inShadow(async (room) => {
    const wrong = room.host.code === 'ZZZZZZ' ? 'YYYYYY' : 'ZZZZZZ';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await raw(room, 'POST', '/api/join', {
            localAddress: '127.0.0.2',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ code: wrong, name: `g${i}` }),
          })
        ).status,
      );
    expect(statuses).toEqual([403, 403, 403, 403, 403]);
    const right = await raw(room, 'POST', '/api/join', {
      localAddress: '127.0.0.2',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: room.host.code, name: 'mallory' }),
    });
    expect(right.status, right.text).toBe(429);
    expect(right.headers['retry-after']).toMatch(/^\d+$/);
    expect(room.host.snapshot().trainees.size).toBe(0);
  }),
);
add('guessed tokens are refused (403) and then limited (429); the page still loads from that address', () =>
  inShadow(async (room) => {
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++)
      statuses.push(
        (await raw(room, 'GET', '/api/state?after=0', { localAddress: '127.0.0.3', headers: { Authorization: `Bearer guess-${i}` } }))
          .status,
      );
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(statuses.at(-1)).toBe(429);
    expect((await raw(room, 'GET', '/', { localAddress: '127.0.0.3' })).status).toBe(200);
  }),
);
for (const host of ['evil.example', 'evil.example:80', '127.0.0.1', '127.0.0.1:1', '0.0.0.0']) {
  add(`a request naming another host (Host: ${host}, as after DNS rebinding) is refused (421) before anything is read`, () =>
    inShadow(async (room) => {
      const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
      const state = await raw(room, 'GET', '/api/state?after=0', { headers: { ...auth(ben), Host: host } });
      expect(state.status, state.text).toBe(421);
      expect(state.text).not.toContain('demo-01');
      const before = room.host.seq;
      const practice = await raw(room, 'POST', '/api/practice', {
        headers: { ...auth(ben), Host: host },
        body: JSON.stringify({ item_id: 'demo-01', label: 'Polite' }),
      });
      expect(practice.status).toBe(421);
      expect(room.host.seq).toBe(before);
    }),
  );
}
add('a cross-origin page cannot practise for a trainee (Origin of another site: 403), nothing logged', () =>
  inShadow(async (room) => {
    const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
    const before = await logOf(room);
    const r = await raw(room, 'POST', '/api/practice', {
      headers: { ...auth(ben), Origin: 'http://evil.example' },
      body: JSON.stringify({ item_id: 'demo-01', label: 'Polite' }),
    });
    expect(r.status, r.text).toBe(403);
    expect(await logOf(room)).toBe(before);
  }),
);
add("a cross-origin page cannot close the room with the expert's token either (403); the room stays open", () =>
  inShadow(async (room) => {
    const r = await raw(room, 'POST', '/api/lead/close', {
      headers: { ...auth(room.expert), Origin: 'http://127.0.0.1.evil.example' },
      body: '{}',
    });
    expect(r.status, r.text).toBe(403);
    expect(room.host.snapshot().closed).toBe(false);
  }),
);
for (const [what, type, body, status] of [
  ['a form post (text/plain, what a cross-site form can send without asking)', 'text/plain', '{"item_id":"demo-01","label":"Polite"}', 415],
  ['a urlencoded form', 'application/x-www-form-urlencoded', 'item_id=demo-01&label=Polite', 415],
  ['a body over 4 KB', 'application/json', JSON.stringify({ item_id: 'demo-01', label: 'Polite', pad: 'x'.repeat(5000) }), 413],
  ['a body that is not JSON', 'application/json', '{"item_id": "demo-01", ', 400],
  ['a JSON array', 'application/json', '["demo-01","Polite"]', 400],
  ['a label that is a number', 'application/json', '{"item_id":"demo-01","label":1}', 400],
  ['an item id that is an object', 'application/json', '{"item_id":{"$ne":null},"label":"Polite"}', 400],
  ['a label not of the project', 'application/json', '{"item_id":"demo-01","label":"Polite\\u0000"}', 400],
  ['a label differing only in case', 'application/json', '{"item_id":"demo-01","label":"polite"}', 400],
  ['an item she has not shown', 'application/json', '{"item_id":"demo-02","label":"Polite"}', 404],
  ['an item id with a path in it', 'application/json', '{"item_id":"../../sessions/ana/events","label":"Polite"}', 404],
] as const) {
  add(`a practice answer sent as ${what} is refused (${status}) and not logged`, () =>
    inShadow(async (room) => {
      const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
      const before = await logOf(room);
      const r = await raw(room, 'POST', '/api/practice', { headers: { ...auth(ben), 'Content-Type': type }, body });
      expect(r.status, r.text).toBe(status);
      // the refusal in words and nothing else: English for programs, its catalog message and its words for the page
      expect(JSON.parse(r.text)).toEqual({
        error: expect.any(String),
        say: expect.objectContaining({ id: expect.any(String) }),
        message: expect.any(String),
      });
      expect(await logOf(room)).toBe(before);
    }),
  );
}
for (const [method, p] of [
  ['GET', '/api/practice'],
  ['PUT', '/api/practice'],
  ['DELETE', '/api/state'],
  ['POST', '/api/state'],
  ['POST', '/api/audio'],
  ['GET', '/api/lead/close'],
] as const) {
  add(`${method} ${p} is refused (405), nothing logged`, () =>
    inShadow(async (room) => {
      const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
      const before = await logOf(room);
      const r = await raw(room, method, p, {
        headers: auth(ben),
        body: method === 'GET' ? undefined : '{"item_id":"demo-01","label":"Polite","on":true}',
      });
      expect(r.status, r.text).toBe(405);
      expect(await logOf(room)).toBe(before);
    }),
  );
}
for (const query of ['after=-1', 'after=abc', 'after=1e400', 'after=1.5', 'after=9007199254740993']) {
  add(`a poll with a bad cursor (${query}) is a 400 naming the field`, () =>
    inShadow(async (room) => {
      const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
      const r = await raw(room, 'GET', `/api/state?${query}`, { headers: auth(ben) });
      expect(r.status, r.text).toBe(400);
      expect(r.text).toMatch(/after must be a whole number/);
    }),
  );
}

// 2. Trainees can practise, and nothing else: no annotation API, no files, no controls of hers.
for (const p of [
  '/api/call',
  '/api/commitLabel',
  '/api/selectText',
  '/api/openItem',
  '/api/vote',
  '/api/chat',
  '/api/session',
  '/api/project',
  '/api/events',
  '/room.js',
  '/aloud.yaml',
  '/items.jsonl',
  '/sessions/ana/events.jsonl',
  '/rooms/CODE/events.jsonl',
  '/rooms/CODE/feed.json',
  '/%2e%2e/aloud.yaml',
  '/shadow.js/../aloud.yaml',
  '/api/state/../../aloud.yaml',
  '/__proto__',
  '/constructor',
  '/api/lead',
]) {
  add(`a trainee's ${p} answers 404 and shows nothing of the project`, () =>
    inShadow(async (room) => {
      const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
      const target = p.replace('CODE', room.host.code);
      for (const method of ['GET', 'POST']) {
        const r = await raw(room, method, target, {
          headers: auth(ben),
          body: method === 'POST' ? '{"label":"Polite","item_id":"demo-01"}' : undefined,
        });
        expect(r.status, `${method} ${target}: ${r.text}`).toBe(404);
        expect(r.text).not.toMatch(/token|schema:|"type":"/);
      }
    }),
  );
}
for (const [p, body] of [
  ['/api/lead/close', {}],
  ['/api/lead/audio', { on: true }],
  ['/api/lead/remove', { member_id: 'SELF' }],
] as const) {
  add(`a trainee's ${p} is refused (403): her controls are hers; nothing logged`, () =>
    inShadow(async (room) => {
      const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
      const id = [...room.host.snapshot().trainees.keys()][0]!;
      const before = await logOf(room);
      const r = await ben.call('POST', p, JSON.parse(JSON.stringify(body).replace('SELF', id)));
      expect(r.status, JSON.stringify(r.body)).toBe(403);
      expect(await logOf(room)).toBe(before);
      expect(room.host.snapshot()).toMatchObject({ closed: false, audio_shared: false });
    }),
  );
}
add("the expert does not practise (403): her answers are her session's, not the room's", () =>
  inShadow(async (room) => {
    const r = await room.expert.call('POST', '/api/practice', { item_id: 'demo-01', label: 'Polite' });
    expect(r.status, JSON.stringify(r.body)).toBe(403);
    expect(room.host.snapshot().items.get('demo-01')!.votes.size).toBe(0);
  }),
);
add('her audio is never fetched unless she shares it: 403 before, 200 while shared, 403 again after', () =>
  inShadow(async (room) => {
    const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
    await room.host.feed({ kind: 'recording', item_id: 'demo-01', on: true });
    const tone = new Float32Array(1600).map((_, i) => 0.3 * Math.sin(i / 3));
    await room.host.feed({ kind: 'audio', item_id: 'demo-01', start_sample: 0, pcm: tone });
    for (const q of ['item=demo-01', 'item=demo-01&from=0', 'item=demo-01&wait=1', 'item=demo-02', ''])
      expect((await ben.call('GET', `/api/audio?${q}`)).status, q).toBe(403);
    expect((await room.expert.call('POST', '/api/lead/audio', { on: true })).status).toBe(200);
    // what she said before she shared it stays hers
    expect((await raw(room, 'GET', '/api/audio?item=demo-01&from=0', { headers: auth(ben) })).headers['x-audio-start']).toBe('0');
    const before = await fetch(new URL('/api/audio?item=demo-01&from=0', room.listener.url), {
      headers: { Authorization: `Bearer ${ben.token}` },
    });
    expect(new Int16Array(await before.arrayBuffer()).length).toBe(0);
    await room.host.feed({ kind: 'audio', item_id: 'demo-01', start_sample: 1600, pcm: tone });
    const shared = await fetch(new URL('/api/audio?item=demo-01&from=0', room.listener.url), {
      headers: { Authorization: `Bearer ${ben.token}` },
    });
    expect(shared.status).toBe(200);
    expect(shared.headers.get('x-audio-start')).toBe('1600');
    expect(new Int16Array(await shared.arrayBuffer()).length).toBe(1600);
    expect((await ben.call('GET', '/api/audio?item=demo-02')).status).toBe(409);
    expect((await ben.call('GET', '/api/audio?item=demo-01&from=-3')).status).toBe(400);
    expect((await room.expert.call('POST', '/api/lead/audio', { on: false })).status).toBe(200);
    expect((await ben.call('GET', '/api/audio?item=demo-01&from=0')).status).toBe(403);
    expect(await logOf(room)).not.toMatch(/"pcm"|"samples"/);
  }),
);

// 3. No trainee sees another's answer before the item ends, however they ask.
add(
  "no answer of a trainee reaches another before the item ends: not in the view, the cursor's answers, the expert's view or the metrics",
  () =>
    inShadow(async (room) => {
      const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
      const cy = await ShadowClient.join(room.listener.url, room.host.code, 'cy');
      expect((await ben.practise('demo-01', 'Impolite')).status).toBe(200);
      const answers: string[] = [];
      for (const q of [
        'after=0',
        'after=1',
        `after=${room.host.seq - 1}`,
        'after=0&member=ben',
        'after=0&viewer=expert',
        'after=0&reveal=1',
      ])
        answers.push((await raw(room, 'GET', `/api/state?${q}`, { headers: auth(cy) })).text);
      for (const text of answers) {
        const view = JSON.parse(text) as ShadowView;
        expect(view.current!.practice).toEqual({ mine: null, answered: ['ben'] });
        expect(JSON.stringify({ ...view, labels: [] })).not.toContain('Impolite');
      }
      // her own page (the expert's view) says who answered, not what, while the item is live
      const hers = await room.expert.view();
      expect(JSON.stringify({ ...hers, labels: [] })).not.toContain('Impolite');
      // the answers arrive with the item's end (so the checks above could see one)
      await room.host.feed({
        kind: 'label',
        item_id: 'demo-01',
        label: 'Polite',
        source: 'key',
        quote: null,
        audio_ms: null,
        blind_label: 'Polite',
        final_label: 'Polite',
      });
      await room.host.feed({ ...ITEM, item_id: 'demo-02' });
      const ended = await cy.view();
      expect(ended.metrics.per_item.find((i) => i.item_id === 'demo-01')?.answers).toEqual({ ben: 'Impolite' });
    }),
);
add("a trainee's view never carries a token, a token hash or another trainee's id", () =>
  inShadow(async (room) => {
    const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
    const cy = await ShadowClient.join(room.listener.url, room.host.code, 'cy');
    await ben.practise('demo-01', 'Polite');
    const text = (await raw(room, 'GET', '/api/state?after=0', { headers: auth(cy) })).text;
    expect(text).not.toContain(ben.token);
    expect(text).not.toContain(room.host.leadToken);
    expect(text).not.toMatch(/token|sha256/);
    const benId = [...room.host.snapshot().trainees.values()].find((t) => t.name === 'ben')!.member_id;
    expect(text).not.toContain(benId);
  }),
);
add('a practice answer is given once: the second (another label, or a skip) is refused (409) and the first stays', () =>
  inShadow(async (room) => {
    const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
    expect((await ben.practise('demo-01', 'Polite')).status).toBe(200);
    const both = await Promise.all([ben.practise('demo-01', 'Impolite'), ben.practise('demo-01', null)]);
    expect(both.map((r) => r.status)).toEqual([409, 409]);
    const votes = (await logOf(room)).split('\n').filter((l) => l.includes('"practice_vote"'));
    expect(votes).toHaveLength(1);
    expect(votes[0]).toContain('"label":"Polite"');
  }),
);
add('twenty answers sent at once by one trainee log exactly one', () =>
  inShadow(async (room) => {
    const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) => ben.practise('demo-01', ['Polite', 'Impolite', 'Neutral'][i % 3]!)));
    expect(all.filter((r) => r.status === 200)).toHaveLength(1);
    expect((await logOf(room)).split('\n').filter((l) => l.includes('"practice_vote"'))).toHaveLength(1);
  }),
);

// 4. Names: nobody passes for the expert; the room's limits hold.
for (const [what, name, status] of [
  ['her own name', 'ana', 409],
  ['her name in capitals', 'ANA', 409],
  ['her name with a Cyrillic а', '\u0430na', 409],
  ['her name in full-width letters', '\uff41\uff4e\uff41', 409],
  ['"expert"', 'expert', 400],
  ['"Expert" with a Cyrillic е', '\u0415xpert', 400],
  ['"lead"', 'lead', 400],
  ['a zero-width space', 'ben\u200b', 400],
  ['a right-to-left override', '\u202eneb', 400],
  ['a line break', 'ben\nana', 400],
  ['nothing but spaces', '   ', 400],
] as const) {
  add(`a trainee cannot join under ${what} (${JSON.stringify(name)}): ${status}, nothing logged`, () =>
    inShadow(async (room) => {
      const before = await logOf(room);
      const r = await joinAs(room, name);
      expect(r.status, r.text).toBe(status);
      expect(await logOf(room)).toBe(before);
    }),
  );
}
add('the room holds its most trainees (3 here): a fourth is refused (409) until one is removed', () =>
  inShadow(async (room) => {
    for (const n of ['ben', 'cy', 'dee']) await ShadowClient.join(room.listener.url, room.host.code, n);
    const fourth = await joinAs(room, 'eve');
    expect(fourth.status, fourth.text).toBe(409);
    expect(fourth.text).toMatch(/the room is full/);
    const id = [...room.host.snapshot().trainees.keys()][0]!;
    expect((await room.expert.call('POST', '/api/lead/remove', { member_id: id })).status).toBe(200);
    expect((await joinAs(room, 'eve')).status).toBe(200);
  }),
);
add("a removed trainee's token opens nothing: state, practice and audio are 403", () =>
  inShadow(async (room) => {
    const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
    const id = [...room.host.snapshot().trainees.keys()][0]!;
    await room.expert.call('POST', '/api/lead/remove', { member_id: id });
    expect((await ben.call('GET', '/api/state?after=0')).status).toBe(403);
    expect((await ben.practise('demo-01', 'Polite')).status).toBe(403);
    expect((await ben.call('GET', '/api/audio?item=demo-01')).status).toBe(403);
  }),
);
add('a poll held open when the expert removes its trainee answers 403, not one more view', () =>
  inShadow(async (room) => {
    const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
    const seq = (await ben.view()).seq;
    const held = raw(room, 'GET', `/api/state?after=${seq}&wait=1`, { headers: auth(ben) });
    // the poll is waiting: the room has not changed since
    await expect.poll(() => room.host.seq).toBe(seq);
    const id = [...room.host.snapshot().trainees.keys()][0]!;
    await room.host.remove(id);
    await room.host.feed({ kind: 'selection', item_id: 'demo-01', span: { start: 0, end: 5, quote: 'Thank' } });
    const answer = await held;
    expect(answer.status, answer.text).toBe(403);
    expect(answer.text).not.toContain('Thank you so much');
  }),
);
add('a closed room takes no joins or answers (409); polls still answer, and say it is closed', () =>
  inShadow(async (room) => {
    const ben = await ShadowClient.join(room.listener.url, room.host.code, 'ben');
    expect((await room.expert.call('POST', '/api/lead/close', {})).status).toBe(200);
    expect((await joinAs(room, 'cy')).status).toBe(409);
    expect((await ben.practise('demo-01', 'Polite')).status).toBe(409);
    expect((await ben.view()).closed).toBe(true);
  }),
);

// 5. The feed: only her session, through a socket nobody else can open, and only with its token.
add(
  "the feed's pointer (rooms/<code>/feed.json) is readable by its owner only, and its socket lies in a private folder",
  async (served) => {
    const pointer = path.join(roomPaths(served.project.dir, served.info.code).dir, FEED_FILE);
    expect((await stat(pointer)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(served.pointer.socket))).mode & 0o077).toBe(0);
  },
);
for (const [what, lines] of [
  ['no token', ['{"kind":"expert","annotator":"ana","via":"ingest"}']],
  ['a wrong token', ['{"token":"guess"}', '{"kind":"expert","annotator":"ana","via":"ingest"}']],
  [
    'a token of the right length but wrong',
    ['{"token":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}', '{"kind":"expert","annotator":"ana","via":"ingest"}'],
  ],
  ['a first line that is not JSON', ['hello']],
] as const) {
  add(`a process on the feed socket with ${what} is refused and hung up on; nothing reaches the room`, async (served) => {
    const answer = await onSocket(served.pointer.socket, lines.map((l) => `${l}\n`).join(''));
    expect(answer).toMatch(/"error":"(wrong feed token|a feed line must be JSON)"/);
    expect(answer).not.toContain('"ok":true');
    expect(await readFile(served.info.log, 'utf8')).not.toContain('expert_joined');
  });
}
add('a feed line over 1 MB is refused, and the room goes on', async (served) => {
  const answer = await onSocket(
    served.pointer.socket,
    `{"token":"${served.pointer.token}"}\n{"kind":"partial","item_id":"demo-01","utterance":0,"text":"${'x'.repeat(1_100_000)}`,
  );
  expect(answer).toMatch(/"ok":true[\s\S]*at most 1048576 bytes/);
  expect((await fetch(served.info.url)).status).toBe(200);
  expect(await readFile(served.info.log, 'utf8')).not.toContain('expert_joined');
});

// 6. Nothing a trainee does reaches her session: the barrage leaves her log byte for byte as it was.
add("a barrage of every trainee request, good and bad, leaves the expert's session log byte for byte as it was", async () => {
  const { project } = await freshProject();
  const app = await AppService.open({ projectDir: project.dir, mode: 'browser' });
  try {
    const call = async (method: string, ...args: unknown[]) => {
      const outcome = await dispatchApiCall(app, method, args);
      if (!outcome.ok) throw new Error(`${method}: ${JSON.stringify(outcome)}`);
      return outcome.result as { url: string; code: string };
    };
    await call('openSession', 'ana');
    await call('openItem', 'demo-01');
    const status = await call('openShadowRoom', false);
    const log = sessionPaths(project.dir, 'ana').events;
    const before = await readFile(log);
    const ben = await ShadowClient.join(status.url, status.code, 'ben');
    const bodies = [
      { item_id: 'demo-01', label: 'Polite' },
      { item_id: 'demo-01', label: null },
      { label: 'Neutral', source: 'key' },
      { method: 'commitLabel', args: ['Impolite', 'key'] },
      { on: true },
      { span: { start: 0, end: 5 } },
    ];
    for (const p of [
      '/api/practice',
      '/api/call',
      '/api/commitLabel',
      '/api/selectText',
      '/api/openItem',
      '/api/completeItem',
      '/api/lead/audio',
      '/api/lead/close',
      '/api/lead/remove',
    ]) {
      for (const body of bodies) await ben.call('POST', p, body);
    }
    for (const p of ['/api/state?after=0', '/api/audio?item=demo-01', '/api/session', '/sessions/ana/events.jsonl'])
      await ben.call('GET', p);
    expect(ben.answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    expect(await readFile(log)).toEqual(before);
    const state = (await dispatchApiCall(app, 'session', [])) as {
      ok: true;
      result: { items: Array<{ item_id: string; final_label: string | null }> };
    };
    expect(JSON.stringify(state.result)).not.toMatch(/"final_label":"(Polite|Neutral|Impolite)"/);
  } finally {
    await app.close();
  }
});

// 7. A client hanging up mid-body costs the expert's terminal one line at most.
add("clients hanging up mid-body print nothing like a stack trace on the expert's terminal (at most one line)", async (served) => {
  const { port, url } = served.info;
  for (const target of ['/api/join', '/api/practice', '/api/lead/close']) {
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"code":"`,
        );
        setImmediate(() => socket.destroy());
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
  }
  // the listener still answers, after it has seen every hang-up
  expect((await fetch(`${url}api/state`, { headers: { Authorization: 'Bearer nobody' } })).status).toBe(403);
  expect(served.err().trim().split('\n').filter(Boolean).length, served.err()).toBeLessThanOrEqual(1);
  expect(served.err()).not.toMatch(/\n\s+at |Error: aborted/);
});

/** Starts `aloud room shadow` for ana on a fresh project, as the expert runs it; stop() is her Ctrl-C. */
async function serveShadowCli(): Promise<ServedShadow> {
  const { project } = await freshProject();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve('core/node/cli/bin.ts'), 'room', 'shadow', '--project', project.dir, '--annotator', 'ana', '--json'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const info = await new Promise<ServedShadow['info']>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
    });
    void exited.then(() => reject(new Error(`room shadow exited: ${err}`)));
  });
  const pointer = JSON.parse(
    await readFile(path.join(roomPaths(project.dir, info.code).dir, FEED_FILE), 'utf8'),
  ) as ServedShadow['pointer'];
  return {
    info,
    pointer,
    project,
    err: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

/** Writes to the feed socket as another local process would, and returns all it was told before the room hung up. */
function onSocket(socketPath: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(socketPath, () => socket.write(text));
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (answer += d));
    socket.on('close', () => resolve(answer));
    socket.on('error', (e) => (answer ? resolve(answer) : reject(e)));
    setTimeout(() => socket.destroy(), 20_000).unref();
  });
}

export const shadowRoomsGroup = hostileGroup<ServedShadow>({
  surface: 'rooms',
  area: 'shadow rooms: the trainee listener, practice, her audio, names, the feed socket, her session',
  setup: serveShadowCli,
  teardown: (served) => served.stop(),
  cases,
});
