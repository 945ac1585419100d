import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AloudEvent } from '../../../../core/common/contract/aloudApi';
import { Refusal } from '../../../../core/common/refusal/refusal';
import { AppService } from '../../../../core/node/app/appService';
import { packSession } from '../../../../core/node/packs/sessionPack';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { recordSession } from '../export/recordSession';

describe('Project → Collect… in the app', () => {
  it('collects a pack with progress events, lists the annotator, and refuses a pack of another project with a conflict', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'aloud-collect-'));
    const leadDir = path.join(root, 'lead');
    const laptopDir = path.join(root, 'laptop');
    await cp(DEMO_PROJECT_DIR, leadDir, { recursive: true });
    await cp(DEMO_PROJECT_DIR, laptopDir, { recursive: true });
    const laptop = await loadProjectConfig(laptopDir);
    await recordSession(laptop, 'ana', [
      { id: 'demo-01', said: [' I label this polite.'], complete: true },
      { id: 'demo-02', click: 'Neutral' },
    ]);
    const file = path.join(root, 'ana.aloudpack');
    await packSession({ project: laptop, annotator: 'ana', out: file });

    const app = await AppService.open({ projectDir: leadDir, mode: 'browser', openEngine: null });
    const progress: Array<{ done: number; total: number }> = [];
    app.subscribe((event: AloudEvent) => {
      if (event.type === 'collect_progress') progress.push({ done: event.done, total: event.total });
    });
    try {
      const summary = await app.collectPack(file);
      expect(summary).toMatchObject({ annotator: 'ana', status: 'added', audio_files: 1 });
      expect(summary.appended).toBe(summary.events);
      expect(await app.annotators()).toEqual(['ana']);
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.at(-1)!.done).toBe(progress.at(-1)!.total);
      expect(await app.collectPack(file)).toMatchObject({ status: 'unchanged', appended: 0 });

      const otherDir = path.join(root, 'other');
      await cp(DEMO_PROJECT_DIR, otherDir, { recursive: true });
      const other = await loadProjectConfig(otherDir);
      const bob = path.join(root, 'bob.aloudpack');
      await recordSession(other, 'bob', [{ id: 'demo-01', click: 'Polite' }]);
      await packSession({ project: { ...other, config: { ...other.config, name: 'someone-else' } }, annotator: 'bob', out: bob });
      const refused = await app.collectPack(bob).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Refusal);
      expect(refused).toMatchObject({ code: 'conflict' });
      expect((refused as Error).message).toMatch(
        /it is a pack of project "someone-else", this project is "politeness-demo"; nothing was unpacked/,
      );
      expect(await app.annotators()).toEqual(['ana']);
    } finally {
      await app.close();
    }
  });
});
