/** What went wrong with the microphone, as the UI and the session log need to tell it apart. */
export type CaptureErrorCode =
  /** the user or the system refused microphone access (NotAllowedError, SecurityError) */
  | 'permission_denied'
  /** no microphone, or the chosen one is not connected (NotFoundError, OverconstrainedError) */
  | 'no_device'
  /** the microphone exists but could not be opened, usually another application holds it (NotReadableError, AbortError) */
  | 'device_in_use'
  /** the microphone went away while recording; what was recorded up to then has been delivered */
  | 'device_lost'
  /** this page cannot capture audio at all (insecure origin, no getUserMedia or AudioWorklet) */
  | 'unsupported'
  /** the audio graph could not be set up or started (AudioContext, worklet module, autoplay policy) */
  | 'audio_failed';

// i18n-ignore: Error.message for logs and tests; a person sees capture.error.<code> from the catalog (describeCaptureError)
const guidance: Record<CaptureErrorCode, string> = {
  permission_denied:
    // i18n-ignore: the log's words (see guidance)
    'Microphone access was denied. Allow microphone access for Aloud in the system or browser settings, then start recording again.',
  // i18n-ignore: the log's words (see guidance)
  no_device: 'No microphone was found. Connect a microphone (or choose another one in the settings) and start recording again.',
  device_in_use:
    // i18n-ignore: the log's words (see guidance)
    'The microphone could not be opened; another application may be using it. Close that application or choose another microphone.',
  device_lost:
    // i18n-ignore: the log's words (see guidance)
    'The microphone was disconnected while recording. What was recorded up to then is kept; reconnect it and start recording again.',
  // i18n-ignore: the log's words (see guidance)
  unsupported: 'This window cannot record audio (it needs a secure page with microphone and AudioWorklet support).',
  // i18n-ignore: the log's words (see guidance)
  audio_failed: 'The audio system could not be started.',
};

export class CaptureError extends Error {
  readonly code: CaptureErrorCode;
  /** the browser's own name and message (technical, not translated) */
  readonly detail: string | undefined;

  constructor(code: CaptureErrorCode, detail?: string, options?: { cause?: unknown }) {
    super(detail ? `${guidance[code]} (${detail})` : guidance[code], options);
    this.name = 'CaptureError';
    this.code = code;
    this.detail = detail;
  }
}

/** The DOMException name (or other error name) of a getUserMedia / audio failure, if it has one. */
function errorName(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'name' in error && typeof error.name === 'string') return error.name;
  return undefined;
}

function errorDetail(error: unknown): string {
  const name = errorName(error) ?? 'Error';
  const message = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error);
  const constraint =
    typeof error === 'object' && error !== null && 'constraint' in error && error.constraint
      ? ` (constraint: ${String(error.constraint)})`
      : '';
  return message ? `${name}: ${message}${constraint}` : `${name}${constraint}`;
}

/** Maps a getUserMedia rejection to a CaptureError; the browser's own name and message stay in the detail. */
export function captureErrorFromMediaError(error: unknown): CaptureError {
  if (error instanceof CaptureError) return error;
  const detail = errorDetail(error);
  switch (errorName(error)) {
    case 'NotAllowedError':
    case 'PermissionDeniedError': // pre-standard Chromium name
    case 'SecurityError':
      return new CaptureError('permission_denied', detail, { cause: error });
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
    case 'ConstraintNotSatisfiedError':
      return new CaptureError('no_device', detail, { cause: error });
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return new CaptureError('device_in_use', detail, { cause: error });
    case 'TypeError':
      return new CaptureError('unsupported', detail, { cause: error });
    default:
      return new CaptureError('audio_failed', detail, { cause: error });
  }
}

/** Wraps a failure of the audio graph (AudioContext, worklet module, resume) as `audio_failed`. */
export function audioFailure(step: string, error: unknown): CaptureError {
  if (error instanceof CaptureError) return error;
  return new CaptureError('audio_failed', `${step}: ${errorDetail(error)}`, { cause: error });
}
