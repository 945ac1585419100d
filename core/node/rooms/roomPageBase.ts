/**
 * The start of a room page's HTML, shared by both pages: the document head (its own script and style files, built from
 * renderer/roomPages; the room CSP allows only them), the header with the room code and who is watching, and the join form (code and name).
 */
export function roomPageStartHtml(page: { name: 'room' | 'shadow'; title: string; heading: string; intro: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
<link rel="stylesheet" href="/${page.name}.css">
<script src="/${page.name}.js" defer></script>
</head><body>
<header><h1>${page.heading} <span id="code"></span></h1><div id="who"></div></header>
<section id="join">
  <p>${page.intro}</p>
  <p><button id="come-back" type="button" class="primary" hidden></button></p>
  <label>Room code <input id="join-code" autocomplete="off" maxlength="12" spellcheck="false"></label>
  <label>Your name <input id="join-name" autocomplete="name" maxlength="40"></label>
  <label>Rejoin key <span class="muted">(only to come back under the name you joined with, from another browser)</span> <input id="join-key" autocomplete="off" spellcheck="false" maxlength="64"></label>
  <button id="join-button" type="button">Join</button>
  <p id="join-error" class="error" role="alert"></p>
</section>
<details id="rejoin" hidden><summary>Your rejoin key</summary><p>This browser keeps it. To come back under your name from another browser or device, type it in the join form: <code id="rejoin-key"></code></p></details>
`;
}
