import { expect } from 'vitest';
import type { ShadowView } from '../../../../core/common/rooms/shadowViews';
import { type Answer, RoomApiClient } from './roomClient';

/** A simulated trainee (or the expert, with her token) of a shadow room: keeps every answer, to check what leaked. */
export class ShadowClient extends RoomApiClient {
  /** The full view (after=0), as a newly opened page gets it. */
  async view(): Promise<ShadowView> {
    const r = await this.call('GET', '/api/state?after=0');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as unknown as ShadowView;
  }

  /** Polls with the cursor, as the page does (held until the room changes): the new view, or null when unchanged. */
  async poll(): Promise<ShadowView | null> {
    const r = await this.call('GET', `/api/state?after=${this.seq}&wait=1`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    this.seq = r.body.seq as number;
    return r.body.unchanged ? null : (r.body as unknown as ShadowView);
  }

  /** Polls until the view satisfies `ready` (each poll waits for a change, so this never spins). */
  async until(ready: (view: ShadowView) => boolean, what: string, ms = 20_000): Promise<ShadowView> {
    const end = Date.now() + ms;
    let last: ShadowView | null = this.seq === 0 ? null : await this.view();
    while (Date.now() < end) {
      if (last && ready(last)) return last;
      last = (await this.poll()) ?? last;
    }
    throw new Error(`${this.name}: the room never showed ${what}; last view: ${JSON.stringify(last?.current ?? null)}`);
  }

  async practise(itemId: string, label: string | null): Promise<Answer> {
    return this.call('POST', '/api/practice', { item_id: itemId, label });
  }
}
