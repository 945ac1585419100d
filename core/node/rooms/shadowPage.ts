import { escapeXml } from '../../common/io/xmlText';
import type { RoomMessageId, RoomWords } from '../../common/rooms/roomWords';
import { roomPageStartHtml } from './roomPageBase';
/**
 * The page trainees open in their browser, served by the shadow room's listener itself: no install, no CDN, no
 * inline script (the room page's CSP allows only its own files: those built from renderer/roomPages/shadowPage.ts).
 */
export function shadowPageHtml(t: RoomWords): string {
  const w = (id: RoomMessageId) => escapeXml(t(id));
  return `${roomPageStartHtml({ name: 'shadow', title: 'room.shadow.title', heading: 'room.shadow.heading', intro: 'room.shadow.intro' }, t)}<main id="room" hidden>
  <p id="status" role="status"></p>
  <section id="lead" hidden aria-label="${w('room.shadow.region.expert')}"></section>
  <article id="item" hidden aria-label="${w('room.shadow.region.item')}">
    <div class="item-head"><code id="item-id"></code><span id="rec" class="rec" hidden>${w('room.shadow.recording')}</span><span id="item-state" class="muted"></span></div>
    <blockquote id="context" class="context" hidden></blockquote>
    <blockquote id="text" class="text" aria-label="${w('room.shadow.region.itemText')}"></blockquote>
    <p id="selection" class="muted"></p>
    <section id="practice" aria-label="${w('room.shadow.region.practice')}"></section>
    <section id="expert" aria-label="${w('room.shadow.region.herLabels')}"></section>
    <section id="transcript" aria-label="${w('room.shadow.region.herTranscript')}">
      <h2>${w('room.shadow.transcript')} <span class="muted">${w('room.shadow.verbatim')}</span></h2>
      <p id="transcript-text" class="transcript-text" role="log" aria-live="polite" aria-relevant="additions" aria-label="${w('room.shadow.transcript')}"></p>
      <p id="transcript-state" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true"></p>
      <p id="pauses" class="pauses muted"></p>
    </section>
    <section id="reasoning" hidden aria-label="${w('room.shadow.region.reasoning')}"></section>
    <p id="answered" class="muted"></p>
  </article>
  <section id="audio" hidden aria-label="${w('room.shadow.region.herAudio')}">
    <button id="listen" type="button">${w('room.shadow.audio.listen')}</button> <span id="audio-state" class="muted"></span>
  </section>
  <section id="summary" aria-label="${w('room.shadow.region.summary')}"></section>
</main>
</body></html>
`;
}
