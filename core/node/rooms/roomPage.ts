import { roomPageStartHtml } from './roomPageBase';
/**
 * The page members open in their browser, served by the room listener itself: no install, no CDN, no inline
 * script (the CSP allows only its own files: the script and stylesheet built from renderer/roomPages/roomPage.ts).
 */
export const ROOM_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const ROOM_PAGE_HTML = `${roomPageStartHtml({ name: 'room', title: 'Aloud norming room', heading: 'Norming room', intro: 'Type the room code the lead read out, and your name.' })}<main id="room" hidden>
  <p id="status" class="muted" role="status"></p>
  <section id="metrics" aria-label="agreement"></section>
  <section id="lead" hidden aria-label="lead"></section>
  <section id="items" aria-label="items"></section>
  <section id="chat" aria-label="chat">
    <h2>Chat</h2>
    <ol id="chat-log"></ol>
    <input id="chat-text" maxlength="500" placeholder="Say something to the room">
    <button id="chat-send" type="button">Send</button>
  </section>
</main>
</body></html>
`;
