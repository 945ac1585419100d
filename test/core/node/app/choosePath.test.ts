import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PathKind } from '../../../../core/common/project/projectApi';
import { dispatchApiCall } from '../../../../core/node/app/apiDispatcher';
import { AppService } from '../../../../core/node/app/appService';
import { DEMO_PROJECT_DIR } from '../../../../core/node/project/projectFolder';

async function demo(): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-choose-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  return dir;
}

describe("choosePath: the desktop app's native dialog", () => {
  it("answers with what the shell's dialog picked (null when cancelled), per kind", async () => {
    const asked: PathKind[] = [];
    const app = await AppService.open({
      projectDir: await demo(),
      mode: 'electron',
      openEngine: null,
      choosePath: async (kind) => {
        asked.push(kind);
        return kind === 'items-file' ? null : '/picked/folder';
      },
    });
    try {
      expect(await app.choosePath('project-folder')).toBe('/picked/folder');
      expect(await app.choosePath('items-file')).toBeNull();
      expect(asked).toEqual(['project-folder', 'items-file']);
      // an unknown kind never reaches the shell
      expect(await dispatchApiCall(app, 'choosePath', ['/etc'])).toMatchObject({ ok: false, error: { code: 'bad_request' } });
      expect(asked).toHaveLength(2);
    } finally {
      await app.close();
    }
  });

  it('browser mode has no dialog and says to type the path', async () => {
    const app = await AppService.open({ projectDir: await demo(), mode: 'browser', openEngine: null });
    try {
      expect(await dispatchApiCall(app, 'choosePath', ['project-folder'])).toMatchObject({
        ok: false,
        error: { code: 'not_found', message: expect.stringContaining('type the full path') },
      });
    } finally {
      await app.close();
    }
  });
});
