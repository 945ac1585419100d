import { roomPageBaseJs, roomPageStartHtml } from './roomPageBase';
/**
 * The page members open in their browser, served by the room listener itself: no install, no CDN, no inline
 * script (the CSP allows only these files). Votes and names are always set as text, never as HTML.
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

export const ROOM_PAGE_CSS = `
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:900px;padding:1rem;color:#222}
h1{font-size:1.3rem}#code{font-family:monospace;letter-spacing:.15em}
label{display:block;margin:.4rem 0}input{font:inherit;padding:.3rem}
button{font:inherit;margin:.15rem;padding:.3rem .7rem;cursor:pointer}
button.mine{background:#2f6fad;color:#fff;border-color:#2f6fad}
.item{border:1px solid #ccc;border-radius:6px;padding:.6rem .8rem;margin:.7rem 0}
.item.revealed{border-color:#2f6fad}.muted{color:#777}.error{color:#a00}
.context{color:#555;font-style:italic;white-space:pre-wrap}.text{white-space:pre-wrap}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.15rem .45rem;text-align:left}
#metrics{display:flex;gap:1.5rem;flex-wrap:wrap}.alpha{font-size:1.6rem;font-weight:600}
#chat-log li.from-lead{background:#eef3fa}.lead-badge{background:#2f6fad;color:#fff;border-radius:3px;padding:0 .35rem;font-size:.85em}
button:disabled,input:disabled{cursor:not-allowed;opacity:.55}
`;

export const ROOM_PAGE_JS = String.raw`
'use strict';
(function () {
${roomPageBaseJs('aloud-room')}
  var seq = 0, chatSeq = 0, stopped = false, lastView = null;

  function fmt(x) { return x === null || x === undefined ? '—' : x.toFixed(3); }
  function ci(c) { return c ? '[' + c[0].toFixed(2) + ', ' + c[1].toFixed(2) + ']' : ''; }
  function why(reason) {
    return reason === 'fewer_than_two_pairable_units' ? 'not enough data yet (needs two revealed items with two votes)' :
      reason === 'no_variation' ? 'not enough data: every vote is the same' : '';
  }

  function renderMetrics(m) {
    var box = $('metrics');
    box.textContent = '';
    [['Blind α', m.alpha_blind, m.ci95_blind, m.undefined_reason_blind], ['Current α', m.alpha_current, m.ci95_current, m.undefined_reason_current]].forEach(function (row) {
      var d = el('div', null, 'metric');
      d.appendChild(el('div', row[0] + ' (' + m.revealed_items + ' revealed)', 'muted'));
      d.appendChild(el('div', fmt(row[1]), 'alpha'));
      d.appendChild(el('div', row[1] === null ? why(row[3]) : '95% ' + ci(row[2]), 'muted'));
      box.appendChild(d);
    });
    var t = el('table');
    var h = el('tr');
    ['member', 'votes', 'changes', 'toward the others’ majority'].forEach(function (x) { h.appendChild(el('th', x)); });
    t.appendChild(h);
    m.conformity.forEach(function (c) {
      var r = el('tr');
      [c.name, c.votes, c.changes, c.changes_toward_majority].forEach(function (x) { r.appendChild(el('td', x)); });
      t.appendChild(r);
    });
    var wrap = el('div', null, 'conformity');
    wrap.appendChild(t);
    box.appendChild(wrap);
  }

  function votesTable(title, votes) {
    var wrap = el('div');
    wrap.appendChild(el('div', title, 'muted'));
    var t = el('table');
    Object.keys(votes).forEach(function (name) {
      var r = el('tr');
      r.appendChild(el('td', name));
      r.appendChild(el('td', votes[name], 'vote'));
      t.appendChild(r);
    });
    wrap.appendChild(t);
    return wrap;
  }

  function renderItems(view) {
    var box = $('items');
    box.textContent = '';
    view.items.forEach(function (item) {
      var card = el('article', null, 'item' + (item.revealed ? ' revealed' : ''));
      card.dataset.item = item.item_id;
      card.appendChild(el('h3', item.item_id + (item.revealed ? ' · revealed' : ' · blind')));
      if (item.context) card.appendChild(el('div', item.context, 'context'));
      card.appendChild(el('div', item.text, 'text'));
      card.appendChild(el('div', 'Voted: ' + (item.voted.length ? item.voted.join(', ') : 'nobody yet'), 'muted voted'));
      if (view.me.role === 'member') {
        var buttons = el('div', null, 'labels');
        view.labels.forEach(function (label) {
          var b = el('button', label, item.my_vote === label ? 'mine' : '');
          b.type = 'button';
          b.disabled = !canWrite(view);
          b.dataset.label = label;
          b.addEventListener('click', function () { send('/api/vote', { item_id: item.item_id, label: label }); });
          buttons.appendChild(b);
        });
        card.appendChild(buttons);
      }
      if (view.me.role === 'lead' && !item.revealed && !view.closed) {
        var reveal = el('button', 'Reveal', 'reveal');
        reveal.type = 'button';
        reveal.addEventListener('click', function () { send('/api/lead/reveal', { item_id: item.item_id }); });
        card.appendChild(reveal);
      }
      if (item.revealed) {
        card.appendChild(votesTable('Blind votes', item.blind_votes));
        card.appendChild(votesTable('Votes now', item.current_votes));
        if (item.changes.length) {
          var list = el('ul', null, 'changes');
          item.changes.forEach(function (c) {
            list.appendChild(el('li', c.name + ': ' + (c.from === null ? 'first vote' : c.from) + ' → ' + c.to + ' (others’ majority: ' + (c.majority_of_others === null ? 'none' : c.majority_of_others) + ')'));
          });
          card.appendChild(list);
        }
      }
      box.appendChild(card);
    });
  }

  function renderLead(view) {
    var box = $('lead');
    box.hidden = view.me.role !== 'lead';
    if (box.hidden) return;
    box.textContent = '';
    box.appendChild(el('h2', 'Lead: members (' + view.members.length + ' of ' + view.max_members + ')'));
    box.appendChild(memberList(view.members));
    closeRoomButton(box, view);
  }

  /** votes and chat are open: the room is not closed and the log (and this member's share of it) not full */
  function canWrite(view) {
    return !view.closed && !view.log.full && !(view.me.role === 'member' && view.me.share_full);
  }
  function statusOf(view) {
    if (view.closed) return 'The room was closed. Thank you for taking part.';
    if (view.log.full) return 'The room log is full: no more votes or chat. The lead can still reveal items and close the room.';
    if (view.me.role === 'member' && view.me.share_full) return 'Your share of the room log is full: no more votes or chat from you. The lead can still reveal items.';
    return 'Vote on each item; votes stay hidden until the lead reveals the item.';
  }

  function render(view) {
    lastView = view;
    $('code').textContent = view.code;
    $('who').textContent = view.me.role === 'lead' ? 'You lead this room' : 'You are ' + view.me.name;
    $('status').textContent = statusOf(view);
    $('chat-text').disabled = $('chat-send').disabled = !canWrite(view);
    renderMetrics(view.metrics);
    renderLead(view);
    renderItems(view);
    view.chat.forEach(function (c) {
      // who wrote it comes from the room (role), never from the name: a member cannot pass for the lead
      var li = el('li', null, c.role === 'lead' ? 'from-lead' : 'from-member');
      li.appendChild(c.role === 'lead' ? el('strong', 'Lead', 'lead-badge') : el('span', c.from, 'chat-name'));
      li.appendChild(document.createTextNode(': ' + c.text));
      $('chat-log').appendChild(li);
      chatSeq = Math.max(chatSeq, c.seq);
    });
  }

  function send(path, body) {
    return api('POST', path, body).then(function (r) {
      if (r.status >= 400) $('status').textContent = r.data.error || ('request refused (' + r.status + ')');
      else poll();
      return r;
    });
  }

  var timer = null, inflight = false, again = false;
  function run() {
    if (stopped) return;
    inflight = true;
    api('GET', '/api/state?after=' + seq + '&chat_after=' + chatSeq).then(function (r) {
      inflight = false;
      if (r.status === 401 || r.status === 403) {
        stopped = true;
        forgetTokens();
        $('status').textContent = r.data.error || 'You are no longer in this room.';
        $('items').textContent = '';
        return;
      }
      if (r.status === 200 && !r.data.unchanged) {
        seq = r.data.seq;
        render(r.data);
        // a closed room changes no more: nothing left to ask
        if (r.data.closed) { stopped = true; return; }
        // more chat than one answer holds: ask for the next page right away
        if (r.data.chat_more) { seq = 0; again = true; }
      }
      if (again) { again = false; run(); return; }
      timer = setTimeout(run, r.status === 429 ? r.retry * 1000 : 1000);
    }, function () {
      inflight = false;
      $('status').textContent = 'The room host cannot be reached; retrying…';
      timer = setTimeout(run, 2000);
    });
  }
  /** one poll loop only: a poll asked for while one is in flight runs right after it */
  function poll() {
    if (stopped) return;
    clearTimeout(timer);
    if (inflight) { again = true; return; }
    run();
  }

  function enter() {
    $('join').hidden = true;
    $('room').hidden = false;
    showRejoinKey();
    poll();
  }

  $('join-code').value = new URLSearchParams(location.search).get('code') || '';
  $('join-button').addEventListener('click', function () { joinOrRejoin(enter); });
  offerComeBack(enter);
  $('chat-send').addEventListener('click', function () {
    var text = $('chat-text').value;
    if (!text.trim()) return;
    send('/api/chat', { text: text }).then(function (r) { if (r.status < 400) $('chat-text').value = ''; });
  });
  if (token) enter();
  window.aloudRoom = { view: function () { return lastView; } };
})();
`;
