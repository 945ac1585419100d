import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isAppUrl, parseStrictUrl } from './appOrigin';

/** What a request of the app protocol asks for, after its path was decoded and checked. */
export type AppRoute =
  | { kind: 'renderer-file'; segments: string[] }
  | { kind: 'item-audio'; itemId: string }
  | { kind: 'refused'; status: 400 | 403 | 404; reason: string };

/** Prefix of the review-playback route: aloud://app/item-audio/<encoded item id>. */
export const ITEM_AUDIO_ROUTE = 'item-audio';

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
/** Separators and characters Windows treats specially (drive letters, streams, device names' wildcards). */
const FORBIDDEN_IN_SEGMENT = /[/\\:*?"<>|]/;

const refused = (status: 400 | 403 | 404, reason: string): AppRoute => ({ kind: 'refused', status, reason });

/**
 * Maps an app-protocol URL to what it names. File segments are percent-decoded one by one and refused when they
 * could leave the folder once decoded ("..", "%2e%2e", "%2f", "\\", NUL) or mean something else on Windows
 * (trailing dots or spaces, ':' streams); dotfiles are never served.
 */
export function routeAppRequest(url: string, appOrigin: string): AppRoute {
  if (!isAppUrl(url, appOrigin)) return refused(403, 'not the app origin');
  const parsed = parseStrictUrl(url)!;
  const rawSegments = parsed.pathname === '/' ? ['index.html'] : parsed.pathname.slice(1).split('/');
  const segments: string[] = [];
  for (const raw of rawSegments) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return refused(400, `bad percent-encoding in "${raw}"`);
    }
    if (CONTROL_CHARACTERS.test(segment)) return refused(400, 'control character in the path');
    segments.push(segment);
  }

  if (segments[0] === ITEM_AUDIO_ROUTE) {
    const itemId = segments[1];
    if (segments.length !== 2 || itemId === undefined || itemId.trim() === '') return refused(404, 'expected item-audio/<item id>');
    return { kind: 'item-audio', itemId };
  }

  for (const segment of segments) {
    if (segment === '') return refused(404, 'empty path segment');
    if (segment.startsWith('.') || segment.endsWith('.') || segment.endsWith(' ') || FORBIDDEN_IN_SEGMENT.test(segment)) {
      return refused(403, `path segment "${segment}" is not allowed`);
    }
  }
  return { kind: 'renderer-file', segments };
}

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
