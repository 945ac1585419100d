/** A URL path the app will not serve, with the HTTP status to answer. */
export type PathRefusal = { ok: false; status: 400 | 403 | 404; reason: string };

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
/** Separators and characters Windows treats specially (drive letters, streams, device names' wildcards). */
const FORBIDDEN_IN_SEGMENT = /[/\\:*?"<>|]/;

const refused = (status: 400 | 403 | 404, reason: string): PathRefusal => ({ ok: false, status, reason });

/** A URL path ("/assets/a.js") as decoded segments; "/" is index.html. Bad percent-encoding and control characters are refused. */
export function decodePathSegments(pathname: string): { ok: true; segments: string[] } | PathRefusal {
  const rawSegments = pathname === '/' || pathname === '' ? ['index.html'] : pathname.replace(/^\//, '').split('/');
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
  return { ok: true, segments };
}

/**
 * Decoded segments that may name a file of the app: none empty, none that could leave the folder once decoded
 * ("..", "%2e%2e", "%2f", "\\") or mean something else on Windows (trailing dots or spaces, ':' streams);
 * dotfiles are never served.
 */
export function checkFileSegments(segments: readonly string[]): PathRefusal | null {
  for (const segment of segments) {
    if (segment === '') return refused(404, 'empty path segment');
    if (segment.startsWith('.') || segment.endsWith('.') || segment.endsWith(' ') || FORBIDDEN_IN_SEGMENT.test(segment)) {
      return refused(403, `path segment "${segment}" is not allowed`);
    }
  }
  return null;
}
