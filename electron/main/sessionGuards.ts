import { session, type WebContents } from 'electron';
import { refuseDownload } from '../policy/downloads';
import { isNavigationAllowed, isRequestAllowed } from '../policy/navigation';
import { isPermissionAllowed } from '../policy/permissions';

/** Permissions and the request filter of the app's session: microphone from our page only, no network. */
export function guardSession(appOrigin: string): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const mediaTypes = 'mediaTypes' in details ? details.mediaTypes : undefined;
    callback(
      isPermissionAllowed({ permission, requestingUrl: details.requestingUrl, mediaTypes, isMainFrame: details.isMainFrame, appOrigin }),
    );
  });
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    isPermissionAllowed({
      permission,
      requestingUrl: details.requestingUrl ?? requestingOrigin,
      mediaTypes: details.mediaType ? [details.mediaType] : [],
      isMainFrame: details.isMainFrame,
      appOrigin,
    }),
  );
  ses.setDevicePermissionHandler(() => false);
  ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isRequestAllowed(details.url, appOrigin) }));
  ses.setSpellCheckerEnabled(false);
  ses.on('will-download', (event) => refuseDownload(event));
}

/** Every web contents (the window and anything it might spawn): no navigation away, no new windows, no webviews. */
export function guardWebContents(contents: WebContents, appOrigin: string): void {
  contents.on('will-navigate', (event) => {
    if (!event.isMainFrame || !isNavigationAllowed(event.url, appOrigin)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isNavigationAllowed(event.url, appOrigin)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}
