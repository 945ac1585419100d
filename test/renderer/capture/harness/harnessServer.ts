import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { captureWorkletModuleSource } from '../../../../renderer/src/capture/captureWorklet';

const harnessDir = path.dirname(fileURLToPath(import.meta.url));

export interface HarnessServer {
  /** http://127.0.0.1:<port>/ — the harness page */
  url: string;
  /** the worklet module served as a file from the page's origin (for the `workletModuleUrl` option) */
  workletUrl: string;
  close(): Promise<void>;
}

/**
 * Bundles harnessPage.ts (minified, so the worklet's source-text shipping is tested the way a
 * production build would ship it) and serves it on 127.0.0.1 — a secure context for getUserMedia.
 */
export async function startHarnessServer(): Promise<HarnessServer> {
  const bundle = await build({
    entryPoints: [path.join(harnessDir, 'harnessPage.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.text;
  const worklet = captureWorkletModuleSource();
  const page = '<!doctype html><meta charset="utf-8"><title>capture harness</title><script type="module" src="/harness.js"></script>';
  const routes: Record<string, { type: string; body: string }> = {
    '/': { type: 'text/html; charset=utf-8', body: page },
    '/harness.js': { type: 'text/javascript; charset=utf-8', body: script },
    '/capture-worklet.js': { type: 'text/javascript; charset=utf-8', body: worklet },
    '/favicon.ico': { type: 'image/x-icon', body: '' },
  };
  const server = createServer((request, response) => {
    const route = routes[new URL(request.url ?? '/', 'http://127.0.0.1').pathname];
    if (!route) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': route.type, 'cache-control': 'no-store' }).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    workletUrl: `http://127.0.0.1:${port}/capture-worklet.js`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
