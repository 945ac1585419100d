import { expect } from 'vitest';
import type { RoomView } from '../../../../core/common/rooms/roomViews';

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T & { error?: string };
  headers: Headers;
}

export async function request(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Type'] ??= 'application/json';
  const res = await fetch(new URL(path, base), {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: res.status, body, headers: res.headers };
}

/** A client of a room listener (norming or shadow): joins with the code, calls with its token, keeps every answer. */
export class RoomApiClient {
  readonly answers: Answer[] = [];
  seq = 0;

  constructor(
    public base: string,
    readonly name: string,
    public token = '',
  ) {}

  static async join<T extends RoomApiClient>(
    this: new (base: string, name: string) => T,
    base: string,
    code: string,
    name: string,
  ): Promise<T> {
    const client = new this(base, name);
    const r = await client.call('POST', '/api/join', { code, name });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    client.token = r.body.token as string;
    return client;
  }

  async call(method: string, path: string, body?: unknown): Promise<Answer> {
    const r = await request(this.base, method, path, { token: this.token, ...(body !== undefined ? { body } : {}) });
    this.answers.push(r);
    return r;
  }
}

/** A simulated member (or the lead, with the lead token): keeps every answer it got, to check what leaked. */
export class RoomClient extends RoomApiClient {
  async vote(item_id: string, label: string): Promise<void> {
    const r = await this.call('POST', '/api/vote', { item_id, label });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }

  /** The full view (after=0), as a newly opened page gets it. */
  async view(): Promise<RoomView> {
    const r = await this.call('GET', '/api/state?after=0');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as unknown as RoomView;
  }

  /** Polls with the cursor, as the page does: unchanged answers carry no view. */
  async poll(): Promise<Answer> {
    const r = await this.call('GET', `/api/state?after=${this.seq}`);
    if (r.status === 200) this.seq = r.body.seq as number;
    return r;
  }
}
