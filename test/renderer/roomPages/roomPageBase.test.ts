import { describe, expect, it } from 'vitest';
import {
  type ApiAnswer,
  followDelay,
  joinErrorText,
  type KeyValueStore,
  leadTokenInHash,
  rejoinVerdict,
  RoomFollower,
  refusalText,
  RoomIdentity,
  roomApi,
  type RoomApi,
} from '../../../renderer/roomPages/roomPageBase';
import { setRoomLanguage } from '../../../renderer/roomPages/roomLanguage';

function store(): KeyValueStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

describe("a room page's identity (lead link, member token, rejoin key)", () => {
  it('reads the lead token from #lead= (decoded) and nothing else', () => {
    expect(leadTokenInHash('#lead=ab%2Fc')).toBe('ab/c');
    expect(leadTokenInHash('#leader=x')).toBeNull();
    expect(leadTokenInHash('')).toBeNull();
    expect(leadTokenInHash('#lead=%E0%A4%A')).toBeNull();
  });

  it("the lead's tab keeps leading after a reload (tab storage), and is never offered a rejoin key", () => {
    const tab = store();
    const browser = store();
    const first = new RoomIdentity('aloud-room', tab, browser, '#lead=LEADTOKEN');
    expect(first.token).toBe('LEADTOKEN');
    const reloaded = new RoomIdentity('aloud-room', tab, browser, '');
    expect(reloaded.lead).toBe('LEADTOKEN');
    expect(reloaded.token).toBe('LEADTOKEN');
    expect(reloaded.rejoinKey()).toBeNull();
    expect(browser.map.size).toBe(0);
  });

  it("a member's token is kept by the tab and the browser; a new tab is offered to come back, a member's tab is not", () => {
    const browser = store();
    const ana = new RoomIdentity('aloud-shadow', store(), browser, '');
    expect(ana.token).toBeNull();
    ana.keepMemberToken('T-ana', 'ana');
    expect(ana.rejoinKey()).toBe('T-ana');
    expect(ana.keptMember()).toBeNull();
    const newTab = new RoomIdentity('aloud-shadow', store(), browser, '');
    expect(newTab.keptMember()).toEqual({ token: 'T-ana', name: 'ana' });
    // the norming room's keys are apart from the shadow room's
    expect(new RoomIdentity('aloud-room', store(), browser, '').keptMember()).toBeNull();
  });

  it("forgetting a refused token clears the browser's key only when it is that same token", () => {
    const browser = store();
    const ana = new RoomIdentity('aloud-room', store(), browser, '');
    ana.keepMemberToken('T-ana', 'ana');
    const ben = new RoomIdentity('aloud-room', store(), browser, '');
    ben.keepMemberToken('T-ben', 'ben');
    ana.forgetTokens();
    expect(browser.map.get('aloud-room-token')).toBe('T-ben');
    ben.forgetTokens();
    expect(browser.map.has('aloud-room-token')).toBe(false);
    expect(browser.map.has('aloud-room-name')).toBe(false);
  });
});

describe("a room page's API and join form", () => {
  it('sends the bearer token and JSON, reads JSON (or {}) and Retry-After', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    const answers = [
      new Response('{"seq":3}', { status: 200 }),
      new Response('not json', { status: 429, headers: { 'Retry-After': '7' } }),
    ];
    let token: string | null = 'TOKEN';
    const api = roomApi(
      () => token,
      async (url, init) => {
        seen.push({ url: String(url), init: init! });
        return answers.shift()!;
      },
    );
    expect(await api('POST', '/api/vote', { item_id: 'r1', label: 'Polite' })).toEqual({ status: 200, data: { seq: 3 }, retry: 1 });
    expect(seen[0]!.init.headers).toEqual({
      Accept: 'application/json',
      'Accept-Language': 'en',
      Authorization: 'Bearer TOKEN',
      'Content-Type': 'application/json',
    });
    expect(seen[0]!.init.body).toBe('{"item_id":"r1","label":"Polite"}');
    token = null;
    expect(await api('GET', '/api/state')).toEqual({ status: 429, data: {}, retry: 7 });
    expect(seen[1]!.init.headers).toEqual({ Accept: 'application/json', 'Accept-Language': 'en' });
    expect(seen[1]!.init.body).toBeUndefined();
  });

  it("asks the room for its words in the page's language", async () => {
    const seen: RequestInit[] = [];
    const api = roomApi(
      () => null,
      async (_url, init) => {
        seen.push(init!);
        return new Response('{}', { status: 200 });
      },
    );
    setRoomLanguage('de');
    try {
      await api('GET', '/api/state');
    } finally {
      setRoomLanguage('en');
    }
    expect(seen[0]!.headers).toEqual({ Accept: 'application/json', 'Accept-Language': 'de' });
  });

  it("shows a refusal's words in the page's language (message), else its English (error), else nothing", () => {
    expect(refusalText({ error: 'wrong room code', message: 'Falscher Raumcode' })).toBe('Falscher Raumcode');
    expect(refusalText({ error: 'wrong room code' })).toBe('wrong room code');
    expect(refusalText({ error: '', message: '' })).toBeNull();
    expect(refusalText({})).toBeNull();
    expect(refusalText(null)).toBeNull();
  });

  it('a rejoin key brings back a member, never the lead or expert; a refused key says why', () => {
    expect(rejoinVerdict({ status: 200, data: { me: { role: 'member', name: 'ana' } }, retry: 1 })).toEqual({ ok: true, name: 'ana' });
    expect(rejoinVerdict({ status: 200, data: { me: { role: 'trainee', name: 'cy' } }, retry: 1 })).toEqual({ ok: true, name: 'cy' });
    for (const role of ['lead', 'expert'])
      expect(rejoinVerdict({ status: 200, data: { me: { role } }, retry: 1 })).toEqual({
        ok: false,
        error: 'that key is the lead’s, not a member’s',
      });
    expect(rejoinVerdict({ status: 403, data: {}, retry: 1 })).toMatchObject({
      ok: false,
      error: expect.stringContaining('not one of this room’s members'),
    });
  });

  it('a refused join says what the room said, and points a taken name at the rejoin key', () => {
    expect(joinErrorText(403, 'wrong room code')).toBe('wrong room code');
    expect(joinErrorText(500, undefined)).toBe('could not join (500)');
    expect(joinErrorText(409, 'the name ana is taken')).toBe(
      'the name ana is taken — if that is you, type the rejoin key you were shown when you joined.',
    );
  });

  it('waits what a 429 asks, else the delay of a 200 or of anything else', () => {
    expect(followDelay({ status: 429, retry: 4 }, 0, 1000)).toBe(4000);
    expect(followDelay({ status: 200, retry: 1 }, 0, 1000)).toBe(0);
    expect(followDelay({ status: 503, retry: 1 }, 0, 1000)).toBe(1000);
  });
});

/** A follower over scripted answers, with a clock and timers the test moves by hand. */
function harness(script: Array<ApiAnswer | Error>, minGapMs = 0, takesMs: number[] = []) {
  const paths: string[] = [];
  const rendered: number[] = [];
  const events: string[] = [];
  let clock = 0;
  let pending: { run: () => void; at: number } | null = null;
  const api: RoomApi = async <T>(_method: 'GET' | 'POST', path: string) => {
    paths.push(path);
    clock += takesMs.shift() ?? 0;
    const next = script.shift();
    if (!next) return new Promise<ApiAnswer<T>>(() => undefined);
    if (next instanceof Error) throw next;
    return next as ApiAnswer<T>;
  };
  const follower = new RoomFollower<{ seq: number; closed: boolean; more?: boolean }>({
    api,
    path: (seq) => `/api/state?after=${seq}`,
    delay: (r) => followDelay(r, 0, 1000),
    render: (view) => rendered.push(view.seq),
    more: (view) => view.more === true,
    gone: (error) => events.push(`gone: ${error}`),
    unreachable: () => events.push('unreachable'),
    closed: () => events.push('closed'),
    minGapMs,
    now: () => clock,
    setTimer: (run, ms) => {
      pending = { run, at: clock + ms };
      return 0 as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimer: () => {
      pending = null;
    },
  });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return {
    follower,
    paths,
    rendered,
    events,
    settle,
    /** runs the timer the follower set; returns its delay from when it was set */
    async fire(): Promise<number | null> {
      const p = pending;
      if (!p) return null;
      pending = null;
      const wait = p.at - clock;
      clock = p.at;
      p.run();
      await settle();
      return wait;
    },
  };
}

const view = (seq: number, extra: Record<string, unknown> = {}): ApiAnswer => ({
  status: 200,
  data: { seq, closed: false, ...extra },
  retry: 1,
});

describe('following a room (the same for both member pages)', () => {
  it('asks after the last seq seen, renders only changed views, and asks again at once after an answer', async () => {
    const h = harness([view(3), { status: 200, data: { seq: 3, unchanged: true }, retry: 1 }, view(5)]);
    h.follower.follow();
    await h.settle();
    expect(await h.fire()).toBe(0);
    expect(await h.fire()).toBe(0);
    expect(h.paths).toEqual(['/api/state?after=0', '/api/state?after=3', '/api/state?after=3']);
    expect(h.rendered).toEqual([3, 5]);
  });

  it('keeps the least gap between requests after a burst of changes, and none after a long wait', async () => {
    // the first two answers come at once (changes in a burst), the third after waiting 10 s for a change
    const h = harness([view(1), view(2), view(3), view(4)], 250, [0, 100, 10_000]);
    h.follower.follow();
    await h.settle();
    expect(await h.fire()).toBe(250);
    expect(await h.fire()).toBe(150);
    expect(await h.fire()).toBe(0);
    expect(h.rendered).toEqual([1, 2, 3, 4]);
  });

  it('a 429 waits its Retry-After; an unreachable host is asked again after 2 s from the same seq', async () => {
    const h = harness([view(4), { status: 429, data: {}, retry: 3 }, new Error('offline'), view(6)]);
    h.follower.follow();
    await h.settle();
    await h.fire();
    expect(await h.fire()).toBe(3000);
    expect(h.events).toEqual(['unreachable']);
    expect(await h.fire()).toBe(2000);
    expect(h.paths.slice(1)).toEqual(['/api/state?after=4', '/api/state?after=4', '/api/state?after=4']);
    expect(h.rendered).toEqual([4, 6]);
  });

  it('a refused viewer (403) stops following and hears why; a closed room stops after its last view', async () => {
    const refused = harness([
      view(2),
      {
        status: 403,
        data: {
          error: 'this token is not (or no longer) a member of the room',
          message: 'Dieser Schlüssel gehört keinem Mitglied des Raums (mehr)',
        },
        retry: 1,
      },
    ]);
    refused.follower.follow();
    await refused.settle();
    expect(await refused.fire()).toBe(0);
    expect(refused.events).toEqual(['gone: Dieser Schlüssel gehört keinem Mitglied des Raums (mehr)']);
    expect(await refused.fire()).toBeNull();

    const closed = harness([{ status: 200, data: { seq: 9, closed: true }, retry: 1 }]);
    closed.follower.follow();
    await closed.settle();
    expect(closed.rendered).toEqual([9]);
    expect(closed.events).toEqual(['closed']);
    expect(await closed.fire()).toBeNull();
  });

  it('more than one answer holds (a long chat): asks again from seq 0', async () => {
    const h = harness([view(300, { more: true }), view(300)]);
    h.follower.follow();
    await h.settle();
    await h.fire();
    expect(h.paths).toEqual(['/api/state?after=0', '/api/state?after=0']);
  });

  it('a follow asked for while a request is in flight runs once, right after it', async () => {
    let release: (a: ApiAnswer) => void = () => undefined;
    const paths: string[] = [];
    const follower = new RoomFollower<{ seq: number; closed: boolean }>({
      api: (async (_m: string, path: string) => {
        paths.push(path);
        return paths.length === 1 ? new Promise<ApiAnswer>((r) => (release = r)) : new Promise<ApiAnswer>(() => undefined);
      }) as RoomApi,
      path: (seq) => `after=${seq}`,
      delay: () => 60_000,
      render: () => undefined,
      gone: () => undefined,
      unreachable: () => undefined,
    });
    follower.follow();
    follower.follow();
    follower.follow();
    expect(paths).toEqual(['after=0']);
    release(view(2));
    await expect.poll(() => paths).toEqual(['after=0', 'after=2']);
    follower.stop();
  });
});
