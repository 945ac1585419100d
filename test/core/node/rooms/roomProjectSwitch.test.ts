import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppService } from '../../../../core/node/app/appService';
import { cli } from '../../../helpers/cli';

describe('a norming room belongs to its project', () => {
  it('opening another project closes the room; the next room is in the new project', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'aloud-room-switch-'));
    const [a, b] = [path.join(root, 'a'), path.join(root, 'b')];
    for (const dir of [a, b]) expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    const app = await AppService.open({ projectDir: a, mode: 'browser', openEngine: null });
    try {
      const first = await app.openRoom(['demo-01'], false);
      expect(existsSync(path.join(a, 'rooms', first.code, 'events.jsonl'))).toBe(true);
      await app.openProject(b);
      expect(await app.room()).toBeNull();
      const second = await app.openRoom(['demo-02'], false);
      expect(existsSync(path.join(b, 'rooms', second.code, 'events.jsonl'))).toBe(true);
      expect(existsSync(path.join(a, 'rooms', second.code))).toBe(false);
    } finally {
      await app.close();
    }
  });
});
