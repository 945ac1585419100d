import { useCallback, useEffect, useRef, useState } from 'react';
import type { AdjudicationItemView, AdjudicationQueueView, ProtocolView } from '../../../../core/common/adjudication/adjudicationViews';
import type { HuddleOutcomeView, HuddleView } from '../../../../core/common/adjudication/adjudicationApi';
import { adjudicationKey, adjudicationShortcutList, CAUSE_KEYS, EMPTY_DRAFT, type DecisionDraft } from './adjudicationKeys';
import { reportRefusalsTo } from '../../shared/runCall';
import { ShortcutHelp } from '../../shared/Dialogs';
import { useGuidelinesShortcut } from '../guidelines/GuidelinesPanel';
import { useShortcuts } from '../../shared/useShortcuts';
import { useApi } from '../../shared/api';
import { ProtocolWaveform } from './ProtocolWaveform';
import { useSpokenRationale } from './useSpokenRationale';

const seconds = (s: number | null): string => (s === null ? '—' : `${s.toFixed(1)} s`);
const clock = (iso: string): string => iso.slice(11, 19);

/** The transcript with the committing phrase marked (its offsets come from the parser's commitment). */
function Transcript({ protocol }: { protocol: ProtocolView }) {
  const { transcript, commit } = protocol;
  if (transcript === '') return <p className="muted">No transcript (labelled by key or click).</p>;
  if (!commit) return <p className="adj-transcript">{transcript}</p>;
  return (
    <p className="adj-transcript">
      {transcript.slice(0, commit.start)}
      <mark
        className="commit-phrase"
        title={commit.t_ms === null ? 'commit phrase' : `commit phrase at ${(commit.t_ms / 1000).toFixed(1)} s`}
      >
        {transcript.slice(commit.start, commit.end)}
      </mark>
      {transcript.slice(commit.end)}
    </p>
  );
}

interface PlayerProps {
  /** where the page plays this annotator's recording from (the host's protocol-audio route) */
  src: string;
  playing: boolean;
  bind: (audio: HTMLAudioElement | null) => void;
  onPlaying: (playing: boolean) => void;
}

/** A small player for one protocol: the browser's own controls over the host's ranged WAV; the keys drive it too. */
function ProtocolPlayer({ protocol, index, player }: { protocol: ProtocolView; index: number; player: PlayerProps }) {
  // the element for the waveform too; the parent's binder changes every render, the element does not
  const [media, setMedia] = useState<HTMLAudioElement | null>(null);
  const bindLatest = useRef(player.bind);
  bindLatest.current = player.bind;
  const bind = useCallback((audio: HTMLAudioElement | null) => {
    bindLatest.current(audio);
    setMedia(audio);
  }, []);
  if (protocol.audio_ms <= 0) return <p className="muted adj-no-audio">No recording (labelled without speaking).</p>;
  const commitAt = protocol.commit?.t_ms ?? null;
  return (
    <div className={`adj-player${player.playing ? ' playing' : ''}`}>
      <ProtocolWaveform src={player.src} media={media} commitMs={commitAt} />
      <audio
        ref={bind}
        src={player.src}
        preload="metadata"
        controls
        aria-label={`${protocol.shown}: spoken protocol (Shift+${index + 1})`}
        onPlay={() => player.onPlaying(true)}
        onPause={() => player.onPlaying(false)}
        onEnded={() => player.onPlaying(false)}
      />
      <span className="muted">
        {' '}
        <kbd>Shift+{index + 1}</kbd> play/pause
        {commitAt !== null && (
          <>
            {' '}
            · <kbd>o</kbd> commit phrase at {(commitAt / 1000).toFixed(1)} s
          </>
        )}
      </span>
    </div>
  );
}

function ProtocolColumn({
  protocol,
  index,
  fastSeconds,
  player,
}: {
  protocol: ProtocolView;
  index: number;
  fastSeconds: number;
  player: PlayerProps;
}) {
  return (
    <section className="adj-protocol" aria-label={protocol.shown}>
      <h3>
        <kbd>{index + 1}</kbd> {protocol.shown}: <strong className="adj-final">{protocol.final_label ?? '—'}</strong>
        {protocol.blind_label !== null && protocol.blind_label !== protocol.final_label && (
          <span className="muted"> (blind: {protocol.blind_label})</span>
        )}
      </h3>
      <ProtocolPlayer protocol={protocol} index={index} player={player} />
      <Transcript protocol={protocol} />
      <ol className="adj-acts" aria-label="label acts">
        {protocol.acts.map((a, i) => (
          <li key={i}>
            {i === 0 ? 'first' : 'changed to'} <strong>{a.label}</strong> ({a.source}) at {clock(a.at)}
          </li>
        ))}
      </ol>
      <p className="adj-signals">
        time on item {seconds(protocol.seconds_on_item)}
        {protocol.fast && (
          <span className="adj-fast" title={`under ${fastSeconds} s`}>
            {' '}
            ⚡ fast decision
          </span>
        )}
        {protocol.pauses && ` · pauses ${protocol.pauses.count} (${protocol.pauses.long_count} long)`}
        {protocol.filled_pauses !== null && ` · filled pauses ${protocol.filled_pauses}`}
        {protocol.hedges !== null && ` · hedges ${protocol.hedges}`}
      </p>
      {protocol.codes.length > 0 && (
        <ul className="adj-codes" aria-label="codes">
          {protocol.codes.map((u, i) => (
            <li key={i}>
              “{u.unit_text}”: {u.codes.join(', ')}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The lead's latest huddle: where members join while the app serves it, then its outcome taken as her decisions. */
function HuddlePanel({
  marked,
  shownItem,
  huddle,
  outcome,
  lan,
  onLan,
  onSend,
  onTake,
}: {
  marked: readonly string[];
  shownItem: string | null;
  huddle: HuddleView | null;
  outcome: HuddleOutcomeView | null;
  lan: boolean;
  onLan: (lan: boolean) => void;
  onSend: () => void;
  onTake: () => void;
}) {
  return (
    <section className="adj-huddle" aria-label="huddle">
      <h3>Huddle</h3>
      <p className="muted">
        <kbd>Shift+M</kbd> marks items: {marked.length > 0 ? marked.join(', ') : `none (sends ${shownItem ?? 'the shown item'})`}
      </p>
      <label>
        <input type="checkbox" checked={lan} onChange={(e) => onLan(e.target.checked)} /> open to the local network
      </label>{' '}
      <button type="button" onClick={onSend}>
        Send to a huddle… (<kbd>Shift+H</kbd>)
      </button>
      {huddle && (
        <div className="adj-huddle-room" role="status" aria-label="huddle room">
          <p>
            Room <strong className="room-code">{huddle.room}</strong> over {huddle.item_ids.join(', ')}
            {huddle.url !== null ? (
              <>
                : members open <code>{huddle.url}</code> and type the code. Reveal and close it in the room panel (Agreement tab).
              </>
            ) : huddle.closed ? (
              ' is closed.'
            ) : (
              ' is not served here and not closed (`aloud room resume` serves it).'
            )}
          </p>
          {huddle.closed && (
            <p>
              <button type="button" onClick={onTake}>
                Take the huddle’s outcome (<kbd>Shift+O</kbd>)
              </button>{' '}
              <span className="muted">
                {huddle.decisions > 0
                  ? `${huddle.decisions} decision(s) taken from it`
                  : 'with the confidence and causes set below, as a decision'}
              </span>
            </p>
          )}
          {outcome?.room === huddle.room && (
            <ul className="adj-huddle-outcome" aria-label="huddle outcome">
              {outcome.outcomes.map((o) => (
                <li key={o.item_id}>
                  <code>{o.item_id}</code>: {o.decided ? `decided “${o.label}”` : `not decided (${o.reason})`}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * The lead's Adjudicate screen: the queue (lowest agreement first), one item side by side, and the decision made by
 * keyboard (adjudicationKeys) and logged in her own adjudication log through decideGoldLabel.
 */
export function AdjudicateScreen() {
  const client = useApi();
  const [queue, setQueue] = useState<AdjudicationQueueView | null>(null);
  const [index, setIndex] = useState(0);
  const [item, setItem] = useState<AdjudicationItemView | null>(null);
  const [draft, setDraft] = useState<DecisionDraft>(EMPTY_DRAFT);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const rationaleRef = useRef<HTMLInputElement>(null);
  const flagRef = useRef<HTMLInputElement>(null);
  // the shown item's players, by protocol number - 1; the one last played is what Space and o act on
  const players = useRef<Array<HTMLAudioElement | null>>([]);
  const [current, setCurrent] = useState(0);
  const [playing, setPlaying] = useState<number | null>(null);
  const [help, setHelp] = useState(false);
  // the guidelines panel beside the screen (mounted with it in App) has its key in this screen's list
  const guidelinesShortcut = useGuidelinesShortcut(queue?.labels.flatMap((l) => (l.key !== null ? [{ key: l.key }] : [])) ?? []);
  // items marked for a huddle, the lead's huddles (newest first), the outcome last taken
  const [marked, setMarked] = useState<string[]>([]);
  const [huddles, setHuddles] = useState<HuddleView[]>([]);
  const [outcome, setOutcome] = useState<HuddleOutcomeView | null>(null);
  const [huddleLan, setHuddleLan] = useState(false);
  const run = useCallback(<T,>(task: () => Promise<T>) => {
    setError(null);
    return reportRefusalsTo(setError)(task);
  }, []);

  const spoken = useSpokenRationale(client, item?.item_id ?? null, setError);

  const reload = useCallback(async () => {
    const q = await run(() => client.adjudicationQueue());
    if (q) setQueue(q);
  }, [client, run]);
  useEffect(() => void reload(), [reload]);
  const reloadHuddles = useCallback(async () => {
    const h = await run(() => client.huddles());
    if (h) setHuddles(h);
  }, [client, run]);
  useEffect(() => void reloadHuddles(), [reloadHuddles]);

  const row = queue?.rows[index] ?? null;
  useEffect(() => {
    if (!row) return setItem(null);
    void run(() => client.adjudicationItem(row.item_id)).then((view) => {
      if (!view) return;
      setItem(view);
      const d = view.decision;
      setDraft(
        d
          ? {
              label: d.label,
              confidence: d.confidence,
              causes: d.causes,
              // a spoken rationale is shown with the decision, not put in the typed field
              rationale: d.rationale_kind === 'typed' ? (d.rationale ?? '') : '',
              guideline_flag: d.guideline_flag ?? '',
            }
          : EMPTY_DRAFT,
      );
    });
    // the item is read again when the shown item changes, not when the queue object is replaced
  }, [client, row?.item_id, run]);

  const decide = useCallback(async () => {
    if (!item || !queue) return;
    if (draft.label === null || draft.confidence === null || draft.causes.length === 0) {
      setError('A decision needs a label (1–9 or p), a confidence (h, m, l) and at least one cause.');
      return;
    }
    const said = spoken.transcribed?.item_id === item.item_id ? spoken.transcribed : null;
    if (spoken.state !== 'idle') return setError('The spoken rationale is still being recorded or transcribed (Shift+R stops it).');
    if (said && draft.rationale.trim() !== '')
      return setError('The rationale is both spoken and typed: clear the typed one, or discard the spoken one.');
    const view = await run(() =>
      said
        ? client.decideGoldLabelSpoken(item.item_id, draft.label!, draft.confidence!, draft.causes, draft.guideline_flag.trim() || null)
        : client.decideGoldLabel(
            item.item_id,
            draft.label!,
            draft.confidence!,
            draft.causes,
            draft.rationale.trim() || null,
            draft.guideline_flag.trim() || null,
          ),
    );
    if (!view) return;
    if (said) spoken.discard();
    setItem(view);
    setNotice(`${view.item_id}: gold "${view.decision?.label}"${view.history.length > 0 ? ' (revised)' : ''}`);
    const q = await run(() => client.adjudicationQueue());
    if (!q) return;
    setQueue(q);
    // on to the next item still waiting, if any
    const next = q.rows.findIndex((r) => r.status === 'queued');
    setIndex(
      next >= 0
        ? next
        : Math.max(
            0,
            q.rows.findIndex((r) => r.item_id === view.item_id),
          ),
    );
  }, [client, draft, item, queue, run, spoken]);

  const sendToHuddle = useCallback(async () => {
    const ids = marked.length > 0 ? marked : item ? [item.item_id] : [];
    if (ids.length === 0) return setError('No item to send: mark items with Shift+M, or open one.');
    const sent = await run(() => client.sendToHuddle(ids, huddleLan));
    if (!sent) return;
    setMarked([]);
    setOutcome(null);
    setNotice(`Huddle room ${sent.room} is open over ${sent.item_ids.join(', ')}`);
    await reloadHuddles();
  }, [client, huddleLan, item, marked, reloadHuddles, run]);

  const takeOutcome = useCallback(async () => {
    const huddle = huddles[0];
    if (!huddle) return setError('No huddle sent yet (Shift+H sends the marked items).');
    if (!huddle.closed)
      return setError(`Room ${huddle.room} is not closed yet: close it in the room panel (Agreement tab), so its votes are final.`);
    if (draft.confidence === null || draft.causes.length === 0)
      return setError('Taking the outcome needs a confidence (h, m, l) and at least one cause, as a decision does.');
    const taken = await run(() => client.decideFromRoom(huddle.room, draft.confidence!, draft.causes, draft.rationale.trim() || null));
    if (!taken) return;
    setOutcome(taken);
    setNotice(`Room ${taken.room}: ${taken.decisions} decision(s) logged`);
    await reloadHuddles();
    await reload();
    if (item) {
      const view = await run(() => client.adjudicationItem(item.item_id));
      if (view) setItem(view);
    }
  }, [client, draft, huddles, item, reload, reloadHuddles, run]);

  // a new item: its players start afresh, from annotator 1
  useEffect(() => {
    setCurrent(0);
    setPlaying(null);
  }, [item?.item_id]);

  const play = (n: number, from: number | null = null) => {
    const audio = players.current[n];
    setCurrent(n);
    if (!audio) return setError(`${item?.protocols[n]?.shown ?? `Annotator ${n + 1}`} has no recording of this item.`);
    // one protocol heard at a time
    players.current.forEach((other, i) => i !== n && other && !other.paused && other.pause());
    if (from !== null) audio.currentTime = from;
    if (audio.paused || from !== null) audio.play().catch((e: Error) => setError(`The recording could not be played: ${e.message}`));
    else audio.pause();
  };

  const toCommit = () => {
    const commit = item?.protocols[current]?.commit ?? null;
    if (!commit || commit.t_ms === null)
      return setError(`${item?.protocols[current]?.shown ?? 'This protocol'} has no spoken commit phrase with a time.`);
    play(current, commit.t_ms / 1000);
  };

  useShortcuts((press) => {
    if (help && press.key === 'Escape') return (setHelp(false), true);
    if (!queue || !item) return false;
    // Shift+R records the spoken rationale (by the key's place, whatever the layout types with Shift)
    if (press.shiftKey && press.code === 'KeyR' && !press.inField && !press.ctrlKey && !press.metaKey && !press.altKey && !press.repeat)
      return (spoken.toggle(), true);
    const action = adjudicationKey(press, draft, {
      shownLabels: item.protocols.map((p) => p.final_label),
      labels: queue.labels.map((l) => l.name),
      causes: queue.causes,
    });
    if (!action) return false;
    if (action.kind === 'draft') setDraft(action.draft);
    else if (action.kind === 'move') setIndex((i) => Math.max(0, Math.min(queue.rows.length - 1, i + action.delta)));
    else if (action.kind === 'decide') void decide();
    else if (action.kind === 'focus') (action.field === 'rationale' ? rationaleRef : flagRef).current?.focus();
    else if (action.kind === 'play') play(action.protocol === 'current' ? current : action.protocol - 1);
    else if (action.kind === 'to-commit') toCommit();
    else if (action.kind === 'help') setHelp((shown) => !shown);
    else if (action.kind === 'mark')
      setMarked((m) => (m.includes(item.item_id) ? m.filter((id) => id !== item.item_id) : [...m, item.item_id]));
    else if (action.kind === 'huddle') void sendToHuddle();
    else if (action.kind === 'huddle-outcome') void takeOutcome();
    return true;
  });

  const fieldKeys = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') e.currentTarget.blur();
    if (e.key === 'Enter') {
      e.preventDefault();
      e.currentTarget.blur();
      void decide();
    }
  };

  if (!queue) return <p className="muted">{error ?? 'Reading the adjudication queue…'}</p>;
  const c = queue.counts;
  return (
    <div className="adjudicate">
      <aside className="adj-queue" aria-label="adjudication queue">
        <p className="muted">
          {c.queued} to adjudicate · {c.decided} decided · {c.unanimous} unanimous (accepted) · {c.too_few} too few labels
        </p>
        <p className="muted adj-order">
          {queue.order === 'uncertainty' ? 'Least certain first' : 'Lowest agreement first'} ({queue.label_model} uncertainty
          {queue.order === 'uncertainty' ? ', then agreement' : ' breaks ties'})
        </p>
        <ol>
          {queue.rows.map((r, i) => (
            <li key={r.item_id} className={`${i === index ? 'current ' : ''}${r.status}`} aria-current={i === index ? 'true' : undefined}>
              <button onClick={() => setIndex(i)}>
                {marked.includes(r.item_id) && (
                  <span className="adj-marked" title="marked for a huddle">
                    ◆{' '}
                  </span>
                )}
                <code>{r.item_id}</code> {r.status === 'decided' ? `✓ ${r.gold_label}` : `agreement ${r.agreement?.toFixed(2) ?? '—'}`}
                {r.status !== 'decided' && r.uncertainty !== null && (
                  <span className="adj-uncertainty" title={`${queue.label_model}: posterior entropy (0 certain, 1 every label alike)`}>
                    {' '}
                    · uncertainty {r.uncertainty.toFixed(2)}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ol>
        {queue.rows.length === 0 && <p>Nothing to adjudicate: every item is unanimous or has too few labels.</p>}
        <HuddlePanel
          marked={marked}
          shownItem={item?.item_id ?? null}
          huddle={huddles[0] ?? null}
          outcome={outcome}
          lan={huddleLan}
          onLan={setHuddleLan}
          onSend={() => void sendToHuddle()}
          onTake={() => void takeOutcome()}
        />
      </aside>
      {item && (
        <div className="adj-main">
          <header>
            <h2>
              <code>{item.item_id}</code> · agreement {item.agreement?.toFixed(2) ?? '—'}
              {item.decision && (
                <span className="adj-decided">
                  {' '}
                  · decided “{item.decision.label}” by {item.decision.adjudicator}
                  {item.decision.room !== null && ` (huddle room ${item.decision.room})`}
                </span>
              )}
            </h2>
            <blockquote className="adj-item-text">{item.item_text}</blockquote>
            {item.decision?.rationale && (
              <p className="adj-decision-rationale">
                Rationale (
                {item.decision.rationale_kind === 'spoken'
                  ? `spoken, ${((item.decision.rationale_audio_ms ?? 0) / 1000).toFixed(1)} s`
                  : 'typed'}
                ): “{item.decision.rationale}”
              </p>
            )}
          </header>
          <div className="adj-protocols">
            {item.protocols.map((p, i) => (
              <ProtocolColumn
                key={`${item.item_id}\u0000${p.shown}`}
                protocol={p}
                index={i}
                fastSeconds={queue.fast_decision_seconds}
                player={{
                  src: client.protocolAudioUrl(item.item_id, i + 1),
                  playing: playing === i,
                  bind: (audio) => void (players.current[i] = audio),
                  onPlaying: (now) => setPlaying((was) => (now ? i : was === i ? null : was)),
                }}
              />
            ))}
          </div>
          <form className="adj-decision" aria-label="decision" onSubmit={(e) => (e.preventDefault(), void decide())}>
            <div role="group" aria-label="gold label">
              Gold label:{' '}
              {queue.labels.map((l) => (
                <button
                  type="button"
                  key={l.name}
                  aria-pressed={draft.label === l.name}
                  onClick={() => setDraft({ ...draft, label: l.name })}
                >
                  {l.name}
                </button>
              ))}{' '}
              <span className="muted">
                (1–{item.protocols.length} adopt, p another · Shift+1–{item.protocols.length} hear, ? all keys)
              </span>
            </div>
            <div role="group" aria-label="confidence">
              Confidence:{' '}
              {(['high', 'medium', 'low'] as const).map((conf) => (
                <button
                  type="button"
                  key={conf}
                  aria-pressed={draft.confidence === conf}
                  onClick={() => setDraft({ ...draft, confidence: conf })}
                >
                  <kbd>{conf[0]}</kbd> {conf}
                </button>
              ))}
            </div>
            <div role="group" aria-label="causes">
              Causes:{' '}
              {queue.causes.map((cause, i) => (
                <button
                  type="button"
                  key={cause}
                  aria-pressed={draft.causes.includes(cause)}
                  onClick={() =>
                    setDraft({
                      ...draft,
                      causes: draft.causes.includes(cause) ? draft.causes.filter((x) => x !== cause) : [...draft.causes, cause],
                    })
                  }
                >
                  {CAUSE_KEYS[i] && <kbd>{CAUSE_KEYS[i]}</kbd>} {cause}
                </button>
              ))}
            </div>
            <label>
              Rationale (<kbd>r</kbd>){' '}
              <input
                ref={rationaleRef}
                value={draft.rationale}
                onKeyDown={fieldKeys}
                onChange={(e) => setDraft({ ...draft, rationale: e.target.value })}
              />
            </label>
            <p className="adj-spoken" role="status" aria-label="spoken rationale">
              {spoken.state === 'recording' && (
                <>
                  ● Recording your rationale {(spoken.elapsedMs / 1000).toFixed(1)} s (<kbd>Shift+R</kbd> stops)
                </>
              )}
              {spoken.state === 'starting' && 'Starting the microphone…'}
              {spoken.state === 'transcribing' && 'Transcribing your rationale…'}
              {spoken.state === 'idle' &&
                (spoken.transcribed?.item_id === item.item_id ? (
                  <>
                    Spoken rationale ({(spoken.transcribed.audio_ms / 1000).toFixed(1)} s): “{spoken.transcribed.text}”{' '}
                    <button type="button" onClick={spoken.discard}>
                      Discard
                    </button>
                  </>
                ) : (
                  <span className="muted">
                    <kbd>Shift+R</kbd> speaks the rationale instead (recorded, transcribed verbatim)
                  </span>
                ))}
            </p>
            <label>
              Guideline flag (<kbd>t</kbd>){' '}
              <input
                ref={flagRef}
                value={draft.guideline_flag}
                onKeyDown={fieldKeys}
                onChange={(e) => setDraft({ ...draft, guideline_flag: e.target.value })}
              />
            </label>
            <button type="submit" className="primary">
              Decide (Enter)
            </button>
            {item.history.length > 0 && (
              <p className="muted">
                Earlier decisions: {item.history.map((h) => `“${h.label}” (${h.confidence}, ${clock(h.decided_at)})`).join(', ')}
              </p>
            )}
          </form>
          {help && (
            <ShortcutHelp
              shortcuts={[
                ...adjudicationShortcutList(queue.causes),
                guidelinesShortcut,
                { keys: ['Shift+R'], what: 'Record your rationale, or stop and transcribe it (Enter then decides with it)' },
              ]}
              onClose={() => setHelp(false)}
            />
          )}
          {notice && (
            <p className="notice" role="status">
              {notice}
            </p>
          )}
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
