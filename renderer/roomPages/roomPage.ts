import type { RoomItemView, RoomView } from '../../core/common/rooms/roomViews';
import { $, button, el, FOLLOW_GAP_MS, followDelay, refusalText, RoomFollower, RoomPageShell } from './roomPageBase';
import { alphaRows, canWrite, changeLine, itemHeading, roomStatePath, roomStatus, votedLine, whoLine } from './roomPageText';
import { speakPageLanguage } from './pageLanguage';
import { t } from './roomLanguage';
import './joinForm.css';
import './room.css';

/**
 * The page members open in their browser, served by the room listener itself: no install, no CDN, no inline script
 * (the CSP allows only this file and its stylesheet). Votes and names are always set as text, never as HTML.
 */

speakPageLanguage();
let chatSeq = 0;
let lastView: RoomView | null = null;

const shell = new RoomPageShell('aloud-room', send);

function renderMetrics(m: RoomView['metrics']): void {
  const box = $('metrics');
  box.textContent = '';
  for (const row of alphaRows(m)) {
    const d = el('div', null, 'metric');
    d.appendChild(el('div', row.title, 'muted'));
    d.appendChild(el('div', row.value, 'alpha'));
    d.appendChild(el('div', row.note, 'muted'));
    box.appendChild(d);
  }
  const table = el('table');
  const h = el('tr');
  for (const x of ['room.conformity.member', 'room.conformity.votes', 'room.conformity.changes', 'room.conformity.towardMajority'] as const)
    h.appendChild(el('th', t(x)));
  table.appendChild(h);
  for (const c of m.conformity) {
    const r = el('tr');
    for (const x of [c.name, c.votes, c.changes, c.changes_toward_majority]) r.appendChild(el('td', x));
    table.appendChild(r);
  }
  const wrap = el('div', null, 'conformity');
  wrap.appendChild(table);
  box.appendChild(wrap);
}

function votesTable(title: string, votes: Record<string, string>): HTMLDivElement {
  const wrap = el('div');
  wrap.appendChild(el('div', title, 'muted'));
  const table = el('table');
  for (const [name, vote] of Object.entries(votes)) {
    const r = el('tr');
    r.appendChild(el('td', name));
    r.appendChild(el('td', vote, 'vote'));
    table.appendChild(r);
  }
  wrap.appendChild(table);
  return wrap;
}

function itemCard(view: RoomView, item: RoomItemView): HTMLElement {
  const card = el('article', null, `item${item.revealed ? ' revealed' : ''}`);
  card.dataset.item = item.item_id;
  card.appendChild(el('h3', itemHeading(item)));
  if (item.context) card.appendChild(el('div', item.context, 'context'));
  card.appendChild(el('div', item.text, 'text'));
  card.appendChild(el('div', votedLine(item), 'muted voted')); // i18n-ignore: class names
  if (view.me.role === 'member') {
    const buttons = el('div', null, 'labels');
    for (const label of view.labels) {
      const b = button(label, item.my_vote === label ? 'mine' : '', () => void send('/api/vote', { item_id: item.item_id, label }));
      b.disabled = !canWrite(view);
      b.dataset.label = label;
      buttons.appendChild(b);
    }
    card.appendChild(buttons);
  }
  if (view.me.role === 'lead' && !item.revealed && !view.closed)
    card.appendChild(button(t('room.item.reveal'), 'reveal', () => void send('/api/lead/reveal', { item_id: item.item_id })));
  if (item.revealed) {
    card.appendChild(votesTable(t('room.item.votesBlind'), item.blind_votes ?? {}));
    card.appendChild(votesTable(t('room.item.votesNow'), item.current_votes ?? {}));
    if (item.changes?.length) {
      const list = el('ul', null, 'changes');
      for (const c of item.changes) list.appendChild(el('li', changeLine(c)));
      card.appendChild(list);
    }
  }
  return card;
}

function renderLead(view: RoomView): void {
  const box = $('lead');
  box.hidden = view.me.role !== 'lead';
  if (box.hidden) return;
  box.textContent = '';
  box.appendChild(el('h2', t('room.lead.members', { count: view.members.length, max: view.max_members })));
  box.appendChild(shell.memberList(view.members));
  shell.closeRoomButton(box, view.closed);
}

function render(view: RoomView): void {
  lastView = view;
  $('code').textContent = view.code;
  $('who').textContent = whoLine(view);
  $('status').textContent = roomStatus(view);
  $<HTMLInputElement>('chat-text').disabled = $<HTMLButtonElement>('chat-send').disabled = !canWrite(view);
  renderMetrics(view.metrics);
  renderLead(view);
  const items = $('items');
  items.textContent = '';
  for (const item of view.items) items.appendChild(itemCard(view, item));
  for (const c of view.chat) {
    // who wrote it comes from the room (role), never from the name: a member cannot pass for the lead
    const li = el('li', null, c.role === 'lead' ? 'from-lead' : 'from-member');
    li.appendChild(c.role === 'lead' ? el('strong', t('room.chat.lead'), 'lead-badge') : el('span', c.from, 'chat-name'));
    li.appendChild(document.createTextNode(`: ${c.text}`));
    $('chat-log').appendChild(li);
    chatSeq = Math.max(chatSeq, c.seq);
  }
}

const follower = new RoomFollower<RoomView>({
  api: shell.api,
  path: (seq) => roomStatePath(seq, chatSeq),
  // the answer waits until the room changes (at most 10 s): live without asking every moment
  delay: (r) => followDelay(r, 0, 1000),
  minGapMs: FOLLOW_GAP_MS,
  render,
  // more chat than one answer holds: ask for the next page right away
  more: (view) => view.chat_more,
  gone: (error) => {
    shell.identity.forgetTokens();
    $('status').textContent = error ?? t('room.gone');
    $('items').textContent = '';
  },
  unreachable: () => {
    $('status').textContent = t('room.unreachable');
  },
});

async function send(path: string, body: unknown): Promise<{ status: number }> {
  const r = await shell.api('POST', path, body);
  if (r.status >= 400) $('status').textContent = refusalText(r.data) ?? t('room.refused', { status: r.status });
  else follower.follow();
  return r;
}

function enter(): void {
  $('join').hidden = true;
  $('room').hidden = false;
  shell.showRejoinKey();
  follower.follow();
}

shell.wireJoinForm(enter);
$('chat-send').addEventListener('click', () => {
  const input = $<HTMLInputElement>('chat-text');
  if (!input.value.trim()) return;
  void send('/api/chat', { text: input.value }).then((r) => {
    if (r.status < 400) input.value = '';
  });
});
if (shell.identity.token) enter();
(window as unknown as { aloudRoom: unknown }).aloudRoom = { view: () => lastView };
