import { checkFileSegments, decodePathSegments, protocolAudioTarget } from '../../core/common/http/appPaths';
import { ITEM_AUDIO_ROUTE, PROTOCOL_AUDIO_ROUTE } from '../../core/common/contract/transportNames';
import { isAppUrl, parseStrictUrl } from './appOrigin';

/** What a request of the app protocol asks for, after its path was decoded and checked. */
export type AppRoute =
  | { kind: 'renderer-file'; segments: string[] }
  | { kind: 'item-audio'; itemId: string }
  /** annotator n's recording of an item, for adjudication: only this shape (item id, number), never a path */
  | { kind: 'protocol-audio'; itemId: string; protocol: number }
  | { kind: 'refused'; status: 400 | 403 | 404; reason: string };

const refused = (status: 400 | 403 | 404, reason: string): AppRoute => ({ kind: 'refused', status, reason });

/**
 * Maps an app-protocol URL to what it names. File segments are percent-decoded one by one and refused when they
 * could leave the folder once decoded ("..", "%2e%2e", "%2f", "\\", NUL) or mean something else on Windows
 * (trailing dots or spaces, ':' streams); dotfiles are never served.
 */
export function routeAppRequest(url: string, appOrigin: string): AppRoute {
  if (!isAppUrl(url, appOrigin)) return refused(403, 'not the app origin');
  const parsed = parseStrictUrl(url)!;
  const decoded = decodePathSegments(parsed.pathname);
  if (!decoded.ok) return refused(decoded.status, decoded.reason);
  const { segments } = decoded;

  if (segments[0] === ITEM_AUDIO_ROUTE) {
    const itemId = segments[1];
    if (segments.length !== 2 || itemId === undefined || itemId.trim() === '') return refused(404, 'expected item-audio/<item id>');
    return { kind: 'item-audio', itemId };
  }

  if (segments[0] === PROTOCOL_AUDIO_ROUTE) {
    const target = protocolAudioTarget(segments.slice(1));
    if (!target.ok) return refused(target.status, target.reason);
    return { kind: 'protocol-audio', itemId: target.itemId, protocol: target.protocol };
  }

  const refusal = checkFileSegments(segments);
  if (refusal) return refused(refusal.status, refusal.reason);
  return { kind: 'renderer-file', segments };
}
