import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { SessionService } from '../../../../core/node/session/sessionService';
import { cli } from '../../../helpers/cli';

describe('aloud init / items', () => {
  it('lists the demo project items when no project is given', async () => {
    const { code, out } = await cli('items', '--json');
    expect(code).toBe(0);
    const items = JSON.parse(out) as Array<{ id: string; text: string }>;
    expect(items.length).toBeGreaterThanOrEqual(20);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    for (const item of items) expect(item.text.length).toBeGreaterThan(0);
  });

  it('creates a demo copy and lists its items', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-init-')), 'proj');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    const listed = JSON.parse((await cli('items', '--project', dir, '--json')).out) as unknown[];
    expect(listed.length).toBeGreaterThanOrEqual(20);
  });

  it('never overwrites: init into a non-empty folder exits 2 and leaves files alone', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-init-'));
    await writeFile(path.join(dir, 'aloud.yaml'), 'mine');
    const { code, err } = await cli('init', '--project', dir);
    expect(code).toBe(2);
    expect(err).toContain('not empty');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(await readFile(path.join(dir, 'aloud.yaml'), 'utf8')).toBe('mine');
  });

  it('a bad items line is named by file and line', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-init-')), 'proj');
    await cli('init', '--project', dir);
    await writeFile(path.join(dir, 'items.jsonl'), '{"id":"a","text":"x"}\n{"id":"a","text":"y"}\n');
    const { code, err } = await cli('items', '--project', dir, '--json');
    expect(code).toBe(2);
    expect(err).toContain('items.jsonl:2: duplicate item id "a"');
  });

  it('unknown options and commands exit 2 with one line', async () => {
    const bad = await cli('items', '--bogus');
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect((await cli('nonsense')).code).toBe(2);
  });
});

describe('aloud export never writes over project data', () => {
  it('refuses the items file, aloud.yaml, session files and a foreign existing file; replaces an earlier export', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-exp-')), 'proj');
    await cli('init', '--project', dir, '--demo');
    const items = await readFile(path.join(dir, 'items.jsonl'), 'utf8');
    for (const target of ['items.jsonl', 'aloud.yaml', 'sessions/ana/events.jsonl', 'imports/x.jsonl']) {
      const r = await cli('export', '--project', dir, '--format', 'jsonl', '--out', path.join(dir, target));
      expect(r.code).toBe(2);
      expect(r.err).toContain("the project's own data");
    }
    expect(await readFile(path.join(dir, 'items.jsonl'), 'utf8')).toBe(items);
    const foreign = path.join(dir, 'notes.txt');
    await writeFile(foreign, 'mine');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', foreign)).err).toContain('not an earlier Aloud export');
    expect(await readFile(foreign, 'utf8')).toBe('mine');
    const project = await loadProjectConfig(dir);
    const session = await SessionService.open({ project, annotator: 'ana' });
    await session.openItem('demo-01');
    await session.commitLabel('Polite', 'click');
    await session.close();
    const out = path.join(dir, 'exports.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', out)).code).toBe(0);
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', out)).code).toBe(0);
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', dir)).err).toContain('is a folder');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', foreign, '--force')).code).toBe(0);
  });
});

describe('aloud export during a recording', () => {
  it('warns that the item being recorded has incomplete audio', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-exp-rec-')), 'proj');
    await cli('init', '--project', dir, '--demo');
    const session = await SessionService.open({ project: await loadProjectConfig(dir), annotator: 'ana' });
    try {
      await session.openItem('demo-02');
      await session.startRecording();
      await session.appendAudio(new Float32Array(16_000).fill(0.1));
      const r = await cli('export', '--project', dir, '--format', 'jsonl', '--out', path.join(dir, 'live.jsonl'));
      expect(r.code).toBe(0);
      expect(r.err).toContain('ana is recording "demo-02"');
      expect(r.err).toContain('incomplete');
    } finally {
      await session.close();
    }
    const after = await cli('export', '--project', dir, '--format', 'jsonl', '--out', path.join(dir, 'done.jsonl'));
    expect(after.err).not.toContain('is recording');
  });
});

describe('aloud export after the item text changed', () => {
  it('warns that the labels were given to the old text', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-exp-text-')), 'proj');
    await cli('init', '--project', dir, '--demo');
    const project = await loadProjectConfig(dir);
    const session = await SessionService.open({ project, annotator: 'ana', items: await loadProjectItems(project) });
    await session.openItem('demo-01');
    await session.commitLabel('Polite', 'click');
    await session.openItem('demo-02');
    await session.commitLabel('Polite', 'click');
    await session.close();
    const itemsFile = path.join(dir, 'items.jsonl');
    await writeFile(itemsFile, (await readFile(itemsFile, 'utf8')).replace('Thank you so much for your patience!', 'Whatever.'));
    const r = await cli('export', '--project', dir, '--format', 'jsonl', '--out', path.join(dir, 'e.jsonl'));
    expect(r.code).toBe(0);
    expect(r.err).toContain('ana labelled "demo-01" when its text was different');
    expect(r.err).not.toContain('"demo-02"');
  });
});
