import { cp, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AloudEvent } from '../../../../core/common/contract/aloudApi';
import { AppService } from '../../../../core/node/app/appService';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { recordSession } from '../export/recordSession';

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
      // the same summary as facts, for the app to say in the person's language
      expect(summary.facts.records).toBe(summary.records);
      expect(Object.values(summary.facts.gaps).reduce((a, b) => a + b, 0)).toBe(summary.gaps);
      expect(summary.facts.interop).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it("exports a folder for ELAN from the Export menu, with progress to the end and the receipt's sha256", async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-export-interop-')), 'proj');
    await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
    await recordSession(await loadProjectConfig(dir), 'ana', [{ id: 'demo-01', said: [' Hmm, well.', ' I label this polite.'] }]);
    const app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null });
    const progress: Array<{ done: number; total: number }> = [];
    app.subscribe((event: AloudEvent) => {
      if (event.type === 'export_progress') progress.push({ done: event.done, total: event.total });
    });
    try {
      await app.openSession('ana');
      const summary = await app.exportProject('eaf', null);
      expect(summary.summary).toBe('1 recording of 1 annotator in 2 files; 19 records without audio not in them');
      expect(summary.facts).toMatchObject({ records: 20, interop: { recordings: 1, annotators: 1, files: 2 } });
      expect(path.basename(summary.file)).toMatch(/^all-annotators-.*-eaf$/);
      expect((await readdir(path.join(summary.file, 'ana'))).sort()).toEqual(['demo-01.eaf', 'demo-01.wav']);
      expect(path.basename(summary.receipt)).toBe('eaf.receipt.json');
      expect(summary.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
      expect(progress.at(-1)!.done).toBe(progress.at(-1)!.total);
    } finally {
      await app.close();
    }
  });
});
