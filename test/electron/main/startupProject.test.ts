import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppService } from '../../../core/node/app/appService';
import { DEMO_PROJECT_DIR, initProject } from '../../../core/node/project/projectFolder';
import { ensureDemoCopy, openStartupProject } from '../../../electron/main/startupProject';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'aloud-startup-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

const open = (projectDir: string) => AppService.open({ projectDir, mode: 'electron', openEngine: null });

describe('ensureDemoCopy', () => {
  it('copies the shipped demo into a writable folder, byte for byte', async () => {
    const copy = path.join(work, 'user-data', 'demo-project');
    expect(await ensureDemoCopy(DEMO_PROJECT_DIR, copy)).toBe(copy);
    expect((await readdir(copy)).sort()).toEqual((await readdir(DEMO_PROJECT_DIR)).sort());
    for (const name of await readdir(DEMO_PROJECT_DIR)) {
      expect(await readFile(path.join(copy, name))).toEqual(await readFile(path.join(DEMO_PROJECT_DIR, name)));
    }
  });

  it('keeps an existing copy and what the annotator saved in it', async () => {
    const copy = path.join(work, 'kept');
    await ensureDemoCopy(DEMO_PROJECT_DIR, copy);
    await mkdir(path.join(copy, 'sessions'));
    await writeFile(path.join(copy, 'sessions', 'ana.jsonl'), 'saved work\n');
    await writeFile(path.join(copy, 'items.jsonl'), '{"id":"mine","text":"edited"}\n');
    await ensureDemoCopy(DEMO_PROJECT_DIR, copy);
    expect(await readFile(path.join(copy, 'sessions', 'ana.jsonl'), 'utf8')).toBe('saved work\n');
    expect(await readFile(path.join(copy, 'items.jsonl'), 'utf8')).toBe('{"id":"mine","text":"edited"}\n');
  });

  it('finishes a copy interrupted before the config was written, without overwriting what is there', async () => {
    const copy = path.join(work, 'interrupted');
    await mkdir(copy);
    await writeFile(path.join(copy, 'items.jsonl'), '{"id":"x","text":"partial"}\n');
    await ensureDemoCopy(DEMO_PROJECT_DIR, copy);
    expect(await readFile(path.join(copy, 'aloud.yaml'))).toEqual(await readFile(path.join(DEMO_PROJECT_DIR, 'aloud.yaml')));
    expect(await readFile(path.join(copy, 'items.jsonl'), 'utf8')).toBe('{"id":"x","text":"partial"}\n');
  });
});

describe('openStartupProject', () => {
  it('opens the demo working copy when no project was opened before', async () => {
    const demoWorkingCopy = path.join(work, 'first-run', 'demo-project');
    const choice = await openStartupProject({ lastProject: null, demoSource: DEMO_PROJECT_DIR, demoWorkingCopy, open });
    expect(choice.projectDir).toBe(demoWorkingCopy);
    expect(choice.problem).toBeNull();
    expect((await choice.service.project()).name).toBe('politeness-demo');
    await choice.service.close();
  });

  it('opens the last project when it is still there', async () => {
    const last = path.join(work, 'my-project');
    await initProject(last, { demo: false });
    const choice = await openStartupProject({
      lastProject: last,
      demoSource: DEMO_PROJECT_DIR,
      demoWorkingCopy: path.join(work, 'unused-demo'),
      open,
    });
    expect(choice.projectDir).toBe(last);
    expect(choice.problem).toBeNull();
    expect((await choice.service.project()).name).toBe('my-project');
    await choice.service.close();
  });

  it('falls back to the demo and says why when the last project is gone or broken', async () => {
    const broken = path.join(work, 'broken');
    await mkdir(broken);
    await writeFile(path.join(broken, 'aloud.yaml'), 'name: [unclosed\n');
    for (const lastProject of [path.join(work, 'deleted-project'), broken]) {
      const choice = await openStartupProject({
        lastProject,
        demoSource: DEMO_PROJECT_DIR,
        demoWorkingCopy: path.join(work, 'fallback-demo'),
        open,
      });
      expect(choice.projectDir).toBe(path.join(work, 'fallback-demo'));
      expect(choice.problem).toContain(lastProject);
      expect(choice.problem).toContain('aloud.yaml');
      await choice.service.close();
    }
  });
});
