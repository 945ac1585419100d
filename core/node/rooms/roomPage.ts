import { escapeXml } from '../../common/io/xmlText';
import type { RoomWords } from '../../common/rooms/roomWords';
import { roomPageStartHtml } from './roomPageBase';
/**
 * The page members open in their browser, served by the room listener itself: no install, no CDN, no inline
 * script (the CSP allows only its own files: the script and stylesheet built from renderer/roomPages/roomPage.ts).
 */
export const ROOM_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function roomPageHtml(t: RoomWords): string {
  return `${roomPageStartHtml({ name: 'room', title: 'room.norming.title', heading: 'room.norming.heading', intro: 'room.norming.intro' }, t)}<main id="room" hidden>
  <p id="status" class="muted" role="status"></p>
  <section id="metrics" aria-label="${escapeXml(t('room.region.agreement'))}"></section>
  <section id="lead" hidden aria-label="${escapeXml(t('room.region.lead'))}"></section>
  <section id="items" aria-label="${escapeXml(t('room.region.items'))}"></section>
  <section id="chat" aria-label="${escapeXml(t('room.region.chat'))}">
    <h2>${escapeXml(t('room.chat.heading'))}</h2>
    <ol id="chat-log"></ol>
    <input id="chat-text" maxlength="500" placeholder="${escapeXml(t('room.chat.placeholder'))}" aria-label="${escapeXml(t('room.chat.placeholder'))}">
    <button id="chat-send" type="button">${escapeXml(t('room.chat.send'))}</button>
  </section>
</main>
</body></html>
`;
}
