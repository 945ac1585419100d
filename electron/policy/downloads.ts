/**
 * Nothing in the app downloads through Chromium (models are fetched by main with checksums), so a download the
 * page or a redirect starts is cancelled: preventDefault in will-download cancels it before any byte is written.
 */
export function refuseDownload(event: { preventDefault(): void }): void {
  event.preventDefault();
}
