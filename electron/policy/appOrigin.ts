/** Aloud's page is served from this origin (a privileged custom scheme), never from file:// or the network. */
export const APP_SCHEME = 'aloud';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** Control characters, spaces and backslashes never occur in a URL Chromium hands us; their presence means a forged string. */
const FORGED_URL_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\\]/;

/** Parses a URL, or null when it is not a string, not a URL or carries characters a canonical URL never has. */
export function parseStrictUrl(url: unknown): URL | null {
  if (typeof url !== 'string' || url.length > 8192 || FORGED_URL_CHARACTERS.test(url)) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * Whether `url` belongs to the app origin: the same scheme and host, no port and no user info. Compared field by
 * field because WHATWG URL gives custom schemes the origin "null".
 */
export function isAppUrl(url: unknown, appOrigin: string): boolean {
  const parsed = parseStrictUrl(url);
  const origin = parseStrictUrl(appOrigin);
  if (!parsed || !origin) return false;
  return (
    parsed.protocol === origin.protocol &&
    parsed.host === origin.host &&
    parsed.host !== '' &&
    parsed.port === '' &&
    parsed.username === '' &&
    parsed.password === ''
  );
}
