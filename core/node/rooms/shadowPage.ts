import { roomPageStartHtml } from './roomPageBase';
/**
 * The page trainees open in their browser, served by the shadow room's listener itself: no install, no CDN, no
 * inline script (the room page's CSP allows only its own files: those built from renderer/roomPages/shadowPage.ts).
 */
export const SHADOW_PAGE_HTML = `${roomPageStartHtml({ name: 'shadow', title: 'Aloud shadow room', heading: 'Shadow room', intro: 'Watch an expert label and think aloud, live, and practise against her. Type the room code she gave you, and your name.' })}<main id="room" hidden>
  <p id="status" role="status"></p>
  <section id="lead" hidden aria-label="expert"></section>
  <article id="item" hidden aria-label="the item she is on">
    <div class="item-head"><code id="item-id"></code><span id="rec" class="rec" hidden>● recording</span><span id="item-state" class="muted"></span></div>
    <blockquote id="context" class="context" hidden></blockquote>
    <blockquote id="text" class="text" aria-label="item text"></blockquote>
    <p id="selection" class="muted"></p>
    <section id="practice" aria-label="your practice label"></section>
    <section id="expert" aria-label="her labels"></section>
    <section id="transcript" aria-label="her transcript">
      <h2>Her reasoning, as she says it <span class="muted">(verbatim)</span></h2>
      <p id="transcript-text" class="transcript-text"></p>
      <p id="pauses" class="pauses muted"></p>
    </section>
    <section id="reasoning" hidden aria-label="model reasoning"></section>
    <p id="answered" class="muted"></p>
  </article>
  <section id="audio" hidden aria-label="her audio">
    <button id="listen" type="button">Listen to her</button> <span id="audio-state" class="muted"></span>
  </section>
  <section id="summary" aria-label="agreement with the expert"></section>
</main>
</body></html>
`;
