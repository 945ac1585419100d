import { escapeXml } from '../../common/io/xmlText';
import type { RoomMessageId, RoomWords } from '../../common/rooms/roomWords';

/**
 * The start of a room page's HTML, shared by both pages: the document head (its own script and style files, built from
 * renderer/roomPages; the room CSP allows only them), the header with the room code and who is watching, and the join
 * form (code and name) — in the member's language (`<html lang>` tells the page's script which one). The join form is
 * the page's main landmark until the room's own <main> replaces it (one of the two is always hidden).
 */
export function roomPageStartHtml(
  page: { name: 'room' | 'shadow'; title: RoomMessageId; heading: RoomMessageId; intro: RoomMessageId },
  t: RoomWords,
): string {
  const w = (id: RoomMessageId) => escapeXml(t(id));
  return `<!doctype html>
<html lang="${t.locale}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${w(page.title)}</title>
<link rel="stylesheet" href="/${page.name}.css">
<script src="/${page.name}.js" defer></script>
</head><body>
<header><h1>${w(page.heading)} <span id="code"></span></h1><div id="who"></div></header>
<main id="join">
  <p>${w(page.intro)}</p>
  <p><button id="come-back" type="button" class="primary" hidden></button></p>
  <label>${w('room.join.code')} <input id="join-code" autocomplete="off" maxlength="12" spellcheck="false"></label>
  <label>${w('room.join.name')} <input id="join-name" autocomplete="name" maxlength="40"></label>
  <label>${w('room.join.rejoinKey')} <span class="muted">${w('room.join.rejoinKeyHint')}</span> <input id="join-key" autocomplete="off" spellcheck="false" maxlength="64"></label>
  <button id="join-button" type="button">${w('room.join.button')}</button>
  <p id="join-error" class="error" role="alert"></p>
</main>
<details id="rejoin" hidden><summary>${w('room.rejoin.summary')}</summary><p>${w('room.rejoin.body')} <code id="rejoin-key"></code></p></details>
`;
}
