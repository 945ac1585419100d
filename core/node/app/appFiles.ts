import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** Whether `file` lies strictly inside `folder` (both already absolute and resolved). */
export function isInsideFolder(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && !path.isAbsolute(relative) && relative.split(path.sep)[0] !== '..';
}

export type FileLookup = { ok: true; file: string; size: number } | { ok: false; status: 403 | 404; reason: string };

/**
 * Resolves `candidate` through realpath and accepts it only as a regular file inside the real `folder`:
 * a symlink that leads out of the folder is refused like a "..".
 */
export async function resolveFileInside(folder: string, candidate: string): Promise<FileLookup> {
  const lexical = path.resolve(folder, candidate);
  if (!isInsideFolder(path.resolve(folder), lexical)) return { ok: false, status: 403, reason: 'outside the folder' };
  let realFolder: string;
  let realFile: string;
  try {
    realFolder = await realpath(folder);
    realFile = await realpath(lexical);
  } catch {
    return { ok: false, status: 404, reason: 'not found' };
  }
  if (!isInsideFolder(realFolder, realFile)) return { ok: false, status: 403, reason: 'leads outside the folder' };
  const info = await stat(realFile).catch(() => null);
  if (!info?.isFile()) return { ok: false, status: 404, reason: 'not a file' };
  return { ok: true, file: realFile, size: info.size };
}

/** A renderer file by its checked segments (from routeAppRequest). */
export function resolveRendererFile(rendererRoot: string, segments: readonly string[]): Promise<FileLookup> {
  return resolveFileInside(rendererRoot, path.join(...segments));
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.wav': 'audio/wav',
};

/** The Content-Type of a served file by its extension; unknown kinds are opaque bytes (with nosniff). */
export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}
