/**
 * What the norming room's page and the shadow room's page share, as the first lines of their script (inside its
 * function): `$` and `el` to build the page, the viewer's token (the lead's or expert's from `#lead=` in the address,
 * which leaves the address bar as soon as it is read, else the member's, kept by this browser as their rejoin key), `api` for the
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
  // this tab's member (a reload stays in the room); a member's token is also their rejoin key, kept by the browser
  // (localStorage) so a new tab offers to come back under their name — offers, as one browser may serve two people
  var token = lead || sessionStorage.getItem('${storage}-token');
  function keepMemberToken(t, name) {
    token = t;
    sessionStorage.setItem('${storage}-token', t);
    localStorage.setItem('${storage}-token', t);
    if (name) localStorage.setItem('${storage}-name', name);
  }
  function forgetTokens() {
    if (localStorage.getItem('${storage}-token') === token) {
      localStorage.removeItem('${storage}-token');
      localStorage.removeItem('${storage}-name');
    }
    sessionStorage.removeItem('${storage}-token');
    sessionStorage.removeItem('${storage}-lead');
  }
  /** a member this browser kept: the join form offers "Come back as NAME" (the host checks the key when it is used) */
  function offerComeBack(onEntered) {
    var kept = localStorage.getItem('${storage}-token');
    var name = localStorage.getItem('${storage}-name');
    var button = $('come-back');
    if (token || !kept || !name || !button) return;
    button.hidden = false;
    button.textContent = 'Come back as ' + name;
    button.addEventListener('click', function () { $('join-key').value = kept; joinOrRejoin(onEntered); });
  }
  /** the member's rejoin key, shown to them once in the room: typed in another browser it brings them back as themselves */
  function showRejoinKey() {
    var box = $('rejoin');
    if (!box || lead || !token) return;
    box.hidden = false;
    $('rejoin-key').textContent = token;
  }
  /**
   * The join form: with a rejoin key, the member it belongs to comes back (the host knows them by it; no new member);
   * without, a new member joins under the name given.
   */
  function joinOrRejoin(onEntered) {
    var key = $('join-key').value.trim();
    if (key) {
      var before = token;
      token = key;
      return api('GET', '/api/state').then(function (r) {
        if (r.status === 200 && r.data.me && r.data.me.role !== 'lead' && r.data.me.role !== 'expert') { keepMemberToken(key, r.data.me.name); onEntered(); return; }
        token = before;
        $('join-error').textContent = r.status === 200 ? 'that key is the lead’s, not a member’s' : 'this rejoin key is not one of this room’s members (or the member was removed): check it, or join under a new name';
      });
    }
    return api('POST', '/api/join', { code: $('join-code').value, name: $('join-name').value }).then(function (r) {
      if (r.status !== 200) {
        $('join-error').textContent = (r.data.error || ('could not join (' + r.status + ')')) + (r.status === 409 ? ' — if that is you, type the rejoin key you were shown when you joined.' : '');
        return;
      }
      keepMemberToken(r.data.token, r.data.name);
      onEntered();
    });
  }

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
