import { isAppUrl } from './appOrigin';

export interface PermissionQuery {
  /** Electron's permission name ('media', 'geolocation', 'notifications', ...) */
  permission: string;
  /** the requesting frame's URL (a permission check may only know the origin) */
  requestingUrl: string | null | undefined;
  /** for 'media': what the page asks for ('audio', 'video'); a check names one type */
  mediaTypes: readonly string[] | null | undefined;
  /** sub-frames never get a permission */
  isMainFrame: boolean;
  appOrigin: string;
}

/** Only microphone capture, asked by the app's own top-level page, for audio alone. Everything else is refused. */
export function isPermissionAllowed(query: PermissionQuery): boolean {
  if (query.permission !== 'media') return false;
  if (query.isMainFrame !== true) return false;
  if (!isAppUrl(query.requestingUrl, query.appOrigin)) return false;
  const types = query.mediaTypes;
  return Array.isArray(types) && types.length > 0 && types.every((type) => type === 'audio');
}
