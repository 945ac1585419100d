import type { ShadowItemView, ShadowPiece, ShadowView } from '../../core/common/rooms/shadowViews';
import { $, button, el, FOLLOW_GAP_MS, followDelay, refusalText, RoomFollower, RoomPageShell } from './roomPageBase';
import {
  actLine,
  answeredText,
  audioOffered,
  audioPath,
  divergedLine,
  expertName,
  hiddenLabel,
  hiddenExpertText,
  itemStateText,
  parserNoteText,
  pcm16ToFloat,
  practiceKey,
  practiceVerdict,
  practiceWritable,
  secs,
  shadowStatePath,
  shadowStatus,
  shadowWhoLine,
  stepsNumberThemselves,
  summaryTitle,
  traineeRow,
} from './shadowPageText';
import { speakPageLanguage } from './pageLanguage';
import { t } from './roomLanguage';
import './joinForm.css';
import './shadow.css';

/**
 * The page trainees open in their browser, served by the shadow room's listener itself: no install, no CDN, no inline
 * script (the room page's CSP allows only this file and its stylesheet). Everything from the room is set as text,
 * never as HTML.
 */

speakPageLanguage();
let lastView: ShadowView | null = null;
const shell = new RoomPageShell('aloud-shadow', send);

function clear<T extends HTMLElement>(node: T): T {
  node.textContent = '';
  return node;
}

/** Draws a part of the page again only when what it shows changed: a button under the mouse stays the same button. */
function redraw(node: HTMLElement, key: unknown, draw: (node: HTMLElement) => void): void {
  const k = JSON.stringify(key);
  if (node.dataset.key === k) return;
  node.dataset.key = k;
  clear(node);
  draw(node);
}

function withTitle<T extends HTMLElement>(node: T, title: string): T {
  node.title = title;
  return node;
}

function renderText(item: ShadowItemView): void {
  const s = item.selection;
  $('selection').textContent = s ? t('room.shadow.selected', { quote: s.quote }) : '';
  redraw($('text'), [item.text, s], (box) => {
    if (!s) {
      box.textContent = item.text;
      return;
    }
    box.appendChild(document.createTextNode(item.text.slice(0, s.start)));
    box.appendChild(el('mark', item.text.slice(s.start, s.end), 'selected'));
    box.appendChild(document.createTextNode(item.text.slice(s.end)));
  });
}

function piece(p: ShadowPiece, labelsHidden: boolean): Node {
  switch (p.kind) {
    case 'hidden':
      return el('span', labelsHidden ? hiddenLabel() : t('room.shadow.labelPhrase'), 'hidden-label');
    case 'commit':
      return withTitle(
        el('mark', p.text, p.final ? 'commit final' : 'commit'), // i18n-ignore: class names
        t(p.final ? 'room.shadow.commitFinal' : 'room.shadow.commit', { label: p.label }),
      );
    case 'negation':
      return withTitle(el('span', p.text, 'negation'), parserNoteText(p));
    case 'mention':
      return withTitle(el('span', p.text, 'mention'), parserNoteText(p));
    case 'filler':
      return el('span', p.text, 'filler');
    default:
      return document.createTextNode(p.text);
  }
}

/** Her final transcript as drawn, piece by piece: what she says next is appended, never redrawn, so it is read once. */
let drawnFinals: { item: string; hidden: boolean; pieces: Array<{ piece: ShadowPiece; nodes: Node[] }> } | null = null;

function renderFinals(box: HTMLElement, item: ShadowItemView, hidden: boolean): void {
  if (drawnFinals?.item !== item.item_id || drawnFinals.hidden !== hidden) {
    clear(box);
    drawnFinals = { item: item.item_id, hidden, pieces: [] };
  }
  const drawn = drawnFinals.pieces;
  const next = item.transcript;
  let n = 0;
  while (n < drawn.length && n < next.length && JSON.stringify(drawn[n]!.piece) === JSON.stringify(next[n])) n++;
  const old = drawn[n];
  const grown = next[n];
  // the last plain text grew by a final: only its new words are added
  if (n === drawn.length - 1 && old?.piece.kind === 'text' && grown?.kind === 'text' && grown.text.startsWith(old.piece.text)) {
    const rest = document.createTextNode(grown.text.slice(old.piece.text.length));
    box.appendChild(rest);
    drawn[n] = { piece: grown, nodes: [...old.nodes, rest] };
    n++;
  }
  for (const gone of drawn.splice(n)) for (const node of gone.nodes) node.parentNode?.removeChild(node);
  for (const p of next.slice(n)) drawn.push({ piece: p, nodes: [box.appendChild(piece(p, hidden))] });
}

function renderTranscript(item: ShadowItemView): void {
  const box = $('transcript-text');
  const hidden = !item.expert.shown;
  const finals = box.querySelector<HTMLElement>(':scope > .finals') ?? box.appendChild(el('span', null, 'finals'));
  renderFinals(finals, item, hidden);
  // the partial is seen, not read (a growing utterance read word by word is noise): the status below says its state
  box.querySelector(':scope > .partial')?.remove();
  if (item.partial) {
    const span = el('span', null, 'partial');
    span.setAttribute('aria-hidden', 'true');
    if (item.transcript.length) span.appendChild(document.createTextNode(' '));
    for (const p of item.partial) span.appendChild(piece(p, hidden));
    box.appendChild(span);
  }
  const said = item.transcript.length > 0 || item.partial !== null;
  const placeholder = box.querySelector<HTMLElement>(':scope > .muted') ?? box.appendChild(el('span', null, 'muted'));
  placeholder.hidden = said;
  const waiting = said ? '' : t(item.recording ? 'room.shadow.listening' : 'room.shadow.nothingSaid');
  if (placeholder.textContent !== waiting) placeholder.textContent = waiting;
  const state = item.partial ? t('room.shadow.partial') : '';
  if ($('transcript-state').textContent !== state) $('transcript-state').textContent = state;
  const pauses = clear($('pauses'));
  item.pauses.forEach((p, i) => {
    if (i === 0) pauses.appendChild(document.createTextNode(`${t('room.shadow.pauses')} `));
    else pauses.appendChild(document.createTextNode(' · '));
    const text = p.ended ? secs(p.ms) : t('room.shadow.pausing', { duration: secs(p.ms) });
    pauses.appendChild(el('span', text, p.ended ? 'pause' : 'pause ongoing')); // i18n-ignore: class names
  });
}

function drawExpert(view: ShadowView, item: ShadowItemView, box: HTMLElement): void {
  const name = expertName(view);
  const e = item.expert;
  if (!e.shown) {
    box.appendChild(el('p', hiddenExpertText(name, e.has_labelled), 'muted'));
    return;
  }
  box.appendChild(el('h2', t('room.shadow.herLabels')));
  if (e.prior)
    box.appendChild(
      el(
        'p',
        e.prior.blind_label !== e.prior.final_label
          ? t('room.shadow.priorFirst', { label: e.prior.final_label, first: e.prior.blind_label })
          : t('room.shadow.prior', { label: e.prior.final_label }),
        'muted',
      ),
    );
  if (!e.acts.length && !e.prior) {
    box.appendChild(el('p', t('room.shadow.noLabel'), 'muted'));
    return;
  }
  const list = el('ol', null, 'acts');
  for (const a of e.acts) {
    const li = el('li');
    li.appendChild(el('strong', a.label, 'expert-label'));
    li.appendChild(document.createTextNode(actLine(a)));
    list.appendChild(li);
  }
  box.appendChild(list);
  if (e.final_label)
    box.appendChild(
      el(
        'p',
        e.blind_label && e.blind_label !== e.final_label
          ? t('room.shadow.herFinalFirst', { label: e.final_label, first: e.blind_label })
          : t('room.shadow.herFinal', { label: e.final_label }),
        'final-line',
      ),
    );
}

function keyButton(key: string, text: string, title: string, onClick: () => void): HTMLButtonElement {
  const b = button('', '', onClick);
  if (key) b.appendChild(el('kbd', key));
  b.appendChild(document.createTextNode(text));
  b.title = title;
  return b;
}

function drawPractice(view: ShadowView, item: ShadowItemView, box: HTMLElement, writable: boolean): void {
  const mine = item.practice.mine;
  if (mine) {
    const p = el('p');
    p.appendChild(document.createTextNode(`${t('room.shadow.yourAnswer')} `));
    p.appendChild(el('span', mine.label ?? t('room.shadow.skipped'), 'answer'));
    p.appendChild(document.createTextNode(` ${t('room.shadow.yourAnswerAfter', { duration: secs(mine.ms) })} `));
    const verdict = practiceVerdict(mine, item.expert);
    if (verdict) {
      p.appendChild(el('span', verdict.verdict, verdict.agree ? 'agree' : 'differ'));
      if (verdict.first) p.appendChild(document.createTextNode(verdict.first));
    }
    box.appendChild(p);
    return;
  }
  if (!item.live) {
    box.appendChild(el('p', t('room.shadow.notAnswered'), 'muted'));
    return;
  }
  box.appendChild(el('h2', t('room.shadow.yourLabel')));
  const row = el('div', null, 'labels');
  view.labels.forEach((label, i) => {
    const b = keyButton(
      i < 9 ? String(i + 1) : '',
      label,
      i < 9 ? t('room.shadow.answerKey', { label, key: i + 1 }) : t('room.shadow.answer', { label }),
      () => practise(item.item_id, label),
    );
    b.dataset.label = label;
    b.disabled = !writable;
    row.appendChild(b);
  });
  const skip = keyButton('S', t('room.shadow.skip'), t('room.shadow.skipTitle'), () => practise(item.item_id, null));
  skip.className = 'skip';
  skip.disabled = !writable;
  row.appendChild(skip);
  box.appendChild(row);
}

function renderPractice(view: ShadowView, item: ShadowItemView): void {
  const box = $('practice');
  box.hidden = view.me.role !== 'trainee';
  if (box.hidden) return;
  const writable = practiceWritable(view);
  const shownFinal = item.expert.shown && item.expert.final_label;
  redraw(box, [item.item_id, item.live, item.practice.mine, writable, view.labels, shownFinal], () =>
    drawPractice(view, item, box, writable),
  );
}

function renderReasoning(item: ShadowItemView): void {
  const box = $('reasoning');
  const reasoning = item.reasoning;
  box.hidden = !reasoning;
  if (!reasoning) return;
  redraw(box, reasoning, () => {
    box.appendChild(el('h2', t('room.shadow.modelReasoning')));
    const ol = el('ol', null, stepsNumberThemselves(reasoning.steps) ? 'own-numbers' : '');
    for (const s of reasoning.steps) ol.appendChild(el('li', s));
    box.appendChild(ol);
    if (reasoning.model_label) box.appendChild(el('p', t('room.shadow.modelAnswer', { label: reasoning.model_label }), 'muted'));
  });
}

function renderItem(view: ShadowView): void {
  const item = view.current;
  const article = $('item');
  article.hidden = !item;
  if (!item) return;
  article.className = item.live ? '' : 'ended';
  article.dataset.item = item.item_id;
  $('item-id').textContent = item.item_id;
  $('rec').hidden = !item.recording;
  $('item-state').textContent = itemStateText(item);
  const ctx = $('context');
  ctx.hidden = !item.context;
  ctx.textContent = item.context ?? '';
  renderText(item);
  renderPractice(view, item);
  redraw($('expert'), [view.expert.name, item.item_id, item.expert], (box) => drawExpert(view, item, box));
  renderTranscript(item);
  renderReasoning(item);
  $('answered').textContent = answeredText(item.practice);
}

function drawSummary(view: ShadowView, box: HTMLElement): void {
  const m = view.metrics;
  box.appendChild(el('h2', summaryTitle(view)));
  if (!m.trainees.length) {
    box.appendChild(el('p', t('room.shadow.noTrainees'), 'muted'));
    return;
  }
  const table = el('table');
  const h = el('tr');
  const heads = ['trainee', 'answered', 'skipped', 'sameAsFinal', 'alphaFinal', 'alphaFirst', 'medianTime'] as const;
  for (const x of heads) h.appendChild(el('th', t(`room.shadow.table.${x}`)));
  table.appendChild(h);
  for (const row of m.trainees) {
    const r = el('tr', null, view.me.role === 'trainee' && row.name === view.me.name ? 'me' : '');
    for (const x of traineeRow(row)) r.appendChild(el('td', x));
    table.appendChild(r);
  }
  box.appendChild(table);
  if (m.diverged_most.length) {
    box.appendChild(el('h2', t('room.shadow.divergedHeading')));
    const ul = el('ul', null, 'diverged');
    for (const d of m.diverged_most) ul.appendChild(el('li', divergedLine(d)));
    box.appendChild(ul);
  }
}

function renderLead(view: ShadowView): void {
  const box = $('lead');
  box.hidden = view.me.role !== 'expert';
  if (box.hidden) return;
  redraw(box, [view.trainees, view.max_members, view.audio_shared, view.closed], () => {
    box.appendChild(el('h2', t('room.shadow.trainees', { count: view.trainees.length, max: view.max_members })));
    const audio = button(
      t(view.audio_shared ? 'room.shadow.audio.stopSharing' : 'room.shadow.audio.share'),
      view.audio_shared ? 'primary' : '',
      () => {
        void send('/api/lead/audio', { on: !view.audio_shared });
      },
    );
    audio.disabled = view.closed;
    box.appendChild(audio);
    box.appendChild(shell.memberList(view.trainees));
    shell.closeRoomButton(box, view.closed);
  });
}

function render(view: ShadowView): void {
  lastView = view;
  $('code').textContent = view.code;
  $('who').textContent = shadowWhoLine(view);
  const [status, cls] = shadowStatus(view);
  $('status').textContent = status;
  $('status').className = cls;
  renderLead(view);
  renderItem(view);
  redraw($('summary'), [view.expert.name, view.me, view.metrics], (box) => drawSummary(view, box));
  $('audio').hidden = !audioOffered(view);
}

function practise(itemId: string, label: string | null): void {
  void send('/api/practice', { item_id: itemId, label });
}

async function send(path: string, body: unknown): Promise<{ status: number }> {
  const r = await shell.api('POST', path, body);
  if (r.status >= 400) $('status').textContent = refusalText(r.data) ?? t('room.refused', { status: r.status });
  return r;
}

// her audio, only while she shares it: 16-bit samples fetched in order and played back to back
interface Listening {
  ctx: AudioContext;
  /** when the next samples play (the context's clock) */
  next: number;
  /** the next sample to ask for (null: from where she is now) */
  from: number | null;
  stop: boolean;
  item: string | null;
}
let listening: Listening | null = null;

function stopListening(): void {
  if (!listening) return;
  listening.stop = true;
  void listening.ctx.close();
  listening = null;
  $('listen').textContent = t('room.shadow.audio.listen');
  $('audio-state').textContent = '';
}

function listen(): void {
  if (listening) {
    stopListening();
    return;
  }
  const ctx = new AudioContext();
  const a: Listening = { ctx, next: 0, from: null, stop: false, item: null };
  listening = a;
  $('listen').textContent = t('room.shadow.audio.stop');
  const fetchMore = async (): Promise<void> => {
    const current = lastView?.current;
    if (a.stop || !lastView?.audio_shared || !current?.live) {
      if (a === listening) stopListening();
      return;
    }
    if (a.item !== current.item_id) {
      a.item = current.item_id;
      a.from = null;
    }
    let r: Response;
    try {
      r = await fetch(audioPath(current.item_id, a.from), {
        headers: { Authorization: `Bearer ${shell.identity.token ?? ''}` },
        cache: 'no-store',
      });
    } catch {
      setTimeout(() => void fetchMore(), 2000);
      return;
    }
    if (r.status !== 200) {
      $('audio-state').textContent = t('room.shadow.audio.notNow');
      setTimeout(() => void fetchMore(), 1500);
      return;
    }
    const start = Number(r.headers.get('X-Audio-Start'));
    const rate = Number(r.headers.get('X-Audio-Rate'));
    const samples = new Int16Array(await r.arrayBuffer());
    a.from = start + samples.length;
    if (samples.length && !a.stop) {
      const buffer = ctx.createBuffer(1, samples.length, rate);
      buffer.getChannelData(0).set(pcm16ToFloat(samples));
      const src = ctx.createBufferSource();
      src.buffer = buffer;
      src.connect(ctx.destination);
      a.next = Math.max(a.next, ctx.currentTime + 0.15);
      src.start(a.next);
      a.next += buffer.duration;
      $('audio-state').textContent = t('room.shadow.audio.listening');
    }
    setTimeout(() => void fetchMore(), 0);
  };
  void fetchMore();
}

const follower = new RoomFollower<ShadowView>({
  api: shell.api,
  path: shadowStatePath,
  delay: (r) => followDelay(r, 0, 1000),
  minGapMs: FOLLOW_GAP_MS,
  render,
  closed: stopListening,
  gone: (error) => {
    shell.identity.forgetTokens();
    $('status').textContent = error ?? t('room.gone');
    $('item').hidden = true;
  },
  unreachable: () => {
    // the host went away for a moment: ask again from the same cursor
    $('status').textContent = t('room.unreachable');
    $('status').className = 'away';
  },
});

function enter(): void {
  $('join').hidden = true;
  $('room').hidden = false;
  shell.showRejoinKey();
  follower.follow();
}

$('listen').addEventListener('click', listen);

// the practice keys: 1–9 answer with the n-th label, S skips; never while typing, never a held key
document.addEventListener('keydown', (e) => {
  const t = e.target as HTMLElement | null;
  const typing = t !== null && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  if ($('room').hidden) return;
  const key = practiceKey({ ...pick(e), typing });
  if (key === null) return;
  const target =
    key === 'skip'
      ? document.querySelector<HTMLButtonElement>('#practice button.skip') // i18n-ignore: a selector
      : (document.querySelectorAll<HTMLButtonElement>('#practice button[data-label]')[key.label] ?? null); // i18n-ignore: a selector
  if (!target || target.disabled) return;
  e.preventDefault();
  target.click();
});

function pick(e: KeyboardEvent) {
  return { key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, repeat: e.repeat, defaultPrevented: e.defaultPrevented };
}

// Enter in the join form joins, as in any form
for (const id of ['join-code', 'join-name']) {
  $(id).addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.isComposing) {
      e.preventDefault();
      $('join-button').click();
    }
  });
}

shell.wireJoinForm(enter);
if (shell.identity.token) enter();
(window as unknown as { aloudShadow: unknown }).aloudShadow = { view: () => lastView };
