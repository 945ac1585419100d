import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { AdjudicationItemView, AdjudicationQueueView, ProtocolView } from '../../../../core/common/adjudication/adjudicationViews';
import type { HuddleOutcomeView, HuddleView } from '../../../../core/common/adjudication/adjudicationApi';
import { adjudicationKey, adjudicationShortcutList, CAUSE_KEYS, EMPTY_DRAFT, type DecisionDraft } from './adjudicationKeys';
import { reportRefusalsTo } from '../../shared/runCall';
import { ShortcutHelp } from '../../shared/Dialogs';
import { useGuidelinesShortcut } from '../guidelines/GuidelinesPanel';
import { useShortcuts } from '../../shared/useShortcuts';
import { useApi } from '../../shared/api';
import { useFormatDuration } from '../../shared/i18n/useDuration';
import { ProtocolWaveform } from './ProtocolWaveform';
import { useSpokenRationale } from './useSpokenRationale';
import { undecidedWords } from './huddleOutcome';

/** <kbd>, <strong> and <code> inside catalog messages. */
const kbd = (chunks: ReactNode[]) => <kbd>{chunks}</kbd>;
const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;
const code = (chunks: ReactNode[]) => <code>{chunks}</code>;
/** A time of day to the second, in the interface's locale. */
const TIME_OF_DAY = { hour: 'numeric', minute: '2-digit', second: '2-digit' } as const;

/** The transcript with the committing phrase marked (its offsets come from the parser's commitment). */
function Transcript({ protocol }: { protocol: ProtocolView }) {
  const intl = useIntl();
  const duration = useFormatDuration();
  const { transcript, commit } = protocol;
  if (transcript === '')
    return (
      <p className="muted">
        <FormattedMessage id="adjudicate.transcript.none" />
      </p>
    );
  if (!commit) return <p className="adj-transcript">{transcript}</p>;
  return (
    <p className="adj-transcript">
      {transcript.slice(0, commit.start)}
      <mark
        className="commit-phrase"
        title={
          commit.t_ms === null
            ? intl.formatMessage({ id: 'adjudicate.commitPhrase' })
            : intl.formatMessage({ id: 'adjudicate.commitPhraseAt' }, { time: duration(commit.t_ms) })
        }
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
  const intl = useIntl();
  const duration = useFormatDuration();
  const [media, setMedia] = useState<HTMLAudioElement | null>(null);
  const bindLatest = useRef(player.bind);
  bindLatest.current = player.bind;
  const bind = useCallback((audio: HTMLAudioElement | null) => {
    bindLatest.current(audio);
    setMedia(audio);
  }, []);
  if (protocol.audio_ms <= 0)
    return (
      <p className="muted adj-no-audio">
        <FormattedMessage id="adjudicate.player.none" />
      </p>
    );
  const commitAt = protocol.commit?.t_ms ?? null;
  return (
    <div className={`adj-player${player.playing ? ' playing' : ''}`}>
      <ProtocolWaveform src={player.src} media={media} commitMs={commitAt} />
      <audio
        ref={bind}
        src={player.src}
        preload="metadata"
        controls
        aria-label={intl.formatMessage({ id: 'adjudicate.player.label' }, { name: protocol.shown, n: index + 1 })}
        onPlay={() => player.onPlaying(true)}
        onPause={() => player.onPlaying(false)}
        onEnded={() => player.onPlaying(false)}
      />
      <span className="muted">
        {' '}
        <FormattedMessage id="adjudicate.player.keys" values={{ n: index + 1, kbd }} />
        {commitAt !== null && (
          <>
            {' '}
            · <FormattedMessage id="adjudicate.player.commitKey" values={{ time: duration(commitAt), kbd }} />
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
  const intl = useIntl();
  const duration = useFormatDuration();
  return (
    <section className="adj-protocol" aria-label={protocol.shown}>
      <h3>
        <kbd>{index + 1}</kbd> {protocol.shown}: <strong className="adj-final">{protocol.final_label ?? '—'}</strong>
        {protocol.blind_label !== null && protocol.blind_label !== protocol.final_label && (
          <span className="muted">
            {' '}
            <FormattedMessage id="adjudicate.protocol.blind" values={{ label: protocol.blind_label }} />
          </span>
        )}
      </h3>
      <ProtocolPlayer protocol={protocol} index={index} player={player} />
      <Transcript protocol={protocol} />
      <ol className="adj-acts" aria-label={intl.formatMessage({ id: 'adjudicate.protocol.acts' })}>
        {protocol.acts.map((a, i) => (
          <li key={i}>
            <FormattedMessage
              id={i === 0 ? 'adjudicate.protocol.firstAct' : 'adjudicate.protocol.changedAct'}
              values={{
                label: a.label,
                source: intl.formatMessage({ id: 'adjudicate.source' }, { source: a.source }),
                time: intl.formatTime(a.at, TIME_OF_DAY),
                strong,
              }}
            />
          </li>
        ))}
      </ol>
      <p className="adj-signals">
        <FormattedMessage
          id="adjudicate.protocol.timeOnItem"
          values={{ duration: protocol.seconds_on_item === null ? '—' : duration(protocol.seconds_on_item * 1000) }}
        />
        {protocol.fast && (
          <span
            className="adj-fast"
            title={intl.formatMessage({ id: 'adjudicate.protocol.fastTitle' }, { duration: duration(fastSeconds * 1000) })}
          >
            {' '}
            <FormattedMessage id="adjudicate.protocol.fast" />
          </span>
        )}
        {protocol.pauses &&
          ` · ${intl.formatMessage({ id: 'adjudicate.protocol.pauses' }, { count: protocol.pauses.count, long: protocol.pauses.long_count })}`}
        {protocol.filled_pauses !== null &&
          ` · ${intl.formatMessage({ id: 'adjudicate.protocol.filledPauses' }, { count: protocol.filled_pauses })}`}
        {protocol.hedges !== null && ` · ${intl.formatMessage({ id: 'adjudicate.protocol.hedges' }, { count: protocol.hedges })}`}
      </p>
      {protocol.codes.length > 0 && (
        <ul className="adj-codes" aria-label={intl.formatMessage({ id: 'adjudicate.protocol.codes' })}>
          {protocol.codes.map((u, i) => (
            <li key={i}>
              <FormattedMessage id="adjudicate.protocol.codedUnit" values={{ unit: u.unit_text, codes: u.codes.join(', ') }} />
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
  const intl = useIntl();
  return (
    <section className="adj-huddle" aria-label={intl.formatMessage({ id: 'adjudicate.huddle.label' })}>
      <h3>
        <FormattedMessage id="adjudicate.huddle.title" />
      </h3>
      <p className="muted">
        <FormattedMessage
          id="adjudicate.huddle.marked"
          values={{
            kbd,
            items:
              marked.length > 0
                ? marked.join(', ')
                : intl.formatMessage(
                    { id: 'adjudicate.huddle.noneMarked' },
                    { item: shownItem ?? intl.formatMessage({ id: 'adjudicate.huddle.theShownItem' }) },
                  ),
          }}
        />
      </p>
      <label>
        <input type="checkbox" checked={lan} onChange={(e) => onLan(e.target.checked)} /> <FormattedMessage id="adjudicate.huddle.lan" />
      </label>{' '}
      <button type="button" onClick={onSend}>
        <FormattedMessage id="adjudicate.huddle.send" values={{ kbd }} />
      </button>
      {huddle && (
        <div className="adj-huddle-room" role="status" aria-label={intl.formatMessage({ id: 'adjudicate.huddle.roomLabel' })}>
          <p>
            <FormattedMessage
              id={
                huddle.url !== null
                  ? 'adjudicate.huddle.served'
                  : huddle.closed
                    ? 'adjudicate.huddle.closed'
                    : 'adjudicate.huddle.notServed'
              }
              values={{
                room: huddle.room,
                items: huddle.item_ids.join(', '),
                url: huddle.url,
                strong: (chunks: ReactNode[]) => <strong className="room-code">{chunks}</strong>,
                code,
              }}
            />
          </p>
          {huddle.closed && (
            <p>
              <button type="button" onClick={onTake}>
                <FormattedMessage id="adjudicate.huddle.take" values={{ kbd }} />
              </button>{' '}
              <span className="muted">
                {huddle.decisions > 0
                  ? intl.formatMessage({ id: 'adjudicate.huddle.taken' }, { count: huddle.decisions })
                  : intl.formatMessage({ id: 'adjudicate.huddle.takeHow' })}
              </span>
            </p>
          )}
          {outcome?.room === huddle.room && (
            <ul className="adj-huddle-outcome" aria-label={intl.formatMessage({ id: 'adjudicate.huddle.outcome' })}>
              {outcome.outcomes.map((o) => (
                <li key={o.item_id}>
                  <code>{o.item_id}</code>:{' '}
                  {o.decided
                    ? intl.formatMessage({ id: 'adjudicate.huddle.decided' }, { label: o.label })
                    : intl.formatMessage({ id: 'adjudicate.huddle.notDecided' }, { reason: undecidedWords(o, intl) })}
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
  const intl = useIntl();
  const duration = useFormatDuration();
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
    return reportRefusalsTo(setError, intl)(task);
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
      setError(intl.formatMessage({ id: 'adjudicate.error.incomplete' }));
      return;
    }
    const said = spoken.transcribed?.item_id === item.item_id ? spoken.transcribed : null;
    if (spoken.state !== 'idle') return setError(intl.formatMessage({ id: 'adjudicate.error.spokenBusy' }));
    if (said && draft.rationale.trim() !== '') return setError(intl.formatMessage({ id: 'adjudicate.error.twoRationales' }));
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
    setNotice(
      intl.formatMessage(
        { id: view.history.length > 0 ? 'adjudicate.notice.revised' : 'adjudicate.notice.decided' },
        { item: view.item_id, label: view.decision?.label },
      ),
    );
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
  }, [client, draft, intl, item, queue, run, spoken]);

  const sendToHuddle = useCallback(async () => {
    const ids = marked.length > 0 ? marked : item ? [item.item_id] : [];
    if (ids.length === 0) return setError(intl.formatMessage({ id: 'adjudicate.error.nothingToSend' }));
    const sent = await run(() => client.sendToHuddle(ids, huddleLan));
    if (!sent) return;
    setMarked([]);
    setOutcome(null);
    setNotice(intl.formatMessage({ id: 'adjudicate.notice.huddleOpen' }, { room: sent.room, items: sent.item_ids.join(', ') }));
    await reloadHuddles();
  }, [client, huddleLan, intl, item, marked, reloadHuddles, run]);

  const takeOutcome = useCallback(async () => {
    const huddle = huddles[0];
    if (!huddle) return setError(intl.formatMessage({ id: 'adjudicate.error.noHuddle' }));
    if (!huddle.closed) return setError(intl.formatMessage({ id: 'adjudicate.error.roomOpen' }, { room: huddle.room }));
    if (draft.confidence === null || draft.causes.length === 0)
      return setError(intl.formatMessage({ id: 'adjudicate.error.outcomeIncomplete' }));
    const taken = await run(() => client.decideFromRoom(huddle.room, draft.confidence!, draft.causes, draft.rationale.trim() || null));
    if (!taken) return;
    setOutcome(taken);
    setNotice(intl.formatMessage({ id: 'adjudicate.notice.outcomeTaken' }, { room: taken.room, count: taken.decisions }));
    await reloadHuddles();
    await reload();
    if (item) {
      const view = await run(() => client.adjudicationItem(item.item_id));
      if (view) setItem(view);
    }
  }, [client, draft, huddles, intl, item, reload, reloadHuddles, run]);

  // a new item: its players start afresh, from annotator 1
  useEffect(() => {
    setCurrent(0);
    setPlaying(null);
  }, [item?.item_id]);

  const play = (n: number, from: number | null = null) => {
    const audio = players.current[n];
    setCurrent(n);
    if (!audio)
      return setError(
        intl.formatMessage(
          { id: 'adjudicate.error.noRecording' },
          { name: item?.protocols[n]?.shown ?? intl.formatMessage({ id: 'adjudicate.annotatorN' }, { n: n + 1 }) },
        ),
      );
    // one protocol heard at a time
    players.current.forEach((other, i) => i !== n && other && !other.paused && other.pause());
    if (from !== null) audio.currentTime = from;
    if (audio.paused || from !== null)
      audio.play().catch((e: Error) => setError(intl.formatMessage({ id: 'adjudicate.error.notPlayed' }, { message: e.message })));
    else audio.pause();
  };

  const toCommit = () => {
    const commit = item?.protocols[current]?.commit ?? null;
    if (!commit || commit.t_ms === null)
      return setError(
        intl.formatMessage(
          { id: 'adjudicate.error.noCommitTime' },
          { name: item?.protocols[current]?.shown ?? intl.formatMessage({ id: 'adjudicate.thisProtocol' }) },
        ),
      );
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

  if (!queue) return <p className="muted">{error ?? intl.formatMessage({ id: 'adjudicate.queue.reading' })}</p>;
  const c = queue.counts;
  const agreementWords = (agreement: number | null | undefined) =>
    intl.formatMessage(
      { id: 'adjudicate.agreement' },
      { value: agreement == null ? '—' : intl.formatNumber(agreement, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) },
    );
  return (
    <div className="adjudicate">
      <aside className="adj-queue" aria-label={intl.formatMessage({ id: 'adjudicate.queue.label' })}>
        <p className="muted">
          <FormattedMessage
            id="adjudicate.queue.counts"
            values={{ queued: c.queued, decided: c.decided, unanimous: c.unanimous, tooFew: c.too_few }}
          />
        </p>
        <p className="muted adj-order">
          <FormattedMessage
            id={queue.order === 'uncertainty' ? 'adjudicate.queue.uncertaintyOrder' : 'adjudicate.queue.agreementOrder'}
            values={{ model: queue.label_model }}
          />
        </p>
        <ol>
          {queue.rows.map((r, i) => (
            <li key={r.item_id} className={`${i === index ? 'current ' : ''}${r.status}`} aria-current={i === index ? 'true' : undefined}>
              <button onClick={() => setIndex(i)}>
                {marked.includes(r.item_id) && (
                  <span className="adj-marked" title={intl.formatMessage({ id: 'adjudicate.queue.markedTitle' })}>
                    ◆{' '}
                  </span>
                )}
                <code>{r.item_id}</code> {r.status === 'decided' ? `✓ ${r.gold_label}` : agreementWords(r.agreement)}
                {r.status !== 'decided' && r.uncertainty !== null && (
                  <span
                    className="adj-uncertainty"
                    title={intl.formatMessage({ id: 'adjudicate.queue.uncertaintyTitle' }, { model: queue.label_model })}
                  >
                    {' '}
                    ·{' '}
                    {intl.formatMessage(
                      { id: 'adjudicate.queue.uncertainty' },
                      { value: intl.formatNumber(r.uncertainty, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) },
                    )}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ol>
        {queue.rows.length === 0 && (
          <p>
            <FormattedMessage id="adjudicate.queue.empty" />
          </p>
        )}
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
              <code>{item.item_id}</code> · {agreementWords(item.agreement)}
              {item.decision && (
                <span className="adj-decided">
                  {' '}
                  ·{' '}
                  {intl.formatMessage(
                    { id: 'adjudicate.item.decided' },
                    { label: item.decision.label, adjudicator: item.decision.adjudicator },
                  )}
                  {item.decision.room !== null &&
                    ` ${intl.formatMessage({ id: 'adjudicate.item.huddleRoom' }, { room: item.decision.room })}`}
                </span>
              )}
            </h2>
            <blockquote className="adj-item-text">{item.item_text}</blockquote>
            {item.decision?.rationale && (
              <p className="adj-decision-rationale">
                {item.decision.rationale_kind === 'spoken'
                  ? intl.formatMessage(
                      { id: 'adjudicate.item.spokenRationale' },
                      { duration: duration(item.decision.rationale_audio_ms ?? 0), text: item.decision.rationale },
                    )
                  : intl.formatMessage({ id: 'adjudicate.item.typedRationale' }, { text: item.decision.rationale })}
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
          <form
            className="adj-decision"
            aria-label={intl.formatMessage({ id: 'adjudicate.form.label' })}
            onSubmit={(e) => (e.preventDefault(), void decide())}
          >
            <div role="group" aria-label={intl.formatMessage({ id: 'adjudicate.form.goldLabelGroup' })}>
              <FormattedMessage id="adjudicate.form.goldLabel" />{' '}
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
                <FormattedMessage id="adjudicate.form.goldLabelKeys" values={{ n: item.protocols.length }} />
              </span>
            </div>
            <div role="group" aria-label={intl.formatMessage({ id: 'adjudicate.form.confidenceGroup' })}>
              <FormattedMessage id="adjudicate.form.confidence" />{' '}
              {(['high', 'medium', 'low'] as const).map((conf) => (
                <button
                  type="button"
                  key={conf}
                  aria-pressed={draft.confidence === conf}
                  onClick={() => setDraft({ ...draft, confidence: conf })}
                >
                  <kbd>{conf[0]}</kbd> <FormattedMessage id="adjudicate.confidence" values={{ confidence: conf }} />
                </button>
              ))}
            </div>
            <div role="group" aria-label={intl.formatMessage({ id: 'adjudicate.form.causesGroup' })}>
              <FormattedMessage id="adjudicate.form.causes" />{' '}
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
              <FormattedMessage id="adjudicate.form.rationale" values={{ kbd }} />{' '}
              <input
                ref={rationaleRef}
                value={draft.rationale}
                onKeyDown={fieldKeys}
                onChange={(e) => setDraft({ ...draft, rationale: e.target.value })}
              />
            </label>
            <p className="adj-spoken" role="status" aria-label={intl.formatMessage({ id: 'adjudicate.spoken.label' })}>
              {spoken.state === 'recording' && (
                <FormattedMessage id="adjudicate.spoken.recording" values={{ duration: duration(spoken.elapsedMs), kbd }} />
              )}
              {spoken.state === 'starting' && intl.formatMessage({ id: 'adjudicate.spoken.starting' })}
              {spoken.state === 'transcribing' && intl.formatMessage({ id: 'adjudicate.spoken.transcribing' })}
              {spoken.state === 'idle' &&
                (spoken.transcribed?.item_id === item.item_id ? (
                  <>
                    <FormattedMessage
                      id="adjudicate.spoken.transcribed"
                      values={{ duration: duration(spoken.transcribed.audio_ms), text: spoken.transcribed.text }}
                    />{' '}
                    <button type="button" onClick={spoken.discard}>
                      <FormattedMessage id="adjudicate.spoken.discard" />
                    </button>
                  </>
                ) : (
                  <span className="muted">
                    <FormattedMessage id="adjudicate.spoken.hint" values={{ kbd }} />
                  </span>
                ))}
            </p>
            <label>
              <FormattedMessage id="adjudicate.form.guidelineFlag" values={{ kbd }} />{' '}
              <input
                ref={flagRef}
                value={draft.guideline_flag}
                onKeyDown={fieldKeys}
                onChange={(e) => setDraft({ ...draft, guideline_flag: e.target.value })}
              />
            </label>
            <button type="submit" className="primary">
              <FormattedMessage id="adjudicate.form.decide" />
            </button>
            {item.history.length > 0 && (
              <p className="muted">
                <FormattedMessage
                  id="adjudicate.form.earlier"
                  values={{
                    list: item.history
                      .map((h) =>
                        intl.formatMessage(
                          { id: 'adjudicate.form.earlierOne' },
                          {
                            label: h.label,
                            confidence: intl.formatMessage({ id: 'adjudicate.confidence' }, { confidence: h.confidence }),
                            time: intl.formatTime(h.decided_at, TIME_OF_DAY),
                          },
                        ),
                      )
                      .join(', '),
                  }}
                />
              </p>
            )}
          </form>
          {help && (
            <ShortcutHelp
              shortcuts={[
                ...adjudicationShortcutList(queue.causes, intl),
                guidelinesShortcut,
                { keys: ['Shift+R'], what: intl.formatMessage({ id: 'adjudicate.keys.speak' }) },
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
