import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AloudEvent } from '../../../../core/common/contract/aloudApi';
import { Refusal as ApiError } from '../../../../core/common/refusal/refusal';
import { AppService } from '../../../../core/node/app/appService';
import { writeThinkAloudSettings } from '../../../../core/node/settings/projectSettings';
import { readRecent } from '../../../../core/node/projects/projectsPanel';
import { initProject, loadProjectConfig } from '../../../../core/node/project/projectFolder';

async function demo(): Promise<{ dir: string; work: string }> {
  const work = await mkdtemp(path.join(tmpdir(), 'aloud-app-projects-'));
  const dir = path.join(work, 'demo');
  await initProject(dir, { demo: true });
  return { dir, work };
}

describe('project settings through the validated config path', () => {
  it('writes thinkaloud values keeping comments, refuses invalid ones by field and writes nothing then', async () => {
    const { dir } = await demo();
    const project = await loadProjectConfig(dir);
    const { project: changed, previous } = await writeThinkAloudSettings(project, { long_pause_ms: 1500 });
    expect(previous.long_pause_ms).toBe(1000);
    expect(changed.config.thinkaloud.long_pause_ms).toBe(1500);
    const text = await readFile(path.join(dir, 'aloud.yaml'), 'utf8');
    expect(text).toContain('# Aloud demo project');
    await expect(writeThinkAloudSettings(changed, { silence_threshold_dbfs: 5 })).rejects.toThrow(/thinkaloud\.silence_threshold_dbfs/);
    expect(await readFile(path.join(dir, 'aloud.yaml'), 'utf8')).toBe(text);
    await expect(writeThinkAloudSettings(changed, { fillers: [] } as never)).rejects.toThrow(ApiError);
  });
});

describe('projects in the app service', () => {
  it('imports items all or nothing, creates a project, opens folders and remembers them', async () => {
    const { dir, work } = await demo();
    const recentFile = path.join(work, 'recent.json');
    const app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null, recentFile });
    try {
      await app.openSession('ana');
      const bad = path.join(work, 'bad.jsonl');
      await writeFile(bad, '{"id": "x-1", "text": "ok"}\n{"id": "x-2"}\n');
      const refused = await app.importItems(bad, 'append');
      expect(refused.items).toMatchObject({ ok: false, problems: [{ file: bad, line: 2, field: 'text' }] });
      expect((await app.project()).items).toHaveLength(20);
      const good = path.join(work, 'good.jsonl');
      await writeFile(good, '{"id": "x-1", "text": "ok"}\n{"id": "x-2", "text": "fine"}\n');
      await app.openItem('demo-02');
      await app.commitLabel('Polite', 'key');
      const heard: AloudEvent[] = [];
      const stop = app.subscribe((event) => heard.push(event));
      const imported = await app.importItems(good, 'append');
      stop();
      expect(imported.items).toMatchObject({ ok: true, added: 2, total: 22 });
      expect((await app.session()).annotator).toBe('ana'); // the session continues with the new items
      // the page hears the reopened session once, as a whole view (not an event per item)
      expect(heard.map((e) => e.type)).toEqual(['session_reopened']);
      const reopened = heard[0] as Extract<AloudEvent, { type: 'session_reopened' }>;
      const now = await app.session();
      expect({ ...reopened.view, stamp: 0 }).toEqual({ ...now, stamp: 0 });
      expect(now.stamp).toBeGreaterThan(reopened.view.stamp);
      expect(reopened.view.items).toMatchObject([{ item_id: 'demo-02', final_label: 'Polite', label_source: 'key' }]);

      const created = await app.createProject({
        dir: path.join(work, 'new'),
        name: 'tone',
        labels: [
          { name: 'Warm', key: 'w' },
          { name: 'Cold', key: null },
        ],
        items_file: good,
      });
      expect(created.project).toMatchObject({ name: 'tone', dir: path.join(work, 'new') });
      expect(created.project.items.map((i) => i.id)).toEqual(['x-1', 'x-2']);
      expect(created.project.schema.labels.map((l) => [l.name, l.key])).toEqual([
        ['Warm', 'w'],
        ['Cold', undefined],
      ]);
      await expect(app.session()).rejects.toThrow('no session is open');
      await expect(
        app.createProject({
          dir: path.join(work, 'new'),
          name: 'again',
          labels: [
            { name: 'A', key: null },
            { name: 'B', key: null },
          ],
          items_file: null,
        }),
      ).rejects.toThrow('not empty');
      await expect(
        app.createProject({ dir: path.join(work, 'one'), name: 'one', labels: [{ name: 'A', key: null }], items_file: null }),
      ).rejects.toThrow('schema.labels');
      await expect(
        app.createProject({
          dir: path.join(work, 'dup'),
          name: 'dup',
          labels: [
            { name: 'A', key: '1' },
            { name: 'B', key: '1' },
          ],
          items_file: null,
        }),
      ).rejects.toThrow(ApiError);
      await expect(app.openProject('relative/path')).rejects.toThrow('full path');
      await expect(app.openProject(path.join(work, 'nowhere'))).rejects.toThrow('no such folder');
      await app.openProject(dir);
      expect((await app.project()).name).toBe('politeness-demo');
      expect(await readRecent(recentFile)).toEqual([dir, path.join(work, 'new')]);
      expect((await app.recentProjects()).map((r) => r.name)).toEqual(['politeness-demo', 'tone']);
    } finally {
      await app.close();
    }
  });

  it('names differing only by case or spacing open the same session', async () => {
    const { dir } = await demo();
    const app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null });
    try {
      await app.openSession('Ana');
      await app.openItem('demo-01');
      await app.commitLabel('Polite', 'key');
      const again = await app.openSession('  ana ');
      expect(again.annotator).toBe('Ana');
      expect(again.items.find((i) => i.item_id === 'demo-01')?.final_label).toBe('Polite');
      expect(await app.annotators()).toEqual(['Ana']);
    } finally {
      await app.close();
    }
  });
});
