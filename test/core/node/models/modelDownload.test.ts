import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseModelIndex } from '../../../../core/common/models/modelIndex';
import { assertDownloadUrlAllowed, type DownloadProgress, downloadModel, parseContentRange } from '../../../../core/node/models/modelDownload';
import { ModelDownloadError } from '../../../../core/node/models/modelErrors';
import { entryFor, LocalModelServer, sha1Hex, sha256Hex, syntheticVocabOnlyModel } from './localModelServer';

const payload = syntheticVocabOnlyModel();
const server = new LocalModelServer(payload);
let dir: string;

beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});
const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.map((d) => rm(d, { recursive: true, force: true })));
});
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'aloud-download-'));
  created.push(dir);
  server.requests.length = 0;
  server.resetDrop();
});

const finalPath = (): string => path.join(dir, 'ggml-test-tiny.en.bin');
const partPath = (): string => `${finalPath()}.part`;

async function downloadError(promise: Promise<unknown>): Promise<ModelDownloadError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(ModelDownloadError);
    return e as ModelDownloadError;
  }
  throw new Error('expected the download to fail');
}

describe('downloadModel from a local server', () => {
  it('downloads with progress, verifies, and records the model; the final name appears only when verified', async () => {
    const progress: DownloadProgress[] = [];
    let finalSeenDuringTransfer = false;
    const result = await downloadModel(entryFor(server.url('/range/model.bin'), payload), {
      dir,
      allowLoopbackHttp: true,
      onProgress: (p) => {
        progress.push(p);
        if (existsSync(finalPath())) finalSeenDuringTransfer = true;
      },
    });
    expect(finalSeenDuringTransfer).toBe(false);
    expect(result).toMatchObject({ status: 'downloaded', verified: true, bytes: payload.length, sha256: sha256Hex(payload), resumed_from_bytes: 0, restarted: false });
    expect(result.header).toMatchObject({ size_class: 'tiny', weights: 'none' });
    expect(await readFile(finalPath())).toEqual(payload);
    expect(await readdir(dir)).toEqual(['ggml-test-tiny.en.bin', 'models.json']);

    expect(progress.length).toBeGreaterThan(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.received_bytes).toBeGreaterThanOrEqual(progress[i - 1]!.received_bytes);
    expect(progress.at(-1)).toMatchObject({ received_bytes: payload.length, total_bytes: payload.length, percent: 100 });

    const index = parseModelIndex(await readFile(path.join(dir, 'models.json'), 'utf8'), 'models.json');
    expect(index.models).toEqual([
      expect.objectContaining({ name: 'test-tiny.en', file: 'ggml-test-tiny.en.bin', bytes: payload.length, sha256: sha256Hex(payload), sha1: sha1Hex(payload), source: 'download', origin: server.url('/range/model.bin') }),
    ]);
    expect(Date.parse(index.models[0]!.downloaded_at!)).not.toBeNaN();
  });

  it('resumes after the server drops the connection mid-way, asking only for the missing bytes', async () => {
    const entry = entryFor(server.url('/drop-once/model.bin'), payload);
    const err = await downloadError(downloadModel(entry, { dir, allowLoopbackHttp: true }));
    expect(['network', 'incomplete']).toContain(err.kind);
    expect(err.message).toContain('run the download again to resume');
    expect(existsSync(finalPath())).toBe(false);
    const kept = (await stat(partPath())).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(payload.length);

    const progress: DownloadProgress[] = [];
    const result = await downloadModel(entry, { dir, allowLoopbackHttp: true, onProgress: (p) => progress.push(p) });
    expect(result).toMatchObject({ status: 'downloaded', resumed_from_bytes: kept, restarted: false, bytes: payload.length });
    expect(server.requests.at(-1)).toEqual({ path: '/drop-once/model.bin', range: `bytes=${kept}-`, status: 206 });
    expect(progress[0]).toMatchObject({ received_bytes: kept, resumed_from_bytes: kept });
    expect(await readFile(finalPath())).toEqual(payload);
    expect(existsSync(partPath())).toBe(false);
  });

  it('starts over cleanly when the server ignores Range', async () => {
    await writeFile(partPath(), Buffer.alloc(5000, 0x55));
    const result = await downloadModel(entryFor(server.url('/ignore-range/model.bin'), payload), { dir, allowLoopbackHttp: true });
    expect(server.requests[0]).toMatchObject({ range: 'bytes=5000-', status: 200 });
    expect(result).toMatchObject({ restarted: true, resumed_from_bytes: 0, bytes: payload.length });
    expect(await readFile(finalPath())).toEqual(payload);
  });

  it('finishes from a .part that already holds the whole file (416) without downloading again', async () => {
    await writeFile(partPath(), payload);
    const result = await downloadModel(entryFor(server.url('/range/model.bin'), payload), { dir, allowLoopbackHttp: true });
    expect(server.requests).toEqual([{ path: '/range/model.bin', range: `bytes=${payload.length}-`, status: 416 }]);
    expect(result).toMatchObject({ status: 'downloaded', resumed_from_bytes: payload.length });
    expect(await readFile(finalPath())).toEqual(payload);
  });

  it('a checksum mismatch deletes the .part, reports expected and actual, and leaves no file at the final name', async () => {
    const wrong = 'f'.repeat(40);
    const err = await downloadError(downloadModel(entryFor(server.url('/range/model.bin'), payload, { checksum: { algo: 'sha1', value: wrong } }), { dir, allowLoopbackHttp: true }));
    expect(err.kind).toBe('checksum');
    expect(err.details).toEqual({ expected: wrong, actual: sha1Hex(payload) });
    expect(err.message).toContain(`expected sha1 ${wrong}, got ${sha1Hex(payload)}`);
    expect(await readdir(dir)).toEqual([]);
  });

  it('verifies sha256 checksums too', async () => {
    const result = await downloadModel(entryFor(server.url('/range/model.bin'), payload, { checksum: { algo: 'sha256', value: sha256Hex(payload) } }), { dir, allowLoopbackHttp: true });
    expect(result.checksum.algo).toBe('sha256');
  });

  it('rejects a size that disagrees with the manifest before writing anything', async () => {
    const err = await downloadError(downloadModel(entryFor(server.url('/range/model.bin'), payload, { bytes: payload.length + 1 }), { dir, allowLoopbackHttp: true }));
    expect(err.message).toContain(`offers ${payload.length} bytes but the manifest says ${payload.length + 1}`);
    expect(await readdir(dir)).toEqual([]);
  });

  it('reports a 404 with the URL and leaves nothing behind', async () => {
    const url = server.url('/not-found/model.bin');
    const err = await downloadError(downloadModel(entryFor(url, payload), { dir, allowLoopbackHttp: true }));
    expect(err.kind).toBe('http');
    expect(err.details.status).toBe(404);
    expect(err.message).toBe(`HTTP 404 Not Found from ${url}`);
    expect(await readdir(dir)).toEqual([]);
  });

  it('is abortable; the .part is kept and the next download resumes from it', async () => {
    const entry = entryFor(server.url('/slow/model.bin'), payload);
    const controller = new AbortController();
    const attempt = downloadModel(entry, {
      dir,
      allowLoopbackHttp: true,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.received_bytes > 100_000) controller.abort();
      },
    });
    await expect(attempt).rejects.toMatchObject({ name: 'AbortError' });
    expect(existsSync(finalPath())).toBe(false);
    expect(existsSync(`${finalPath()}.lock`)).toBe(false);
    const kept = (await stat(partPath())).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(payload.length);
    const result = await downloadModel(entry, { dir, allowLoopbackHttp: true });
    expect(result.resumed_from_bytes).toBe(kept);
    expect(await readFile(finalPath())).toEqual(payload);
  });

  it('follows a redirect on the loopback server', async () => {
    const result = await downloadModel(entryFor(server.url('/redirect/range/model.bin'), payload), { dir, allowLoopbackHttp: true });
    expect(server.requests.map((r) => r.status)).toEqual([302, 200]);
    expect(result.status).toBe('downloaded');
  });

  it('does not download again when a verified file is present, and replaces a damaged one only after verifying', async () => {
    const entry = entryFor(server.url('/range/model.bin'), payload);
    await downloadModel(entry, { dir, allowLoopbackHttp: true });
    server.requests.length = 0;
    expect((await downloadModel(entry, { dir, allowLoopbackHttp: true })).status).toBe('already-present');
    expect(server.requests).toEqual([]);

    await writeFile(finalPath(), Buffer.from('damaged'));
    const failed = await downloadError(downloadModel(entryFor(server.url('/not-found/x'), payload), { dir, allowLoopbackHttp: true }));
    expect(failed.kind).toBe('http');
    expect(await readFile(finalPath(), 'utf8')).toBe('damaged');
    expect((await downloadModel(entry, { dir, allowLoopbackHttp: true })).status).toBe('downloaded');
    expect(await readFile(finalPath())).toEqual(payload);
  });

  it('refuses a second concurrent download of the same model', async () => {
    const entry = entryFor(server.url('/slow/model.bin'), payload);
    let transferring!: () => void;
    const started = new Promise<void>((resolve) => (transferring = resolve));
    const first = downloadModel(entry, { dir, allowLoopbackHttp: true, onProgress: () => transferring() });
    await started;
    const second = await downloadError(downloadModel(entry, { dir, allowLoopbackHttp: true }));
    expect(second.kind).toBe('busy');
    expect((await first).status).toBe('downloaded');
  });
});

describe('which URLs may open a connection', () => {
  it('allows https, and http only to the loopback address when explicitly allowed', () => {
    expect(assertDownloadUrlAllowed('https://huggingface.co/x.bin').hostname).toBe('huggingface.co');
    expect(() => assertDownloadUrlAllowed('http://127.0.0.1:1/x.bin')).toThrow(/only https URLs/);
    expect(assertDownloadUrlAllowed('http://127.0.0.1:1/x.bin', true).port).toBe('1');
    expect(assertDownloadUrlAllowed('http://[::1]:1/x.bin', true).hostname).toBe('[::1]');
    expect(() => assertDownloadUrlAllowed('http://example.org/x.bin', true)).toThrow(/only https URLs/);
    expect(() => assertDownloadUrlAllowed('http://localhost/x.bin', true)).toThrow(/only https URLs/);
    expect(() => assertDownloadUrlAllowed('file:///etc/passwd', true)).toThrow(/only https URLs/);
    expect(() => assertDownloadUrlAllowed('not a url')).toThrow(/not a valid URL/);
  });

  it('refuses plain http without the explicit option before connecting', async () => {
    const err = await downloadError(downloadModel(entryFor(server.url('/range/model.bin'), payload), { dir }));
    expect(err.kind).toBe('url');
    expect(server.requests).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a redirect that leaves the allowed URLs', async () => {
    const redirector = new LocalModelServer(payload);
    await redirector.start();
    try {
      const err = await downloadError(downloadModel(entryFor(redirector.url('/redirect/http:%2F%2Fexample.org/x.bin'), payload), { dir, allowLoopbackHttp: true }));
      expect(err.kind).toBe('url');
    } finally {
      await redirector.stop();
    }
  });

  it('parses Content-Range', () => {
    expect(parseContentRange('bytes 100-199/1000')).toEqual({ start: 100, total: 1000 });
    expect(parseContentRange('bytes */1000')).toEqual({ start: null, total: 1000 });
    expect(parseContentRange('bytes 0-9/*')).toEqual({ start: 0, total: null });
    expect(parseContentRange('nonsense')).toBeNull();
    expect(parseContentRange(undefined)).toBeNull();
  });
});
