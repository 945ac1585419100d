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

/** The most protocols an item's side-by-side view numbers (its keys reach 1–9; the route allows two digits). */
const PROTOCOL_NUMBER = /^[1-9][0-9]?$/;

/**
 * The decoded segments after "protocol-audio/": exactly an item id and the protocol's number in the side-by-side view.
 * Neither is ever a path: the item id is only looked up in the queue, the number only counts the view's annotators.
 */
export function protocolAudioTarget(segments: readonly string[]): { ok: true; itemId: string; protocol: number } | PathRefusal {
  const [itemId, number] = segments;
  if (segments.length !== 2 || itemId === undefined || number === undefined || itemId.trim() === '')
    return refused(404, 'expected protocol-audio/<item id>/<annotator number>');
  if (!PROTOCOL_NUMBER.test(number)) return refused(404, `annotator number "${number}" is not 1–99`);
  return { ok: true, itemId, protocol: Number(number) };
}
