/**
 * What the norming room's page and the shadow room's page share, as the first lines of their script (inside its
 * function): `$` and `el` to build the page, the viewer's token (the lead's or expert's from `#lead=` in the address,
 * which leaves the address bar as soon as it is read, else the member's from this tab's storage), `api` for the
 * room's API, and `memberList` / `closeRoomButton` for the lead's panel. `storage` names the tab's storage keys
 * (`<storage>-lead`, `<storage>-token`); `send(path, body)` is each page's own (what it does after an answer).
 */
export function roomPageBaseJs(storage: 'aloud-room' | 'aloud-shadow'): string {
  return String.raw`
  var $ = function (id) { return document.getElementById(id); };
  var lead = null;
  if (/^#lead=/.test(location.hash)) {
    lead = decodeURIComponent(location.hash.slice(6));
    sessionStorage.setItem('${storage}-lead', lead);
    history.replaceState(null, '', location.pathname + location.search);
  } else {
    lead = sessionStorage.getItem('${storage}-lead');
  }
  var token = lead || sessionStorage.getItem('${storage}-token');

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function api(method, path, body) {
    var headers = { 'Accept': 'application/json' };
    if (token) headers['Authorization'] = 'Bearer ' + token;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' })
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (data) { return { status: r.status, data: data, retry: Number(r.headers.get('Retry-After') || '1') }; });
      });
  }
  /** the lead's list of members, each with a Remove button that asks first */
  function memberList(members) {
    var list = el('ul');
    members.forEach(function (m) {
      var li = el('li', m.name + ' ');
      var b = el('button', 'Remove', 'remove');
      b.type = 'button';
      b.addEventListener('click', function () { if (confirm('Remove ' + m.name + '?')) send('/api/lead/remove', { member_id: m.member_id }); });
      li.appendChild(b);
      list.appendChild(li);
    });
    return list;
  }
  /** the lead's Close button, which asks first (none once the room is closed) */
  function closeRoomButton(box, view) {
    if (view.closed) return;
    var close = el('button', 'Close the room', 'close-room');
    close.type = 'button';
    close.addEventListener('click', function () { if (confirm('Close the room for everyone?')) send('/api/lead/close', {}); });
    box.appendChild(close);
  }
`;
}

/**
 * The start of a room page's HTML, shared by both pages: the document head (its own script and style files, which the
 * room CSP allows), the header with the room code and who is watching, and the join form (code and name).
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
  <label>Room code <input id="join-code" autocomplete="off" maxlength="12" spellcheck="false"></label>
  <label>Your name <input id="join-name" autocomplete="name" maxlength="40"></label>
  <button id="join-button" type="button">Join</button>
  <p id="join-error" class="error" role="alert"></p>
</section>
`;
}
