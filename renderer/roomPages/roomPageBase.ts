/**
 * What the norming room's page and the shadow room's page share: who this tab is (the lead's or expert's token from
 * `#lead=` in the address, else the member's, kept by this browser as their rejoin key), the room's API, the join
 * form, and the lead's member list and Close button. The pure rules are exported apart from the DOM so they are
 * unit tested in Node.
 */
import { pageLocale, t } from './roomLanguage';

/** The tab's storage keys: `<storage>-lead`, `<storage>-token`, `<storage>-name`. */
export type RoomStorageName = 'aloud-room' | 'aloud-shadow';

/** The part of Web Storage the pages use (sessionStorage, localStorage, or a map in tests). */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** An answer of the room's API: the status, the JSON body ({} when none) and Retry-After in seconds (1 when absent). */
export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  data: T;
  retry: number;
}

export type RoomApi = <T = Record<string, unknown>>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<ApiAnswer<T>>;

/** The lead's (or expert's) token in the address's fragment (`#lead=…`), or null. */
export function leadTokenInHash(hash: string): string | null {
  if (!hash.startsWith('#lead=')) return null;
  try {
    return decodeURIComponent(hash.slice(6));
  } catch {
    return null;
  }
}

/**
 * Who this tab is in the room. A member's token is also their rejoin key: this tab keeps it (a reload stays in the
 * room) and the browser keeps it (localStorage) so a new tab offers to come back under their name — offers, as one
 * browser may serve two people.
 */
export class RoomIdentity {
  token: string | null;
  readonly lead: string | null;

  constructor(
    private readonly storage: RoomStorageName,
    private readonly tab: KeyValueStore,
    private readonly browser: KeyValueStore,
    hash: string,
  ) {
    const fromHash = leadTokenInHash(hash);
    if (fromHash !== null) tab.setItem(`${storage}-lead`, fromHash);
    this.lead = fromHash ?? tab.getItem(`${storage}-lead`);
    this.token = this.lead ?? tab.getItem(`${storage}-token`);
  }

  keepMemberToken(token: string, name: string | null): void {
    this.token = token;
    this.tab.setItem(`${this.storage}-token`, token);
    this.browser.setItem(`${this.storage}-token`, token);
    if (name) this.browser.setItem(`${this.storage}-name`, name);
  }

  /** The room refused this tab's token: the tab forgets it, and the browser too when it kept the same one. */
  forgetTokens(): void {
    if (this.browser.getItem(`${this.storage}-token`) === this.token) {
      this.browser.removeItem(`${this.storage}-token`);
      this.browser.removeItem(`${this.storage}-name`);
    }
    this.tab.removeItem(`${this.storage}-token`);
    this.tab.removeItem(`${this.storage}-lead`);
  }

  /** The member this browser kept, to offer "Come back as NAME" — only in a tab that is nobody yet. */
  keptMember(): { token: string; name: string } | null {
    const token = this.browser.getItem(`${this.storage}-token`);
    const name = this.browser.getItem(`${this.storage}-name`);
    return this.token || !token || !name ? null : { token, name };
  }

  /** The key shown to a member once in the room (never to the lead). */
  rejoinKey(): string | null {
    return this.lead ? null : this.token;
  }
}

/**
 * The room's API over fetch: the viewer's token as a bearer, JSON both ways, nothing cached, and the page's language
 * as the one asked for, so a refusal comes back in the words of the page around it.
 */
export function roomApi(token: () => string | null, fetchFn: typeof fetch = (...args) => fetch(...args)): RoomApi {
  return async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer<T>> => {
    const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': pageLocale() };
    const t = token();
    if (t) headers.Authorization = `Bearer ${t}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const r = await fetchFn(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    const data = (await r.json().catch(() => ({}))) as T;
    return { status: r.status, data, retry: Number(r.headers.get('Retry-After') || '1') };
  };
}

/** What the state answer says of a typed rejoin key: a member comes back under their name; anything else is refused in words. */
export function rejoinVerdict(
  answer: ApiAnswer<{ me?: { role: string; name?: string } }>,
): { ok: true; name: string | null } | { ok: false; error: string } {
  const me = answer.data.me;
  if (answer.status === 200 && me && me.role !== 'lead' && me.role !== 'expert') return { ok: true, name: me.name ?? null };
  return {
    ok: false,
    error: answer.status === 200 ? t('room.join.keyIsLead') : t('room.join.keyUnknown'),
  };
}

/**
 * What a refusal of the room's API says to the person: its `message` (the room's words in the page's language, which
 * the API was asked for), else its English `error`, else nothing.
 */
export function refusalText(data: unknown): string | null {
  const answer = (typeof data === 'object' && data !== null ? data : {}) as { message?: unknown; error?: unknown };
  if (typeof answer.message === 'string' && answer.message !== '') return answer.message;
  if (typeof answer.error === 'string' && answer.error !== '') return answer.error;
  return null;
}

/** Why a join was refused, in words; a taken name (409) points at the rejoin key. */
export function joinErrorText(status: number, error: unknown): string {
  const said = typeof error === 'string' && error !== '' ? error : t('room.join.failed', { status });
  return status === 409 ? t('room.join.nameTaken', { said }) : said;
}

/** Four state requests a second at most: under the listener's budget per member token (5 a second). */
export const FOLLOW_GAP_MS = 250;

/** The answer's delay before following again: what a 429 asks, else `ok` after a 200, else `otherwise`, in ms. */
export function followDelay(answer: { status: number; retry: number }, ok: number, otherwise: number): number {
  if (answer.status === 429) return answer.retry * 1000;
  return answer.status === 200 ? ok : otherwise;
}

/** A page element by id (the page's HTML holds every id the script uses). */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the room page has no #${id}`); // i18n-ignore: a page built wrong, never shown
  return found as T;
}

/** An element with its text set as text (never as HTML) and a class. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: unknown, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

export function button(text: string, cls: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', text, cls);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

/** The page's shared parts: its identity, API and join form, given what the page does after a write (`send`). */
export class RoomPageShell {
  readonly identity: RoomIdentity;
  readonly api: RoomApi;

  constructor(
    storage: RoomStorageName,
    private readonly send: (path: string, body: unknown) => Promise<unknown>,
  ) {
    this.identity = new RoomIdentity(storage, sessionStorage, localStorage, location.hash);
    // the lead's token leaves the address bar (and the history entry) as soon as it is read
    if (leadTokenInHash(location.hash) !== null) history.replaceState(null, '', location.pathname + location.search);
    this.api = roomApi(() => this.identity.token);
  }

  /** The join form: the code from the address, Join, and "Come back as NAME" for a member this browser kept. */
  wireJoinForm(onEntered: () => void): void {
    $<HTMLInputElement>('join-code').value = new URLSearchParams(location.search).get('code') ?? '';
    $('join-button').addEventListener('click', () => void this.joinOrRejoin(onEntered));
    const kept = this.identity.keptMember();
    const comeBack = $<HTMLButtonElement>('come-back');
    if (!kept) return;
    comeBack.hidden = false;
    comeBack.textContent = t('room.join.comeBack', { name: kept.name });
    comeBack.addEventListener('click', () => {
      $<HTMLInputElement>('join-key').value = kept.token;
      void this.joinOrRejoin(onEntered);
    });
  }

  /**
   * With a rejoin key, the member it belongs to comes back (the host knows them by it; no new member); without, a new
   * member joins under the name given.
   */
  async joinOrRejoin(onEntered: () => void): Promise<void> {
    const key = $<HTMLInputElement>('join-key').value.trim();
    if (key) {
      const before = this.identity.token;
      this.identity.token = key;
      const verdict = rejoinVerdict(await this.api<{ me?: { role: string; name?: string } }>('GET', '/api/state'));
      if (verdict.ok) {
        this.identity.keepMemberToken(key, verdict.name);
        onEntered();
        return;
      }
      this.identity.token = before;
      $('join-error').textContent = verdict.error;
      return;
    }
    const r = await this.api<{ token?: string; name?: string }>('POST', '/api/join', {
      code: $<HTMLInputElement>('join-code').value,
      name: $<HTMLInputElement>('join-name').value,
    });
    if (r.status !== 200 || typeof r.data.token !== 'string') {
      $('join-error').textContent = joinErrorText(r.status, refusalText(r.data));
      return;
    }
    this.identity.keepMemberToken(r.data.token, r.data.name ?? null);
    onEntered();
  }

  /** The member's rejoin key, shown once in the room: typed in another browser it brings them back as themselves. */
  showRejoinKey(): void {
    const key = this.identity.rejoinKey();
    if (!key) return;
    $('rejoin').hidden = false;
    $('rejoin-key').textContent = key;
  }

  /** The lead's list of members, each with a Remove button that asks first. */
  memberList(members: ReadonlyArray<{ name: string; member_id?: string }>): HTMLUListElement {
    const list = el('ul');
    for (const m of members) {
      const li = el('li', `${m.name} `);
      li.appendChild(
        button(t('room.lead.remove'), 'remove', () => {
          if (confirm(t('room.lead.remove.confirm', { name: m.name }))) void this.send('/api/lead/remove', { member_id: m.member_id });
        }),
      );
      list.appendChild(li);
    }
    return list;
  }

  /** The lead's Close button, which asks first (none once the room is closed). */
  closeRoomButton(box: HTMLElement, closed: boolean): void {
    if (closed) return;
    box.appendChild(
      button(t('room.close'), 'close-room', () => {
        if (confirm(t('room.close.confirm'))) void this.send('/api/lead/close', {});
      }),
    );
  }
}

/**
 * Follows the room: asks for the view after the last seq seen, renders what changed, and asks again after
 * `delay(answer)`; one request at a time — a follow asked for while one is in flight runs right after it. A 401/403
 * stops it (the member was removed, or the token is gone); a closed room stops it after its last view.
 */
export class RoomFollower<V extends { seq: number; closed: boolean }> {
  private seq = 0;
  private stopped = false;
  private inflight = false;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private startedAt = 0;

  constructor(
    private readonly options: {
      api: RoomApi;
      /** the state request's path after a seq */
      path: (seq: number) => string;
      /** how long to wait before the next request after an answer (ms) */
      delay: (answer: ApiAnswer) => number;
      render: (view: V) => void;
      /** the room refused the viewer (the error in words, when it gave one) */
      gone: (error: string | null) => void;
      unreachable: () => void;
      /** asked after each new view: true to ask again at once from seq 0 (more than one answer holds) */
      more?: (view: V) => boolean;
      closed?: () => void;
      /**
       * the least time from one request's start to the next after an answer (ms): a burst of changes (a long chat, her
       * partial transcripts) is followed a few times a second, within the listener's budget per token, not once per change
       */
      minGapMs?: number;
      now?: () => number;
      setTimer?: (run: () => void, ms: number) => ReturnType<typeof setTimeout>;
      clearTimer?: (timer: ReturnType<typeof setTimeout> | undefined) => void;
    },
  ) {}

  get lastSeq(): number {
    return this.seq;
  }

  /** Follows now (or right after the request in flight). */
  follow(): void {
    if (this.stopped) return;
    (this.options.clearTimer ?? clearTimeout)(this.timer);
    if (this.inflight) {
      this.again = true;
      return;
    }
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    (this.options.clearTimer ?? clearTimeout)(this.timer);
  }

  private later(ms: number): void {
    this.timer = (this.options.setTimer ?? setTimeout)(() => void this.run(), ms);
  }

  private async run(): Promise<void> {
    if (this.stopped) return;
    this.inflight = true;
    this.startedAt = (this.options.now ?? Date.now)();
    let r: ApiAnswer;
    try {
      r = await this.options.api('GET', this.options.path(this.seq));
    } catch {
      this.inflight = false;
      this.options.unreachable();
      this.later(2000);
      return;
    }
    this.inflight = false;
    if (r.status === 401 || r.status === 403) {
      this.stopped = true;
      this.options.gone(refusalText(r.data));
      return;
    }
    if (r.status === 200 && r.data.unchanged !== true) {
      const view = r.data as unknown as V;
      this.seq = view.seq;
      this.options.render(view);
      // a closed room changes no more: nothing left to ask
      if (view.closed) {
        this.stopped = true;
        this.options.closed?.();
        return;
      }
      if (this.options.more?.(view)) {
        this.seq = 0;
        this.again = true;
      }
    }
    if (this.again) {
      this.again = false;
      this.later(Math.max(0, (this.options.minGapMs ?? 0) - ((this.options.now ?? Date.now)() - this.startedAt)));
      return;
    }
    const sinceStart = (this.options.now ?? Date.now)() - this.startedAt;
    this.later(Math.max(this.options.delay(r), (this.options.minGapMs ?? 0) - sinceStart));
  }
}
