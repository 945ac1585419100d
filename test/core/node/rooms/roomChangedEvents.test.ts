import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShadowRoomStatus } from '../../../../core/common/rooms/shadowViews';
import { AppService } from '../../../../core/node/app/appService';
import { initProject } from '../../../../core/node/project/projectFolder';
import { ShadowClient } from './shadowClient';

/** The expert's shadow room panel follows room_changed: trainees coming and going, her audio shared, the room closing. */
describe("a shadow room tells the expert's page what her panel shows", () => {
  let app: AppService;

  beforeAll(async () => {
    const projectDir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-shadow-events-')), 'p');
    await initProject(projectDir, { demo: true });
    app = await AppService.open({ projectDir, mode: 'browser', openEngine: null });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('a trainee joining, audio shared and the room closing are heard; her own feed is not', async () => {
    await app.openSession('ana');
    const status: ShadowRoomStatus = await app.openShadowRoom(false);
    const heard: string[] = [];
    /** what the expert's page reads on each event */
    const reads: Array<ReturnType<AppService['shadowRoom']>> = [];
    const stop = app.subscribe((event) => {
      if (event.type !== 'room_changed') return;
      heard.push(event.room);
      reads.push(app.shadowRoom());
    });
    try {
      // her own acts feed the room (the item she opens) without an event: the panel does not show them
      await app.openItem('demo-02');
      expect(heard).toEqual([]);
      await ShadowClient.join(status.url, status.code, 'ben');
      expect(heard).toEqual(['shadow']);
      expect((await reads[0])!.view.trainees.map((t) => t.name)).toEqual(['ben']);
      await app.shareShadowAudio(true);
      expect(heard).toEqual(['shadow', 'shadow']);
      expect((await reads[1])!.view.audio_shared).toBe(true);
      await app.closeShadowRoom();
      // the last event comes once the room is no longer served: the read it starts finds no room
      expect(await reads.at(-1)).toBeNull();
    } finally {
      stop();
    }
  });
});
