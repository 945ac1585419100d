import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AloudEvent } from '../../../../core/common/contract/aloudApi';
import { AppService } from '../../../../core/node/app/appService';
import { DEMO_PROJECT_DIR } from '../../../../core/node/project/projectFolder';

describe('export from the app', () => {
  it('reports progress as records are built, ending at all of them, and sums up the gaps in words', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-export-progress-')), 'proj');
    await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
    const app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null });
    const progress: Array<{ done: number; total: number }> = [];
    app.subscribe((event: AloudEvent) => {
      if (event.type === 'export_progress') progress.push({ done: event.done, total: event.total });
    });
    try {
      for (const annotator of ['ana', 'bo']) {
        await app.openSession(annotator);
        await app.openItem('demo-01');
        await app.commitLabel('Polite', 'key');
      }
      const summary = await app.exportProject('jsonl', null);
      const items = (await app.project()).items.length;
      expect(summary.records).toBe(2 * items);
      expect(progress.length).toBeGreaterThan(2);
      expect(progress.every((p) => p.total === 2 * items)).toBe(true);
      expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
      expect(progress.at(-1)).toEqual({ done: 2 * items, total: 2 * items });
      expect(summary.summary).toMatch(/^\d+ records; /);
    } finally {
      await app.close();
    }
  });
});
