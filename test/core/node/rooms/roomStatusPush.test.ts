import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadRoomStatus } from '../../../../core/common/rooms/roomViews';
import { initProject, loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { RoomController } from '../../../../core/node/rooms/roomController';
import { RoomClient } from './roomClient';

/** The lead's panel can be pushed the room's status on every change (members' votes included) instead of polling it. */
describe("a served room tells the app of every change (what the lead's panel follows)", () => {
  let controller: RoomController;
  const pushed: Array<LeadRoomStatus | null> = [];

  beforeAll(async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-room-push-')), 'p');
    await initProject(dir, { demo: true });
    const project = await loadProjectConfig(dir);
    controller = new RoomController(project, await loadProjectItems(project), () => pushed.push(controller.status()));
  });
  afterAll(() => controller?.shutdown());

  it("a member's join and vote each push the lead's status with the new view; closing pushes the closed room, then null", async () => {
    const opened = await controller.openRoom(['demo-01', 'demo-02'], false);
    expect(pushed).toEqual([]);
    const ana = await RoomClient.join(opened.url, opened.code, 'ana');
    await ana.vote('demo-01', 'Polite');
    expect(pushed.map((s) => s?.view.seq)).toEqual([opened.view.seq + 1, opened.view.seq + 2]);
    expect(pushed.at(-1)!.view.items.find((i) => i.item_id === 'demo-01')!.voted).toEqual(['ana']);
    // what is pushed is what the lead's panel would fetch (app.room()) at that moment
    expect(pushed.at(-1)).toEqual(controller.status());
    await controller.closeRoom();
    expect(pushed.at(-2)!.view.closed).toBe(true);
    expect(pushed.at(-1)).toBeNull();
    const count = pushed.length;
    await ana.vote('demo-02', 'Polite').catch(() => undefined);
    expect(pushed.length).toBe(count);
  });
});
