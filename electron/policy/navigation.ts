import { isAppUrl, parseStrictUrl } from './appOrigin';

/** The app's one page; a reload of it is the only navigation the window ever makes. */
const APP_DOCUMENT_PATHS = new Set(['/', '/index.html']);

/** Whether the window may navigate to `url` (will-navigate, will-redirect): only back to the app's own page. */
export function isNavigationAllowed(url: unknown, appOrigin: string): boolean {
  if (!isAppUrl(url, appOrigin)) return false;
  const parsed = parseStrictUrl(url);
  return parsed !== null && APP_DOCUMENT_PATHS.has(parsed.pathname);
}

/**
 * Whether the page may load `url` at all (the session's request filter): the app origin, blob: and data: URLs
 * the page made itself, and DevTools. Everything that could reach the network is cancelled.
 */
export function isRequestAllowed(url: unknown, appOrigin: string): boolean {
  if (isAppUrl(url, appOrigin)) return true;
  const parsed = parseStrictUrl(url);
  if (!parsed) return false;
  if (parsed.protocol === 'data:' || parsed.protocol === 'devtools:') return true;
  // A blob URL carries its creator's origin: blob:aloud://app/<uuid>.
  if (parsed.protocol === 'blob:') return isAppUrl(parsed.pathname, appOrigin);
  return false;
}
