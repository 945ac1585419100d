import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import type { RoomEvent, RoomEventData } from '../../../core/common/rooms/roomEvents';
import { applyRoomEvent, decideJoin, foldRoom, type RoomState } from '../../../core/common/rooms/roomFold';
import type { RoomView } from '../../../core/common/rooms/roomViews';
import { readSessionLog } from '../../../core/node/session/sessionLogFile';
import { loadProjectItems, type OpenProject } from '../../../core/node/project/projectFolder';
import { RoomHost } from '../../../core/node/rooms/roomHost';
import type { RoomListener } from '../../../core/node/rooms/roomHttp';
import { startRoomListener } from '../../../core/node/rooms/roomListener';
import { roomPaths } from '../../../core/node/rooms/roomLogFile';
import { SessionService } from '../../../core/node/session/sessionService';
import { sessionPaths } from '../../../core/node/session/sessionPaths';
import { cli } from '../../helpers/cli';
import { RoomClient } from '../../core/node/rooms/roomClient';
import { freshProject } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';

const LABELS = ['Polite', 'Impolite', 'Neutral'];

interface OpenRoom {
  project: OpenProject;
  host: RoomHost;
  listener: RoomListener;
  lead: RoomClient;
  close(): Promise<void>;
}

/** A fresh project with a room over demo-01..03, served on 127.0.0.1 with the default limits. */
async function openRoom(): Promise<OpenRoom> {
  const { project } = await freshProject();
  const items = await loadProjectItems(project);
  const host = await RoomHost.create(project.dir, {
    project: project.config.name,
    mode: 'items',
    items: items.slice(0, 3).map((i) => ({ id: i.id, text: i.text })),
    labels: LABELS,
    level: 'nominal',
    max_members: 12,
  });
  const listener = await startRoomListener(host);
  return {
    project,
    host,
    listener,
    lead: new RoomClient(listener.url, 'lead', host.leadToken),
    async close() {
      await listener.close();
      await host.close().catch(() => undefined);
    },
  };
}

async function inRoom(run: (room: OpenRoom) => Promise<void>): Promise<void> {
  const room = await openRoom();
  try {
    await run(room);
  } finally {
    await room.close();
  }
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * One request to the listener from a chosen loopback address (all of 127.0.0.0/8 is this machine on Linux), as a
 * member on another machine would come from another address.
 */
function from(
  localAddress: string,
  room: OpenRoom,
  method: string,
  pathname: string,
  options: { body?: unknown; token?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = { Host: `127.0.0.1:${room.listener.port}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    const req = httpRequest({ host: '127.0.0.1', port: room.listener.port, localAddress, method, path: pathname, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(text) as Record<string, unknown>;
        } catch {
          parsed = { text };
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const wrongCode = (code: string): string => (code === 'ZZZZZZ' ? 'YYYYYY' : 'ZZZZZZ');
const join = (room: OpenRoom, ip: string, code: string, name: string) => from(ip, room, 'POST', '/api/join', { body: { code, name } });

const cases: Array<HostileCase<null>> = [];
const add = (name: string, run: () => Promise<void> | void) => cases.push({ name, run });

// 1. Wrong room codes: per address and per room, and the right code waits too once a budget is spent.
add('after 5 wrong codes from an address the right code from it waits too (429 with Retry-After), so guessing stops', () =>
  inRoom(async (room) => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await join(room, '127.0.0.2', wrongCode(room.host.code), `g${i}`)).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403]);
    const right = await join(room, '127.0.0.2', room.host.code, 'mallory');
    expect(right.status, JSON.stringify(right.body)).toBe(429);
    expect(String(right.body.error)).toMatch(/too many wrong room codes from this address; try again in \d+ s/);
    expect(room.host.snapshot().members.size).toBe(0);
  }),
);
add('another address brings no fresh budget: 30 wrong codes from 6 addresses lock joining for the whole room', () =>
  inRoom(async (room) => {
    for (let a = 0; a < 6; a++)
      for (let i = 0; i < 5; i++) expect((await join(room, `127.0.0.${10 + a}`, wrongCode(room.host.code), 'g')).status).toBe(403);
    const fresh = await join(room, '127.0.0.40', room.host.code, 'mallory');
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(429);
    expect(String(fresh.body.error)).toMatch(/too many wrong room codes for this room/);
    const wrongFromFresh = await join(room, '127.0.0.41', wrongCode(room.host.code), 'g');
    expect(wrongFromFresh.status).toBe(429);
  }),
);
add("a member's successful join restores nobody's wrong-code budget", () =>
  inRoom(async (room) => {
    for (let i = 0; i < 4; i++) expect((await join(room, '127.0.0.3', wrongCode(room.host.code), 'g')).status).toBe(403);
    expect((await join(room, '127.0.0.4', room.host.code, 'ana')).status).toBe(200);
    expect((await join(room, '127.0.0.3', wrongCode(room.host.code), 'g')).status).toBe(403);
    expect((await join(room, '127.0.0.3', room.host.code, 'ben')).status).toBe(429);
  }),
);
add('wrong codes spend nothing of the page budget: the page still loads from that address', () =>
  inRoom(async (room) => {
    for (let i = 0; i < 8; i++) await join(room, '127.0.0.5', wrongCode(room.host.code), 'g');
    expect((await from('127.0.0.5', room, 'GET', '/')).status).toBe(200);
  }),
);

// 4. Wrong tokens have a budget of their own.
add("40 wrong tokens from an address do not lock that address's page or joins (loopback would lock everyone out)", () =>
  inRoom(async (room) => {
    for (let i = 0; i < 40; i++) await from('127.0.0.1', room, 'GET', '/api/state?after=0', { token: `guess-${i}` });
    expect((await from('127.0.0.1', room, 'GET', '/')).status).toBe(200);
    expect((await from('127.0.0.1', room, 'GET', '/room.js')).status).toBe(200);
    const joined = await join(room, '127.0.0.1', room.host.code, 'ana');
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
  }),
);
add('wrong tokens are limited on their own budget (429 after the burst)', () =>
  inRoom(async (room) => {
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++)
      statuses.push((await from('127.0.0.6', room, 'GET', '/api/state?after=0', { token: `guess-${i}` })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(statuses.at(-1)).toBe(429);
  }),
);
add('a made-up token on a page request is no way around the limits: refused, on the wrong-token budget', () =>
  inRoom(async (room) => {
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await from('127.0.0.7', room, 'GET', '/', { token: 'not-a-member' })).status);
    expect(statuses[0]).toBe(403);
    expect(statuses.at(-1)).toBe(429);
  }),
);
add("a member's valid token is not slowed by others' wrong tokens from the same address", () =>
  inRoom(async (room) => {
    const ana = await RoomClient.join(room.listener.url, room.host.code, 'ana');
    for (let i = 0; i < 20; i++) await from('127.0.0.1', room, 'GET', '/api/state', { token: `guess-${i}` });
    expect((await ana.call('GET', '/api/state?after=0')).status).toBe(200);
  }),
);

// 2. Chat and the room log are bounded.
for (const [what, text] of [
  ['500 NUL characters', '\u0000'.repeat(500)],
  ['an escape sequence', 'hi \u001b[31mred'],
  ['a line break', 'first line\nsecond line'],
  ['a C1 control (U+0085)', 'a\u0085b'],
  ['a right-to-left override', 'I vote \u202Eetilop'],
  ['a lone surrogate', 'broken \ud800 text'],
] as const) {
  add(`a chat message with ${what} is refused (400) and not logged`, () =>
    inRoom(async (room) => {
      const ana = await RoomClient.join(room.listener.url, room.host.code, 'ana');
      const before = room.host.seq;
      const r = await ana.call('POST', '/api/chat', { text });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(room.host.seq).toBe(before);
    }),
  );
}
add('a chat message of 501 characters is refused; 500 characters (emoji count as one) are taken', () =>
  inRoom(async (room) => {
    const ana = await RoomClient.join(room.listener.url, room.host.code, 'ana');
    expect((await ana.call('POST', '/api/chat', { text: 'x'.repeat(501) })).status).toBe(400);
    expect((await ana.call('POST', '/api/chat', { text: '😀'.repeat(500) })).status).toBe(200);
  }),
);
add('chat_after=0 answers one page of chat (100 messages) and says more follow; the next page starts after it', () =>
  inRoom(async (room) => {
    const ana = await RoomClient.join(room.listener.url, room.host.code, 'ana');
    const anaId = [...room.host.snapshot().members.keys()][0]!;
    for (let i = 0; i < 130; i++) await room.host.chat(i % 2 ? null : anaId, `message ${i}`);
    const first = (await ana.call('GET', '/api/state?after=0&chat_after=0')).body as unknown as RoomView & { chat_more: boolean };
    expect(first.chat).toHaveLength(100);
    expect(first.chat_more).toBe(true);
    const next = (await ana.call('GET', `/api/state?after=0&chat_after=${first.chat.at(-1)!.seq}`)).body as unknown as RoomView & {
      chat_more: boolean;
    };
    expect(next.chat.map((c) => c.text)).toEqual(Array.from({ length: 30 }, (_, i) => `message ${100 + i}`));
    expect(next.chat_more).toBe(false);
  }),
);
add('the room counts its log in bytes as written: the fold and the file agree', () =>
  inRoom(async (room) => {
    const ana = await RoomClient.join(room.listener.url, room.host.code, 'ana');
    await ana.vote('demo-01', 'Polite');
    await ana.call('POST', '/api/chat', { text: 'ça va? 😀' });
    await room.lead.call('POST', '/api/chat', { text: 'ok' });
    const state = room.host.snapshot() as RoomState & { log_bytes?: number };
    expect(state.log_bytes).toBe((await stat(room.host.logFile)).size);
    const member = [...state.members.values()][0] as { log_bytes?: number };
    const lines = (await readFile(room.host.logFile, 'utf8')).split('\n').filter(Boolean);
    const own = lines.filter(
      (l) => l.includes(`"member_id":"${[...state.members.keys()][0]}"`) || l.includes(`"from":"${[...state.members.keys()][0]}"`),
    );
    expect(member.log_bytes).toBe(own.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0));
  }),
);

/** A room log of `chatBytes` bytes of chat by one member (written as the host writes it), opened again by a host. */
async function roomWithLog(fill: (state: RoomState, events: RoomEvent[], push: (e: RoomEvent) => void) => void): Promise<OpenRoom> {
  const { project } = await freshProject();
  const code = 'K7QX3M';
  const paths = roomPaths(project.dir, code);
  await mkdir(paths.dir, { recursive: true });
  const opened: RoomEventData['room_opened'] = {
    code,
    project: project.config.name,
    mode: 'items',
    items: [
      { id: 'demo-01', text: 't' },
      { id: 'demo-02', text: 'u' },
    ],
    labels: LABELS,
    level: 'nominal',
    max_members: 12,
  };
  const events: RoomEvent[] = [{ v: 1, seq: 1, ts: '2026-01-01T10:00:00.000Z', type: 'room_opened', data: opened }];
  let state = foldRoom(events);
  const push = (e: RoomEvent) => {
    events.push(e);
    state = applyRoomEvent(state, e);
  };
  fill(state, events, push);
  await writeFile(paths.events, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
  const host = await RoomHost.resume(project.dir, code);
  const listener = await startRoomListener(host);
  return {
    project,
    host,
    listener,
    lead: new RoomClient(listener.url, 'lead', host.leadToken),
    close: async () => (await listener.close(), await host.close()),
  };
}

const event = <T extends keyof RoomEventData>(seq: number, type: T, data: RoomEventData[T]) =>
  ({ v: 1, seq, ts: '2026-01-01T10:00:01.000Z', type, data }) as RoomEvent;
const tokenOf = (n: number) => `token-${n}-${'x'.repeat(20)}`;
const sha = (t: string) => import('node:crypto').then((c) => c.createHash('sha256').update(t).digest('hex'));

add('a member who filled their share of the log (512 KB) can vote and chat no more; the others can, and the page is told', async () => {
  const tokenHash = await sha(tokenOf(1));
  const otherHash = await sha(tokenOf(2));
  const room = await roomWithLog((_s, events, push) => {
    push(event(2, 'member_joined', { member_id: 'm1', name: 'ana', token_sha256: tokenHash }));
    push(event(3, 'member_joined', { member_id: 'm2', name: 'ben', token_sha256: otherHash }));
    for (let seq = 4; seq < 4 + 1100; seq++) push(event(seq, 'chat', { from: 'm1', text: 'x'.repeat(450) }));
    expect(events.length).toBeGreaterThan(1000);
  });
  try {
    const ana = new RoomClient(room.listener.url, 'ana', tokenOf(1));
    const ben = new RoomClient(room.listener.url, 'ben', tokenOf(2));
    const refused = await ana.call('POST', '/api/chat', { text: 'one more' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(String(refused.body.error)).toMatch(/your share of the room log is full/);
    expect((await ana.call('POST', '/api/vote', { item_id: 'demo-01', label: 'Polite' })).status).toBe(409);
    expect((await ben.call('POST', '/api/vote', { item_id: 'demo-01', label: 'Polite' })).status).toBe(200);
    const view = (await ana.call('GET', '/api/state?after=0')).body as unknown as { me: { share_full: boolean }; log: { full: boolean } };
    expect(view.me.share_full).toBe(true);
    expect(view.log.full).toBe(false);
  } finally {
    await room.close();
  }
});
add('a full room log (4 MB) is a clear state: no more joins, votes or chat; the lead still reveals and closes', async () => {
  const hashes = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => sha(tokenOf(n))));
  const room = await roomWithLog((_s, _e, push) => {
    let seq = 2;
    for (let m = 1; m <= 9; m++)
      push(event(seq++, 'member_joined', { member_id: `m${m}`, name: `member ${m}`, token_sha256: hashes[m - 1]! }));
    for (let m = 1; m <= 9; m++) for (let i = 0; i < 1100; i++) push(event(seq++, 'chat', { from: `m${m}`, text: 'y'.repeat(450) }));
  });
  try {
    const m1 = new RoomClient(room.listener.url, 'member 1', tokenOf(1));
    const view = (await m1.call('GET', '/api/state?after=0')).body as unknown as {
      log: { full: boolean; bytes: number; max_bytes: number };
    };
    expect(view.log.full).toBe(true);
    expect(view.log.bytes).toBeGreaterThanOrEqual(view.log.max_bytes);
    for (const [who, p, body] of [
      [m1, '/api/chat', { text: 'hi' }],
      [m1, '/api/vote', { item_id: 'demo-01', label: 'Polite' }],
      [room.lead, '/api/chat', { text: 'hi' }],
    ] as const) {
      const r = await who.call('POST', p, body);
      expect(r.status, p).toBe(409);
      expect(String(r.body.error)).toMatch(/room log is full/);
    }
    expect((await join(room, '127.0.0.1', room.host.code, 'newcomer')).status).toBe(409);
    expect((await room.lead.call('POST', '/api/lead/reveal', { item_id: 'demo-01' })).status).toBe(200);
    expect((await room.lead.call('POST', '/api/lead/close', {})).status).toBe(200);
  } finally {
    await room.close();
  }
});

// 3. Names: normalised, no invisible or text-direction characters, no look-alikes, never "lead".
for (const name of ['lead', 'Lead', 'LEAD', 'l\u0435ad', '\uff4c\uff45\uff41\uff44', 'L.E.A.D', 'IEAD', ' lead ']) {
  add(`a member cannot join as ${JSON.stringify(name)} (it reads as the lead)`, () =>
    inRoom(async (room) => {
      const r = await join(room, '127.0.0.1', room.host.code, name);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(String(r.body.error)).toMatch(/reads as "lead"/);
    }),
  );
}
for (const [what, name] of [
  ['a Cyrillic е', 'B\u0435n'],
  ['Cyrillic capitals', '\u0412\u0415N'],
  ['full-width letters', '\uff22\uff45\uff4e'],
  ['a Greek ο and a zero', 'B\u03bfb0'],
  ['a capital I for an l', 'BiII'],
] as const) {
  add(`a look-alike of a member present (${what}: ${JSON.stringify(name)}) is refused (409)`, () =>
    inRoom(async (room) => {
      await RoomClient.join(
        room.listener.url,
        room.host.code,
        what === 'a Greek ο and a zero' ? 'Bobo' : what === 'a capital I for an l' ? 'Bill' : 'Ben',
      );
      const r = await join(room, '127.0.0.1', room.host.code, name);
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(String(r.body.error)).toMatch(/looks like|already in the room/);
    }),
  );
}
for (const [what, name] of [
  ['a zero-width space', 'Ben\u200b'],
  ['a right-to-left override', '\u202Eneb'],
  ['a right-to-left isolate', 'ana\u2067x\u2069'],
  ['a soft hyphen', 'an\u00ada'],
  ['a C1 control', 'an\u0085a'],
] as const) {
  add(`a name with ${what} is refused (400), nothing logged`, () =>
    inRoom(async (room) => {
      const r = await join(room, '127.0.0.1', room.host.code, name);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(room.host.snapshot().members.size).toBe(0);
    }),
  );
}
add('a removed member cannot rejoin as a look-alike ("Bеn" after "Ben" was removed): 403', () =>
  inRoom(async (room) => {
    await RoomClient.join(room.listener.url, room.host.code, 'Ben');
    const id = [...room.host.snapshot().members.keys()][0]!;
    await room.host.remove(id);
    const r = await join(room, '127.0.0.1', room.host.code, 'B\u0435n');
    expect(r.status, JSON.stringify(r.body)).toBe(403);
  }),
);
add('a name is kept NFC: "Zoë" typed decomposed joins as the precomposed name, and the other form is the same name', () =>
  inRoom(async (room) => {
    const r = await join(room, '127.0.0.1', room.host.code, 'Zoe\u0308');
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('Zo\u00eb');
    expect((await join(room, '127.0.0.1', room.host.code, 'Zo\u00eb')).status).toBe(409);
  }),
);
add("the lead's messages are marked by the room (role lead), a member's by role member, whatever the names", () =>
  inRoom(async (room) => {
    const ana = await RoomClient.join(room.listener.url, room.host.code, 'ana');
    await ana.call('POST', '/api/chat', { text: 'from ana' });
    await room.lead.call('POST', '/api/chat', { text: 'from the lead' });
    const view = (await ana.call('GET', '/api/state?after=0')).body as unknown as { chat: Array<{ text: string; role?: string }> };
    expect(view.chat.map((c) => [c.text, c.role])).toEqual([
      ['from ana', 'member'],
      ['from the lead', 'lead'],
    ]);
  }),
);

// 5. Names the room accepts are names its write-back can store.
add('a name that could not be stored as the write-back session (20 CJK characters: over the file-name limit) is refused at the door', () =>
  inRoom(async (room) => {
    const r = await join(room, '127.0.0.1', room.host.code, '\u6f22'.repeat(20));
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(String(r.body.error)).toMatch(/too long to keep.*characters once encoded/);
    expect((await join(room, '127.0.0.1', room.host.code, '\u6f22'.repeat(15))).status).toBe(200);
  }),
);
add('every name a room accepts can be written back (1,000 seeded random names of letters, marks, spaces and invisibles)', () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const alphabet = [
    'a',
    'B',
    ' ',
    '.',
    '\u00e9',
    'e\u0301',
    '\u6f22',
    '\u0435',
    '\u200b',
    '\u202e',
    '\u00ad',
    '😀',
    '\u0000',
    '\u0085',
    '-',
    '%',
    '\ud800',
  ];
  const opened: RoomEventData['room_opened'] = {
    code: 'K7QX3M',
    project: 'p',
    mode: 'items',
    items: [{ id: 'a', text: 'A' }],
    labels: LABELS,
    level: 'nominal',
    max_members: 2000,
  };
  const state = foldRoom([{ v: 1, seq: 1, ts: 't', type: 'room_opened', data: opened }]);
  let accepted = 0;
  for (let i = 0; i < 1000; i++) {
    const name = Array.from({ length: 1 + Math.floor(rnd() * 40) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
    let data: RoomEventData['member_joined'];
    try {
      data = decideJoin(state, name, `m${i}`, 'h');
    } catch {
      continue;
    }
    accepted++;
    expect(() => sessionPaths('/p', `${data.name} (room K7QX3M)`), JSON.stringify(name)).not.toThrow();
  }
  expect(accepted).toBeGreaterThan(50);
});
add(
  'write-back never fails on a name: a log from before names were checked (U+200B, 20 CJK characters) is written back under safe names',
  async () => {
    const { project } = await freshProject();
    const code = 'K7QX3M';
    const paths = roomPaths(project.dir, code);
    await mkdir(paths.dir, { recursive: true });
    const events: RoomEvent[] = [
      {
        v: 1,
        seq: 1,
        ts: 't',
        type: 'room_opened',
        data: {
          code,
          project: project.config.name,
          mode: 'items',
          items: [{ id: 'demo-01', text: 't' }],
          labels: LABELS,
          level: 'nominal',
          max_members: 12,
        },
      },
      event(2, 'member_joined', { member_id: 'm1', name: 'Ana\u200b', token_sha256: 'a' }),
      event(3, 'member_joined', { member_id: 'm2', name: '\u6f22'.repeat(20), token_sha256: 'b' }),
      event(4, 'vote_cast', {
        member_id: 'm1',
        item_id: 'demo-01',
        label: 'Polite',
        blind: true,
        previous: null,
        majority_of_others: null,
      }),
      event(5, 'vote_cast', {
        member_id: 'm2',
        item_id: 'demo-01',
        label: 'Neutral',
        blind: true,
        previous: null,
        majority_of_others: null,
      }),
      event(6, 'room_closed', {}),
    ];
    await writeFile(paths.events, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    const run = await cli('room', 'writeback', code, '--project', project.dir, '--json');
    expect(run.code, run.err).toBe(0);
    expect(run.err).not.toMatch(/\n\s+at /);
    const { sessions } = JSON.parse(run.out) as { sessions: Array<{ member_id: string; annotator: string; labels: number }> };
    expect(sessions.map((s) => [s.member_id, s.labels])).toEqual([
      ['m1', 1],
      ['m2', 1],
    ]);
    for (const s of sessions) expect(() => sessionPaths(project.dir, s.annotator)).not.toThrow();
  },
);

// 6. Write-back is resumable: a run cut short is finished by the next, never doubled.
/** A closed room of a fresh project in which each member cast the given final votes; returns the project and the code. */
async function closedRoom(votes: Record<string, Record<string, string>>): Promise<{ project: OpenProject; code: string }> {
  const { project } = await freshProject();
  const room = await openRoomIn(project);
  for (const [name, ballots] of Object.entries(votes)) {
    const member = await RoomClient.join(room.listener.url, room.host.code, name);
    for (const [item, label] of Object.entries(ballots)) await member.vote(item, label);
  }
  await room.lead.call('POST', '/api/lead/close', {});
  await room.close();
  return { project, code: room.host.code };
}

/** A session of `annotator` holding these label acts, as a person (or a write-back cut short) would have left it. */
async function sessionWith(
  project: OpenProject,
  annotator: string,
  acts: Array<[item: string, label: string, source: 'room' | 'click']>,
): Promise<void> {
  const session = await SessionService.open({ project, annotator, items: await loadProjectItems(project) });
  for (const [item, label, source] of acts) {
    await session.openItem(item);
    await session.commitLabel(label, source);
  }
  await session.close();
}

add(
  'a write-back killed midway (one session half written, one folder with only .lock) is finished by the next run, each label once',
  async () => {
    const all = (label: string) => ({ 'demo-01': label, 'demo-02': label, 'demo-03': label });
    const { project, code } = await closedRoom({ ana: all('Polite'), ben: all('Impolite'), cai: all('Polite') });
    // what a kill leaves: ana's session with one of three labels, ben's folder with only a lock of a dead process
    await sessionWith(project, `ana (room ${code})`, [['demo-01', 'Polite', 'room']]);
    const ben = sessionPaths(project.dir, `ben (room ${code})`);
    await mkdir(ben.dir, { recursive: true });
    await writeFile(
      ben.lock,
      `${JSON.stringify({ pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), started_at: '2026-01-01T10:00:00.000Z' })}\n`,
    );

    const run = await cli('room', 'writeback', code, '--project', project.dir, '--json');
    expect(run.code, run.err).toBe(0);
    for (const n of ['ana', 'ben', 'cai']) {
      const { events } = await readSessionLog(sessionPaths(project.dir, `${n} (room ${code})`).events);
      const labels = events.filter((e) => e.type === 'label_committed').map((e) => (e.data as { item_id: string }).item_id);
      expect(labels, n).toEqual(['demo-01', 'demo-02', 'demo-03']);
    }
    const log = (await readFile(roomPaths(project.dir, code).events, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RoomEvent);
    expect(log.filter((e) => e.type === 'written_back')).toHaveLength(1);
    const again = await cli('room', 'writeback', code, '--project', project.dir);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/written back already/);
  },
);
add(
  "a session of the write-back's name that holds someone's own labels is never written into: refused before anything is written",
  async () => {
    const { project, code } = await closedRoom({ ana: { 'demo-01': 'Polite' }, ben: { 'demo-01': 'Neutral' } });
    await sessionWith(project, `ben (room ${code})`, [['demo-01', 'Impolite', 'click']]);
    const run = await cli('room', 'writeback', code, '--project', project.dir);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/exists already and holds more than this room's votes/);
    expect(
      await stat(sessionPaths(project.dir, `ana (room ${code})`).dir).then(
        () => true,
        () => false,
      ),
    ).toBe(false);
  },
);

async function openRoomIn(project: OpenProject): Promise<OpenRoom> {
  const items = await loadProjectItems(project);
  const host = await RoomHost.create(project.dir, {
    project: project.config.name,
    mode: 'items',
    items: items.slice(0, 3).map((i) => ({ id: i.id, text: i.text })),
    labels: LABELS,
    level: 'nominal',
    max_members: 12,
  });
  const listener = await startRoomListener(host);
  return {
    project,
    host,
    listener,
    lead: new RoomClient(listener.url, 'lead', host.leadToken),
    close: async () => (await listener.close(), await host.close().catch(() => undefined)),
  };
}

// 7. A client hanging up mid-body costs the lead's terminal one line at most.
add("clients hanging up mid-body print nothing like a stack trace on the lead's terminal (at most one line)", async () => {
  const { project } = await freshProject();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve('core/node/cli/bin.ts'), 'room', 'open', '--project', project.dir, '--items', 'demo-01', '--json'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  try {
    const info = await new Promise<{ url: string; port: number; code: string }>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
      });
      child.on('exit', (c) => reject(new Error(`room process exited (${c}): ${err}`)));
    });
    for (const target of ['/api/join', '/api/chat', '/api/vote']) {
      await new Promise<void>((resolve) => {
        const socket = connect(info.port, '127.0.0.1', () => {
          socket.write(
            `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1:${info.port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"code":"`,
          );
          setImmediate(() => socket.destroy());
        });
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
    }
    // the listener still answers, after it has seen every hang-up
    const after = await fetch(`${info.url}api/state`, { headers: { Authorization: `Bearer ${randomBytes(8).toString('hex')}` } });
    expect(after.status).toBe(403);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
  }
  expect(err.trim().split('\n').filter(Boolean).length, err).toBeLessThanOrEqual(1);
  expect(err).not.toMatch(/\n\s+at |Error: aborted/);
});

export const roomsGroup = hostileGroup<null>({
  surface: 'rooms',
  area: 'norming rooms: codes, tokens, names, chat, the log, write-back',
  setup: () => null,
  cases,
});
