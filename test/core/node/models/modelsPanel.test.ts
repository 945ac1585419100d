import { existsSync } from 'node:fs';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AloudEvent } from '../../../../core/common/contract/aloudApi';
import { ModelsPanel } from '../../../../core/node/models/modelsPanel';
import { slowModelServer } from '../../../e2e/appHarness';
import { entryFor, manifestOf, syntheticVocabOnlyModel } from '../models/localModelServer';

const payload = syntheticVocabOnlyModel();
let server: Awaited<ReturnType<typeof slowModelServer>>;
beforeAll(async () => {
  server = await slowModelServer(payload); // 8 KiB every 30 ms: a cancel lands mid-way
});
afterAll(() => server.close());

type Download = Extract<AloudEvent, { type: 'model_download' }>;

function panelWith(dir: string) {
  const events: Download[] = [];
  const installed: string[] = [];
  const panel = new ModelsPanel({
    modelsDir: dir,
    manifest: manifestOf(entryFor(server.url, payload, { bytes: payload.length })),
    allowLoopbackHttp: true,
    emit: (e) => {
      if (e.type === 'model_download') events.push(e);
    },
    onInstalled: async (name) => void installed.push(name),
  });
  const until = async (state: Download['state']) => {
    for (let i = 0; i < 400 && !events.some((e) => e.state === state); i++) await new Promise((r) => setTimeout(r, 25));
    return events.find((e) => e.state === state);
  };
  return { panel, events, installed, until };
}

describe('the models panel behind the app API', () => {
  it('downloads with progress events, cancels keeping the part file, resumes, verifies and removes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-models-panel-'));
    const { panel, events, installed, until } = panelWith(dir);
    expect((await panel.view('test-tiny.en')).models).toMatchObject([
      { name: 'test-tiny.en', installed: false, verified: null, bytes: payload.length },
    ]);
    await panel.download('test-tiny.en');
    await expect(panel.download('test-tiny.en')).rejects.toThrow('already downloading');
    for (let i = 0; i < 400 && !events.some((e) => e.state === 'running' && e.received_bytes > 64 * 1024); i++)
      await new Promise((r) => setTimeout(r, 10));
    panel.cancel('test-tiny.en');
    const cancelled = await until('cancelled');
    expect(cancelled?.message).toContain('the next download continues');
    expect(existsSync(path.join(dir, 'ggml-test-tiny.en.bin.part'))).toBe(true);
    server.requests.length = 0;
    expect((await stat(path.join(dir, 'ggml-test-tiny.en.bin.part'))).size).toBeGreaterThan(0);
    await panel.download('test-tiny.en');
    const done = await until('done');
    expect(done).toMatchObject({ percent: 100, received_bytes: payload.length });
    expect(server.requests).toEqual([expect.stringMatching(/^bytes=\d+-$/)]);
    expect(installed).toEqual(['test-tiny.en']);
    const percents = events.filter((e) => e.state === 'running' && e.percent !== null).map((e) => e.percent!);
    expect(percents.some((p) => p > 0 && p < 100)).toBe(true);
    expect((await panel.view('test-tiny.en', true)).models[0]).toMatchObject({ installed: true, verified: true, problem: null });
    await panel.remove('test-tiny.en');
    expect((await panel.view('test-tiny.en')).models[0]).toMatchObject({ installed: false });
    await expect(panel.remove('test-tiny.en')).rejects.toThrow('not installed');
  });

  it('imports a local file by full path only, and names what is wrong with a bad one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-models-import-'));
    const { panel } = panelWith(dir);
    await expect(panel.importFile('model.bin')).rejects.toThrow('full path');
    const bad = path.join(dir, 'not-a-model.bin');
    await writeFile(bad, 'hello');
    await expect(panel.importFile(bad)).rejects.toThrow(/not-a-model\.bin/);
    const good = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-models-src-')), 'ggml-mine.bin');
    await writeFile(good, payload);
    expect(await panel.importFile(good)).toBe('test-tiny.en'); // recognised by its checksum
    expect((await panel.view('x')).models[0]).toMatchObject({ installed: true, verified: true });
  });
});
