import { roomPageBaseJs, roomPageStartHtml } from './roomPageBase';
/**
 * The page trainees open in their browser, served by the shadow room's listener itself: no install, no CDN, no
 * inline script (the room page's CSP allows only these files). Everything from the room is set as text, never as HTML.
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

export const SHADOW_PAGE_CSS = `
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:920px;padding:1rem 1.2rem;color:#1f2328;background:#fafafa}
header{display:flex;justify-content:space-between;align-items:baseline;flex-wrap:wrap;gap:.5rem;border-bottom:1px solid #ddd;margin-bottom:.8rem}
h1{font-size:1.3rem;margin:.4rem 0}h2{font-size:1rem;margin:.2rem 0 .4rem}#code{font-family:monospace;letter-spacing:.15em}
label{display:block;margin:.4rem 0}input{font:inherit;padding:.3rem}
button{font:inherit;margin:.15rem .25rem .15rem 0;padding:.3rem .8rem;cursor:pointer;border:1px solid #9aa4ae;border-radius:5px;background:#fff}
button:hover{background:#eef3fa}button.primary{background:#2f6fad;color:#fff;border-color:#2f6fad}
button:disabled,input:disabled{cursor:not-allowed;opacity:.55}
.muted{color:#6a737d}.error{color:#a00}
#status{font-weight:600;margin:.3rem 0 .8rem;padding:.45rem .7rem;border-radius:6px;background:#eef3fa}
#status.away{background:#fff4e0}#status.closed{background:#f1f1f1}
article{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:.8rem 1rem;margin:.6rem 0}
article.ended{border-color:#c9a227}
.item-head{display:flex;gap:.8rem;align-items:baseline}.rec{color:#c62828;font-weight:600}
blockquote{margin:.5rem 0;padding:.5rem .8rem;border-left:4px solid #2f6fad;background:#f6f8fa;white-space:pre-wrap}
blockquote.context{border-left-color:#aaa;font-style:italic;color:#555}
mark.selected{background:#ffe08a;border-radius:2px;padding:0 .1em}
section{margin:.6rem 0}
#practice{padding:.5rem .7rem;border:1px dashed #2f6fad;border-radius:6px;background:#f5f9ff}
#practice .answer{font-weight:600}#practice p{margin:.25rem 0}#practice h2{margin-top:0}
kbd{font:.8em monospace;border:1px solid #c4cbd2;border-bottom-width:2px;border-radius:3px;padding:0 .3em;margin-right:.35em;background:#f6f8fa;color:#444}
.agree{color:#1a7f37;font-weight:600}.differ{color:#b35900;font-weight:600}
.transcript-text{white-space:pre-line;min-height:1.5em}
mark.commit{background:#d7ecff;border-bottom:2px solid #2f6fad}mark.commit.final{background:#b6dcff;font-weight:600}
.hidden-label{background:#e6e6e6;color:#555;border-radius:3px;padding:0 .35em;font-size:.9em;white-space:nowrap}
.partial{color:#8c959f;font-style:italic}.filler{color:#8c959f}.negation{text-decoration:line-through;text-decoration-color:#c62828}
.mention{border-bottom:1px dotted #888}
.pause.ongoing{color:#b35900;font-weight:600}
ol.acts{margin:.2rem 0;padding-left:1.3rem}
table{border-collapse:collapse;margin:.3rem 0;width:100%}td,th{border:1px solid #d0d7de;padding:.2rem .5rem;text-align:left}
th{background:#f6f8fa}tr.me td{background:#f5f9ff}
#reasoning ol{padding-left:1.3rem}#reasoning ol.own-numbers{list-style:none;padding-left:.3rem}
`;

export const SHADOW_PAGE_JS = String.raw`
'use strict';
(function () {
${roomPageBaseJs('aloud-shadow')}
  var seq = 0, stopped = false, lastView = null;

  function clear(node) { node.textContent = ''; return node; }
  /** draws a part of the page again only when what it shows changed: a button under the mouse stays the same button */
  function redraw(node, key, draw) {
    if (node.dataset.key === key) return;
    node.dataset.key = key;
    clear(node);
    draw(node);
  }
  function secs(ms) { return (ms / 1000).toFixed(1) + ' s'; }
  function alpha(a, ci) { return a === null || a === undefined ? 'not enough data' : a.toFixed(2) + (ci ? ' [' + ci[0].toFixed(2) + ', ' + ci[1].toFixed(2) + ']' : ''); }
  function sourceWords(s) { return s === 'voice' ? 'said aloud' : s === 'key' ? 'by key' : s === 'click' ? 'by click' : s; }
  var HIDDEN = 'her label — hidden until you answer';

  function renderText(item) {
    var s = item.selection;
    $('selection').textContent = s ? 'She selected: “' + s.quote + '”' : '';
    redraw($('text'), JSON.stringify([item.text, s]), function (box) {
      if (!s) { box.textContent = item.text; return; }
      box.appendChild(document.createTextNode(item.text.slice(0, s.start)));
      box.appendChild(el('mark', item.text.slice(s.start, s.end), 'selected'));
      box.appendChild(document.createTextNode(item.text.slice(s.end)));
    });
  }

  function piece(p, labelsHidden) {
    switch (p.kind) {
      case 'hidden': return el('span', labelsHidden ? HIDDEN : 'label phrase', 'hidden-label');
      case 'commit': var m = el('mark', p.text, p.final ? 'commit final' : 'commit'); m.title = p.final ? 'gives her label ' + p.label : 'committed ' + p.label + ' (not her final label)'; return m;
      case 'negation': var n = el('span', p.text, 'negation'); n.title = p.note; return n;
      case 'mention': var x = el('span', p.text, 'mention'); x.title = p.note; return x;
      case 'filler': return el('span', p.text, 'filler');
      default: return document.createTextNode(p.text);
    }
  }

  function renderTranscript(item) {
    var box = clear($('transcript-text'));
    var hidden = !item.expert.shown;
    item.transcript.forEach(function (p) { box.appendChild(piece(p, hidden)); });
    if (item.partial) {
      var span = el('span', null, 'partial');
      span.setAttribute('aria-label', 'still being transcribed');
      if (item.transcript.length) span.appendChild(document.createTextNode(' '));
      item.partial.forEach(function (p) { span.appendChild(piece(p, hidden)); });
      box.appendChild(span);
    }
    if (!item.transcript.length && !item.partial) box.appendChild(el('span', item.recording ? 'Listening…' : 'Nothing said yet.', 'muted'));
    var pauses = clear($('pauses'));
    if (item.pauses.length) {
      pauses.appendChild(document.createTextNode('Pauses: '));
      item.pauses.forEach(function (p, i) {
        if (i > 0) pauses.appendChild(document.createTextNode(' · '));
        pauses.appendChild(el('span', p.ended ? secs(p.ms) : 'pausing ' + secs(p.ms) + '…', p.ended ? 'pause' : 'pause ongoing'));
      });
    }
  }

  function renderExpert(view, item) {
    redraw($('expert'), JSON.stringify([view.expert.name, item.item_id, item.expert]), function (box) { drawExpert(view, item, box); });
  }
  function drawExpert(view, item, box) {
    var name = view.expert.name || 'the expert';
    if (!item.expert.shown) {
      box.appendChild(el('p', item.expert.has_labelled ? name + ' has given her label. Give yours first: hers stays hidden until you answer or skip.' : name + ' has not labelled this item yet.', 'muted'));
      return;
    }
    var e = item.expert;
    box.appendChild(el('h2', 'Her labels'));
    if (e.prior) box.appendChild(el('p', 'Labelled before the room: ' + e.prior.final_label + (e.prior.blind_label !== e.prior.final_label ? ' (first ' + e.prior.blind_label + ')' : ''), 'muted'));
    if (!e.acts.length && !e.prior) { box.appendChild(el('p', 'No label yet.', 'muted')); return; }
    var list = el('ol', null, 'acts');
    e.acts.forEach(function (a) {
      var li = el('li');
      li.appendChild(el('strong', a.label, 'expert-label'));
      li.appendChild(document.createTextNode(' — ' + sourceWords(a.source) + (a.quote ? ': “' + a.quote + '”' : '') + ' · ' + new Date(a.at).toLocaleTimeString()));
      list.appendChild(li);
    });
    box.appendChild(list);
    if (e.final_label) box.appendChild(el('p', 'Her label: ' + e.final_label + (e.blind_label && e.blind_label !== e.final_label ? ' (her first was ' + e.blind_label + ')' : ''), 'final-line'));
  }

  function renderPractice(view, item) {
    var box = $('practice');
    box.hidden = view.me.role !== 'trainee';
    if (box.hidden) return;
    var writable = !view.closed && !view.log.full && !view.me.share_full;
    redraw(box, JSON.stringify([item.item_id, item.live, item.practice.mine, writable, view.labels, item.expert.shown && item.expert.final_label]), function () { drawPractice(view, item, box, writable); });
  }
  function drawPractice(view, item, box, writable) {
    var mine = item.practice.mine;
    if (mine) {
      var p = el('p');
      p.appendChild(document.createTextNode('Your answer: '));
      p.appendChild(el('span', mine.label === null ? 'skipped' : mine.label, 'answer'));
      p.appendChild(document.createTextNode(' after ' + secs(mine.ms) + '. '));
      var fin = item.expert.shown ? item.expert.final_label : null;
      var first = item.expert.shown ? item.expert.blind_label : null;
      if (mine.label !== null && fin) {
        p.appendChild(el('span', mine.label === fin ? 'Same as hers.' : 'She said ' + fin + '.', mine.label === fin ? 'agree' : 'differ'));
        if (first && first !== fin) p.appendChild(document.createTextNode(mine.label === first ? ' Her first label was yours, ' + first + '.' : ' Her first label was ' + first + '.'));
      }
      box.appendChild(p);
      return;
    }
    if (!item.live) { box.appendChild(el('p', 'You did not answer on this item.', 'muted')); return; }
    box.appendChild(el('h2', 'Your label for this item, before you see hers'));
    var row = el('div', null, 'labels');
    view.labels.forEach(function (label, i) {
      var b = el('button');
      if (i < 9) b.appendChild(el('kbd', String(i + 1)));
      b.appendChild(document.createTextNode(label));
      b.title = i < 9 ? 'Answer ' + label + ' (key ' + (i + 1) + ')' : 'Answer ' + label;
      b.dataset.label = label;
      b.disabled = !writable;
      b.addEventListener('click', function () { practise(item.item_id, label); });
      row.appendChild(b);
    });
    var skip = el('button', null, 'skip');
    skip.appendChild(el('kbd', 'S'));
    skip.appendChild(document.createTextNode('Skip'));
    skip.title = 'Skip this item (key S)';
    skip.type = 'button';
    skip.disabled = !writable;
    skip.addEventListener('click', function () { practise(item.item_id, null); });
    row.appendChild(skip);
    box.appendChild(row);
  }

  function renderReasoning(item) {
    var box = $('reasoning');
    box.hidden = !item.reasoning;
    if (!item.reasoning) return;
    redraw(box, JSON.stringify(item.reasoning), function () { drawReasoning(item, box); });
  }
  function drawReasoning(item, box) {
    box.appendChild(el('h2', 'The model’s reasoning (she has seen it)'));
    // steps that carry their own numbers ("1. …") are not numbered twice
    var numbered = item.reasoning.steps.every(function (s) { return /^\s*\d+[.)]\s/.test(s); });
    var ol = el('ol', null, numbered ? 'own-numbers' : '');
    item.reasoning.steps.forEach(function (s) { ol.appendChild(el('li', s)); });
    box.appendChild(ol);
    if (item.reasoning.model_label) box.appendChild(el('p', 'The model’s answer: ' + item.reasoning.model_label, 'muted'));
  }

  function renderItem(view) {
    var item = view.current;
    $('item').hidden = !item;
    if (!item) return;
    $('item').className = item.live ? '' : 'ended';
    $('item').dataset.item = item.item_id;
    $('item-id').textContent = item.item_id;
    $('rec').hidden = !item.recording;
    var ended = item.ended === 'room_closed' ? 'the room closed on this item' : item.ended === 'expert_left' ? 'her session ended on this item' : 'she left this item';
    $('item-state').textContent = item.live ? (item.completed ? 'completed' : '') : ended + (item.completed ? ' (completed)' : '');
    var ctx = $('context');
    ctx.hidden = !item.context;
    ctx.textContent = item.context || '';
    renderText(item);
    renderPractice(view, item);
    renderExpert(view, item);
    renderTranscript(item);
    renderReasoning(item);
    var answered = $('answered');
    if (item.practice.answers) {
      var names = Object.keys(item.practice.answers);
      answered.textContent = names.length ? 'Answers: ' + names.map(function (n) { var a = item.practice.answers[n]; return n + ' ' + (a === null ? 'skipped' : a); }).join(' · ') : 'Nobody answered on this item.';
    } else {
      answered.textContent = item.practice.answered.length ? 'Answered so far: ' + item.practice.answered.join(', ') : 'Nobody has answered yet.';
    }
  }

  function renderSummary(view) {
    redraw($('summary'), JSON.stringify([view.expert.name, view.me, view.metrics]), function (box) { drawSummary(view, box); });
  }
  function drawSummary(view, box) {
    var m = view.metrics;
    box.appendChild(el('h2', 'Agreement with ' + (view.expert.name || 'the expert') + ' (' + m.items + ' item' + (m.items === 1 ? '' : 's') + ' done)'));
    if (!m.trainees.length) { box.appendChild(el('p', 'No trainees yet.', 'muted')); return; }
    var t = el('table');
    var h = el('tr');
    ['trainee', 'answered', 'skipped', 'same as her final', 'α vs her final (95% CI)', 'α vs her first', 'median time'].forEach(function (x) { h.appendChild(el('th', x)); });
    t.appendChild(h);
    m.trainees.forEach(function (row) {
      var r = el('tr', null, view.me.role === 'trainee' && row.name === view.me.name ? 'me' : '');
      [row.name, row.answered, row.skipped, row.agree_final + ' of ' + row.answered, alpha(row.alpha_final, row.ci95_final), alpha(row.alpha_blind, null), row.median_ms === null ? '—' : secs(row.median_ms)].forEach(function (x) { r.appendChild(el('td', x)); });
      t.appendChild(r);
    });
    box.appendChild(t);
    if (m.diverged_most.length) {
      box.appendChild(el('h2', 'Where trainees answered otherwise most (for discussion)'));
      var ul = el('ul', null, 'diverged');
      m.diverged_most.forEach(function (d) { ul.appendChild(el('li', d.item_id + ': ' + d.diverged + ' of ' + d.answered + ' answered otherwise (she said ' + d.expert_final + ')')); });
      box.appendChild(ul);
    }
  }

  function renderLead(view) {
    var box = $('lead');
    box.hidden = view.me.role !== 'expert';
    if (box.hidden) return;
    redraw(box, JSON.stringify([view.trainees, view.max_members, view.audio_shared, view.closed]), function () { drawLead(view, box); });
  }
  function drawLead(view, box) {
    box.appendChild(el('h2', 'Your room: ' + view.trainees.length + ' of ' + view.max_members + ' trainees'));
    var audio = el('button', view.audio_shared ? 'Stop sharing my audio' : 'Share my audio', view.audio_shared ? 'primary' : '');
    audio.type = 'button';
    audio.disabled = view.closed;
    audio.addEventListener('click', function () { send('/api/lead/audio', { on: !view.audio_shared }); });
    box.appendChild(audio);
    box.appendChild(memberList(view.trainees));
    closeRoomButton(box, view);
  }

  function statusOf(view) {
    var name = view.expert.name || 'the expert';
    if (view.closed) return ['The room was closed. Thank you for taking part.', 'closed'];
    if (view.log.feed_stopped) return ['The room log is full: live view has stopped.', 'away'];
    if (view.log.full) return ['The room log is full: no more answers.', 'away'];
    if (view.me.role === 'trainee' && view.me.share_full) return ['Your share of the room log is full: no more answers from you.', 'away'];
    if (!view.expert.present) return [view.current ? name + ' has left. You can read the last item; the room waits for her to come back.' : 'Waiting for ' + name + ' to start…', 'away'];
    if (view.current && !view.current.live) return [name + ' left this item.', 'away'];
    if (!view.current) return [name + ' is here; waiting for her to open an item.', ''];
    return ['Live: ' + name + ' is labelling ' + view.current.item_id + '.', 'live'];
  }

  function render(view) {
    lastView = view;
    $('code').textContent = view.code;
    $('who').textContent = view.me.role === 'expert' ? 'You are the expert' : 'You are ' + view.me.name + ' · shadowing ' + (view.expert.name || 'the expert');
    var s = statusOf(view);
    $('status').textContent = s[0];
    $('status').className = s[1];
    renderLead(view);
    renderItem(view);
    renderSummary(view);
    $('audio').hidden = !(view.audio_shared && view.me.role === 'trainee' && view.current && view.current.live);
  }

  function practise(itemId, label) {
    send('/api/practice', { item_id: itemId, label: label });
  }
  function send(path, body) {
    return api('POST', path, body).then(function (r) {
      if (r.status >= 400) $('status').textContent = r.data.error || ('request refused (' + r.status + ')');
      return r;
    });
  }

  var timer = null;
  function poll() {
    if (stopped) return;
    // the answer waits until the room changes (at most 10 s): live without asking every moment
    api('GET', '/api/state?after=' + seq + '&wait=1').then(function (r) {
      if (r.status === 401 || r.status === 403) {
        stopped = true;
        forgetTokens();
        $('status').textContent = r.data.error || 'You are no longer in this room.';
        $('item').hidden = true;
        return;
      }
      if (r.status === 200 && !r.data.unchanged) {
        seq = r.data.seq;
        render(r.data);
        // a closed room changes no more: nothing left to ask
        if (r.data.closed) { stopped = true; stopListening(); return; }
      }
      timer = setTimeout(poll, r.status === 429 ? r.retry * 1000 : r.status === 200 ? 0 : 1000);
    }, function () {
      // the host went away for a moment: ask again from the same cursor
      $('status').textContent = 'The room host cannot be reached; retrying…';
      $('status').className = 'away';
      timer = setTimeout(poll, 2000);
    });
  }

  // her audio, only while she shares it: 16-bit samples fetched in order and played back to back
  var audio = null;
  function stopListening() {
    if (!audio) return;
    audio.stop = true;
    audio.ctx.close();
    audio = null;
    $('listen').textContent = 'Listen to her';
    $('audio-state').textContent = '';
  }
  function listen() {
    if (audio) { stopListening(); return; }
    var ctx = new AudioContext();
    audio = { ctx: ctx, next: 0, from: null, stop: false, item: null };
    $('listen').textContent = 'Stop listening';
    var a = audio;
    function fetchMore() {
      if (a.stop || !lastView || !lastView.audio_shared || !lastView.current || !lastView.current.live) { if (a === audio) stopListening(); return; }
      var item = lastView.current.item_id;
      if (a.item !== item) { a.item = item; a.from = null; }
      fetch('/api/audio?item=' + encodeURIComponent(item) + (a.from === null ? '' : '&from=' + a.from) + '&wait=1', { headers: { 'Authorization': 'Bearer ' + token }, cache: 'no-store' }).then(function (r) {
        if (r.status !== 200) { $('audio-state').textContent = 'not available now'; setTimeout(fetchMore, 1500); return; }
        var start = Number(r.headers.get('X-Audio-Start'));
        var rate = Number(r.headers.get('X-Audio-Rate'));
        return r.arrayBuffer().then(function (bytes) {
          var samples = new Int16Array(bytes);
          a.from = start + samples.length;
          if (samples.length) {
            var buffer = ctx.createBuffer(1, samples.length, rate);
            var data = buffer.getChannelData(0);
            for (var i = 0; i < samples.length; i++) data[i] = samples[i] / 32768;
            var src = ctx.createBufferSource();
            src.buffer = buffer;
            src.connect(ctx.destination);
            a.next = Math.max(a.next, ctx.currentTime + 0.15);
            src.start(a.next);
            a.next += buffer.duration;
            $('audio-state').textContent = 'listening';
          }
          setTimeout(fetchMore, 0);
        });
      }, function () { setTimeout(fetchMore, 2000); });
    }
    fetchMore();
  }
  $('listen').addEventListener('click', listen);

  function enter() {
    $('join').hidden = true;
    $('room').hidden = false;
    showRejoinKey();
    clearTimeout(timer);
    poll();
  }

  // the practice keys: 1–9 answer with the n-th label, S skips; never while typing, never a held key
  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || e.defaultPrevented) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if ($('room').hidden) return;
    var target = null;
    if (/^[1-9]$/.test(e.key)) target = document.querySelectorAll('#practice button[data-label]')[Number(e.key) - 1] || null;
    else if (e.key === 's' || e.key === 'S') target = document.querySelector('#practice button.skip');
    if (!target || target.disabled) return;
    e.preventDefault();
    target.click();
  });
  // Enter in the join form joins, as in any form
  ['join-code', 'join-name'].forEach(function (id) {
    $(id).addEventListener('keydown', function (e) { if (e.key === 'Enter' && !e.isComposing) { e.preventDefault(); $('join-button').click(); } });
  });

  $('join-code').value = new URLSearchParams(location.search).get('code') || '';
  $('join-button').addEventListener('click', function () { joinOrRejoin(enter); });
  offerComeBack(enter);
  if (token) enter();
  window.aloudShadow = { view: function () { return lastView; } };
})();
`;
