import { useMemo, useState } from 'react';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import type { SessionView } from '../../../../core/common/session/sessionApi';
import type { SessionUpdate } from '../../../../core/common/session/sessionPatch';
import type { ItemSessionState, LabelSource } from '../../../../core/common/session/itemState';
import { filterReviewItems, NO_FILTER, playingSegment, segmentStartAfter, STATUS_CHOICES, type ReviewFilter } from './reviewModel';
import type { RunCall } from '../../shared/runCall';
import { PLAYBACK_RATES, REVIEW_SHORTCUTS, reviewShortcut, stepRate } from './reviewKeys';
import { FormattedMessage, useIntl } from 'react-intl';
import { shortcutText, keyName } from '../../shared/Dialogs';
import { useFormatClock } from '../../shared/i18n/useDuration';
import { ItemList } from '../../shared/ItemList';
import { ReviewFacts } from './ReviewFacts';
import { SegmentCorrections, type SegmentEdit } from './SegmentCorrections';
import { ReasoningSideBySide } from '../reasoning/ReasoningSideBySide';
import { TranscriptView } from '../../shared/TranscriptView';
import { CodingView } from '../coding/CodingView';
import { GuidelinesPanel } from '../guidelines/GuidelinesPanel';
import { DeidentifyReview } from '../deidentify/DeidentifyReview';
import { useShortcuts } from '../../shared/useShortcuts';
import { useItemState } from '../../shared/useItemState';
import { useWaveform } from './useWaveform';
import { useApi } from '../../shared/api';
import type { PlayedSpan } from './playbackSpans';

interface Props {
  project: ProjectView;
  session: SessionView;
  onSession?: (update: SessionUpdate) => void;
  /** runs a call, showing a refusal in the app's banner */
  run: RunCall;
}

const SOURCES: LabelSource[] = ['voice', 'click', 'key'];

/** Quality checks: every item, filters, the waveform with segments, commitments and pauses, and playback by key. */
export function ReviewScreen({ project, session, onSession, run }: Props) {
  const intl = useIntl();
  const states = useMemo(() => new Map(session.items.map((i) => [i.item_id, i])), [session.items]);
  const [filter, setFilter] = useState<ReviewFilter>(NO_FILTER);
  const shown = useMemo(() => filterReviewItems(project.items, states, filter), [filter, project.items, states]);
  const [itemId, setItemId] = useState<string | null>(session.current_item ?? project.items[0]?.id ?? null);
  const item = project.items.find((i) => i.id === itemId) ?? null;
  // the item's line (always held) says its label; its whole state (asked of the host when not held) the rest
  const line = itemId ? states.get(itemId) : undefined;
  const state = useItemState(session, itemId, line !== undefined);
  const labels = project.schema.labels.map((l) => l.name);
  const [coding, setCoding] = useState(false);
  if (coding) return <CodingView project={project} run={run} onLeave={() => setCoding(false)} />;

  return (
    <div className="review-screen">
      <div className="review-side">
        <button className="code-protocols" onClick={() => setCoding(true)} title={intl.formatMessage({ id: 'review.code.title' })}>
          <FormattedMessage id="review.code" />
        </button>
        <fieldset className="filters" aria-label={intl.formatMessage({ id: 'review.filters' })}>
          <legend>
            <FormattedMessage id="review.filters.legend" />
          </legend>
          <FilterChoice
            caption={intl.formatMessage({ id: 'review.filter.label' })}
            value={filter.label}
            choices={labels.map((l) => ({ value: l, words: l }))}
            onChange={(label) => setFilter({ ...filter, label })}
          />
          <FilterChoice
            caption={intl.formatMessage({ id: 'review.filter.source' })}
            value={filter.source}
            choices={SOURCES.map((s) => ({ value: s, words: intl.formatMessage({ id: 'review.source' }, { source: s }) }))}
            onChange={(source) => setFilter({ ...filter, source })}
          />
          <FilterChoice
            caption={intl.formatMessage({ id: 'review.filter.status' })}
            value={filter.status}
            choices={STATUS_CHOICES.map((c) => ({ value: c.value, words: intl.formatMessage({ id: c.words }) }))}
            onChange={(status) => setFilter({ ...filter, status })}
          />
          <label>
            <FormattedMessage id="review.filter.pause" />
            <input
              type="number"
              min={0}
              step={0.5}
              value={filter.longestPauseAboveS ?? ''}
              onChange={(e) => setFilter({ ...filter, longestPauseAboveS: e.target.value === '' ? null : Number(e.target.value) })}
            />
          </label>
          <p className="muted filter-count" role="status">
            <FormattedMessage id="review.filter.count" values={{ shown: shown.length, count: project.items.length }} />
            {filter !== NO_FILTER && (
              <button className="link" onClick={() => setFilter(NO_FILTER)}>
                <FormattedMessage id="review.filter.clear" />
              </button>
            )}
          </p>
        </fieldset>
        <ItemList
          items={shown}
          states={states}
          currentId={itemId}
          onOpen={(n) => setItemId(shown[n]!.id)}
          label={intl.formatMessage({ id: 'review.items' })}
        />
      </div>
      {item ? (
        <section className="item-pane" aria-label={intl.formatMessage({ id: 'review.item.name' })}>
          <div className="item-head">
            <span className="counter">
              <FormattedMessage
                id="review.item.head"
                values={{
                  id: <code>{item.id}</code>,
                  label: line?.final_label ?? intl.formatMessage({ id: 'review.item.noLabel' }),
                  source: line?.label_source ?? 'none',
                  completed: line?.completed_at ? 'yes' : 'no',
                  b: (text: React.ReactNode) => <strong>{text}</strong>,
                }}
              />
            </span>
          </div>
          <blockquote className="item-text compact">{item.text}</blockquote>
          {state && state.audio_ms > 0 ? (
            <Waveform
              key={state.item_id + ':' + state.audio_ms}
              project={project}
              state={state}
              onSession={onSession}
              run={run}
              ownSession={session.reviewer === null}
            />
          ) : (
            <p className="empty">
              <FormattedMessage id="review.noRecording" />
            </p>
          )}
          {state?.reasoning && <ReasoningSideBySide project={project} state={state} />}
        </section>
      ) : (
        <p className="empty">
          <FormattedMessage id="review.noMatch" />
        </p>
      )}
      <GuidelinesPanel
        names={project.schema.labels}
        kind="labels"
        projectLanguage={project.thinkaloud.languages[0] ?? 'en'}
        emphasis={line?.final_label ? [line.final_label] : []}
      />
    </div>
  );
}

/** The player of one recording: its lifecycle (useWaveform), the transport, the correction editor and the facts. */
function Waveform({
  project,
  state,
  onSession,
  run,
  ownSession,
}: {
  project: ProjectView;
  state: ItemSessionState;
  onSession?: ((update: SessionUpdate) => void) | undefined;
  run: RunCall;
  /** the session is the player's own (a reviewer's playback is hers and is not logged in the annotator's log) */
  ownSession: boolean;
}) {
  const intl = useIntl();
  const formatClock = useFormatClock();
  const [editing, setEditing] = useState<SegmentEdit>(null);
  const { thinkaloud } = project;
  const client = useApi();
  const logPlayed = (p: PlayedSpan) =>
    void run(() => client.logPlayback(state.item_id, p.audioFromMs, p.audioToMs, p.playedMs)).then((patch) => patch && onSession?.(patch));
  const player = useWaveform(state, thinkaloud, ownSession ? logPlayed : undefined);
  const { ready, playing, nowMs, rate } = player;
  useShortcuts((press, event) => {
    if (editing && !press.inField) return false;
    const action = reviewShortcut(press);
    if (!action) return false;
    switch (action.kind) {
      case 'leave-field':
        (event.target as HTMLElement).blur();
        return true;
      case 'play-pause':
        player.playPause();
        return true;
      case 'skip':
        player.skip(action.seconds);
        return true;
      case 'speed':
        player.changeRate(stepRate(rate, action.step));
        return true;
      case 'segment': {
        const to = segmentStartAfter(state.segments, nowMs, action.delta > 0 ? 1 : -1);
        if (to !== null) player.seek(to);
        return true;
      }
    }
  });

  return (
    <div className="review-player">
      <audio
        ref={player.audioRef}
        preload="metadata"
        aria-label={intl.formatMessage({ id: 'review.player.recording' }, { id: state.item_id })}
      />
      <div
        className="waveform"
        ref={player.waveRef}
        aria-label={intl.formatMessage({ id: 'review.player.waveform' }, { id: state.item_id })}
        role="img"
        data-ready={ready ? 'true' : 'false'}
      />
      <div className="timeline" ref={player.timelineRef} aria-hidden="true" />
      {player.problem && <p role="alert">{player.problem}</p>}
      <div className="transport" role="group" aria-label={intl.formatMessage({ id: 'review.player.transport' })}>
        <button
          onClick={player.playPause}
          disabled={!ready}
          aria-label={intl.formatMessage({ id: playing ? 'review.player.pause.name' : 'review.player.play.name' })}
          title={intl.formatMessage({ id: 'review.player.play.title' }, { key: keyName(intl, 'Space') })}
        >
          {intl.formatMessage({ id: playing ? 'review.player.pause' : 'review.player.play' })}
        </button>
        <button onClick={() => player.skip(-5)} disabled={!ready} title={intl.formatMessage({ id: 'review.player.back.title' })}>
          <FormattedMessage id="review.player.back" />
        </button>
        <button onClick={() => player.skip(5)} disabled={!ready} title={intl.formatMessage({ id: 'review.player.forward.title' })}>
          <FormattedMessage id="review.player.forward" />
        </button>
        <label className="rate">
          <FormattedMessage id="review.player.speed" />
          <select
            aria-label={intl.formatMessage({ id: 'review.player.speed.name' })}
            value={rate}
            onChange={(e) => player.changeRate(Number(e.target.value))}
            title={intl.formatMessage({ id: 'review.player.speed.title' })}
          >
            {PLAYBACK_RATES.map((r) => (
              <option key={r} value={r}>
                {intl.formatNumber(r)}×
              </option>
            ))}
          </select>
        </label>
        {/* said, not shown: a name on a plain span is not read */}
        <span className="visually-hidden">{intl.formatMessage({ id: 'review.player.position' })}</span>
        <span className="clock">
          {formatClock(nowMs)} / {formatClock(state.audio_ms)}
        </span>
        <span className="legend muted">
          <span className="swatch seg" /> <FormattedMessage id="review.legend.segment" /> <span className="swatch pause" />{' '}
          <FormattedMessage id="review.legend.pause" /> <span className="swatch commit" />{' '}
          <FormattedMessage id="review.legend.commitment" />
          {(state.cues?.length ?? 0) > 0 && (
            <>
              {' '}
              <span className="swatch cue" /> <FormattedMessage id="review.legend.cue" />
            </>
          )}
        </span>
      </div>
      <p className="muted small review-keys" aria-label={intl.formatMessage({ id: 'review.keys.name' })}>
        {REVIEW_SHORTCUTS.map((k, n) => (
          <span key={k.keys.join(' ')}>
            {n > 0 && ' · '}
            {k.keys.map((key) => (
              <kbd key={key}>{keyName(intl, key)}</kbd>
            ))}{' '}
            {shortcutText(intl, k.what)}
          </span>
        ))}
      </p>
      <SegmentCorrections
        state={state}
        active={playingSegment(state.segments, nowMs)}
        seek={player.seek}
        editing={editing}
        onEditing={setEditing}
        run={run}
        onSession={onSession}
      />
      <ReviewFacts state={state} pauses={player.pauses} ready={ready} seek={player.seek} />
      <TranscriptView itemId={state.item_id} state={state} fillers={thinkaloud.fillers} listening={false} />
      <DeidentifyReview
        itemId={state.item_id}
        version={`${state.segments.length}:${state.corrections.length}`}
        seek={player.seek}
        run={run}
      />
    </div>
  );
}

/** One filter of the review list: one of `choices`, or any (the empty value, handed on as null). */
function FilterChoice<T extends string>(props: {
  caption: string;
  value: T | null;
  choices: ReadonlyArray<{ value: T; words: string }>;
  onChange: (value: T | null) => void;
}) {
  const intl = useIntl();
  return (
    <label>
      {props.caption}
      <select value={props.value ?? ''} onChange={(e) => props.onChange((e.target.value || null) as T | null)}>
        <option value="">{intl.formatMessage({ id: 'review.filter.any' })}</option>
        {props.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.words}
          </option>
        ))}
      </select>
    </label>
  );
}
