import { useMemo, useState } from 'react';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import type { SessionView } from '../../../../core/common/session/sessionApi';
import type { SessionUpdate } from '../../../../core/common/session/sessionPatch';
import type { ItemSessionState, LabelSource } from '../../../../core/common/session/itemState';
import { filterReviewItems, NO_FILTER, playingSegment, segmentStartAfter, STATUS_CHOICES, type ReviewFilter } from './reviewModel';
import type { RunCall } from '../../shared/runCall';
import { PLAYBACK_RATES, REVIEW_SHORTCUTS, reviewShortcut, stepRate } from './reviewKeys';
import { formatClock } from '../../../../core/common/transcript/transcriptMarks';
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
        <button className="code-protocols" onClick={() => setCoding(true)} title="Code the protocols' units with the project's codebook">
          Code protocols…
        </button>
        <fieldset className="filters" aria-label="filters">
          <legend>Show items</legend>
          <FilterChoice
            caption="Label"
            value={filter.label}
            choices={labels.map((l) => ({ value: l, words: l }))}
            onChange={(label) => setFilter({ ...filter, label })}
          />
          <FilterChoice
            caption="Label by"
            value={filter.source}
            choices={SOURCES.map((s) => ({ value: s, words: s }))}
            onChange={(source) => setFilter({ ...filter, source })}
          />
          <FilterChoice
            caption="Status"
            value={filter.status}
            choices={STATUS_CHOICES}
            onChange={(status) => setFilter({ ...filter, status })}
          />
          <label>
            Longest pause over (s)
            <input
              type="number"
              min={0}
              step={0.5}
              value={filter.longestPauseAboveS ?? ''}
              onChange={(e) => setFilter({ ...filter, longestPauseAboveS: e.target.value === '' ? null : Number(e.target.value) })}
            />
          </label>
          <p className="muted filter-count" role="status">
            {shown.length} of {project.items.length} items
            {filter !== NO_FILTER && (
              <button className="link" onClick={() => setFilter(NO_FILTER)}>
                clear
              </button>
            )}
          </p>
        </fieldset>
        <ItemList items={shown} states={states} currentId={itemId} onOpen={(n) => setItemId(shown[n]!.id)} label="items to review" />
      </div>
      {item ? (
        <section className="item-pane" aria-label="review of the item">
          <div className="item-head">
            <span className="counter">
              <code>{item.id}</code> · label <strong>{line?.final_label ?? 'none'}</strong>
              {line?.label_source ? ` by ${line.label_source}` : ''}
              {line?.completed_at ? ' · completed' : ''}
            </span>
          </div>
          <blockquote className="item-text compact">{item.text}</blockquote>
          {state && state.audio_ms > 0 ? (
            <Waveform key={state.item_id + ':' + state.audio_ms} project={project} state={state} onSession={onSession} run={run} />
          ) : (
            <p className="empty">No recording for this item yet. Record it on the Label tab.</p>
          )}
          {state?.reasoning && <ReasoningSideBySide project={project} state={state} />}
        </section>
      ) : (
        <p className="empty">No item matches the filter.</p>
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
}: {
  project: ProjectView;
  state: ItemSessionState;
  onSession?: ((update: SessionUpdate) => void) | undefined;
  run: RunCall;
}) {
  const [editing, setEditing] = useState<SegmentEdit>(null);
  const { thinkaloud } = project;
  const player = useWaveform(state, thinkaloud);
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
      <audio ref={player.audioRef} preload="metadata" aria-label={`recording of ${state.item_id}`} />
      <div
        className="waveform"
        ref={player.waveRef}
        aria-label={`waveform of ${state.item_id}`}
        role="img"
        data-ready={ready ? 'true' : 'false'}
      />
      <div className="timeline" ref={player.timelineRef} aria-hidden="true" />
      {player.problem && <p role="alert">{player.problem}</p>}
      <div className="transport" role="group" aria-label="playback">
        <button onClick={player.playPause} disabled={!ready} aria-label={playing ? 'pause' : 'play'} title="Play / pause (Space)">
          {playing ? '❚❚ Pause' : '▶ Play'}
        </button>
        <button onClick={() => player.skip(-5)} disabled={!ready} title="Back 5 s (J)">
          −5 s
        </button>
        <button onClick={() => player.skip(5)} disabled={!ready} title="Forward 5 s (L)">
          +5 s
        </button>
        <label className="rate">
          Speed
          <select
            aria-label="playback speed"
            value={rate}
            onChange={(e) => player.changeRate(Number(e.target.value))}
            title="Slower / faster ([ and ])"
          >
            {PLAYBACK_RATES.map((r) => (
              <option key={r} value={r}>
                {r}×
              </option>
            ))}
          </select>
        </label>
        <span className="clock" aria-label="position">
          {formatClock(nowMs)} / {formatClock(state.audio_ms)}
        </span>
        <span className="legend muted">
          <span className="swatch seg" /> segment <span className="swatch pause" /> pause <span className="swatch commit" /> commitment
          {(state.cues?.length ?? 0) > 0 && (
            <>
              {' '}
              <span className="swatch cue" /> keep-talking cue
            </>
          )}
        </span>
      </div>
      <p className="muted small review-keys" aria-label="review keys">
        {REVIEW_SHORTCUTS.map((k, n) => (
          <span key={k.what}>
            {n > 0 && ' · '}
            {k.keys.map((key) => (
              <kbd key={key}>{key}</kbd>
            ))}{' '}
            {k.what}
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
      <TranscriptView state={state} fillers={thinkaloud.fillers} listening={false} />
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
  return (
    <label>
      {props.caption}
      <select value={props.value ?? ''} onChange={(e) => props.onChange((e.target.value || null) as T | null)}>
        <option value="">any</option>
        {props.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.words}
          </option>
        ))}
      </select>
    </label>
  );
}
