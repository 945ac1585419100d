import type { AloudMethod } from './aloudApi';
import type { RefusalCode } from '../refusal/refusal';

/** IPC channel names shared by the preload and main. */
export const IPC_CALL_CHANNEL = 'aloud:call';
export const IPC_EVENT_CHANNEL = 'aloud:event';

/** Header with which each browser-mode page identifies itself (a random id per page load). */
export const CLIENT_HEADER = 'x-aloud-client';

/** Path segment of review playback, on both hosts: aloud://app/item-audio/<id> and http://127.0.0.1:port/api/item-audio/<id>. */
export const ITEM_AUDIO_ROUTE = 'item-audio';

/**
 * Path segment of adjudication playback, on both hosts: <origin>/protocol-audio/<item id>/<n> (HTTP under /api/): the
 * item's recording by the annotator shown n-th in the side-by-side view. Never a name or a path: the host finds the file.
 */
export const PROTOCOL_AUDIO_ROUTE = 'protocol-audio';

/** Browser mode's HTTP routes; the host matches exactly these and the client builds exactly these. */
export const HTTP_ROUTES = {
  /** POST {args: [...]} as JSON to call a method */
  callPrefix: '/api/call/',
  /** POST the binary argument of a `binary` method (a chunk frame for appendAudio) */
  binaryPrefix: '/api/binary/',
  /** GET: server-sent events */
  events: '/api/events',
  /** GET/HEAD with Range: an item's recording */
  itemAudioPrefix: `/api/${ITEM_AUDIO_ROUTE}/`,
  /** GET/HEAD with Range: annotator n's recording of an item, for adjudication */
  protocolAudioPrefix: `/api/${PROTOCOL_AUDIO_ROUTE}/`,
} as const;

export const callRoute = (method: AloudMethod): string => `${HTTP_ROUTES.callPrefix}${method}`;
export const binaryRoute = (method: AloudMethod): string => `${HTTP_ROUTES.binaryPrefix}${method}`;
export const itemAudioRoute = (itemId: string): string => `${HTTP_ROUTES.itemAudioPrefix}${encodeURIComponent(itemId)}`;
/** The tail after the route segment (both hosts): the item id encoded whole, then the protocol's number in the view (1-based). */
export const protocolAudioTail = (itemId: string, protocol: number): string => `${encodeURIComponent(itemId)}/${protocol}`;
export const protocolAudioRoute = (itemId: string, protocol: number): string =>
  `${HTTP_ROUTES.protocolAudioPrefix}${protocolAudioTail(itemId, protocol)}`;

/** The HTTP status each contract error code is answered with (IPC carries the code alone). */
export const HTTP_STATUS_OF: Readonly<Record<RefusalCode, number>> = {
  bad_request: 400,
  not_found: 404,
  conflict: 409,
  spoken_label_required: 409,
  transcription_pending: 409,
  confirmation_required: 409,
  engine: 503,
  storage: 507,
  internal: 500,
};
