import type { LivePartial } from '../../common/engine/liveUtterances';
import type { ShadowFeed } from '../../common/rooms/shadowFeed';
import type { ItemSessionState } from '../../common/session/itemState';
import type { SessionEvent } from '../../common/session/sessionEvents';
import type { SessionService } from '../session/sessionService';

/**
 * What a tap may touch of the expert's session: its events and its fold, read only. No method that writes is in
 * this type, so nothing a shadow room does can reach her log.
 */
export type TappedSession = Pick<SessionService, 'on' | 'off' | 'itemState' | 'currentItem' | 'isRecording' | 'state'> & {
  readonly store: Pick<SessionService['store'], 'annotator' | 'utterancesOf'>;
};

function marks(state: ItemSessionState | null): Pick<Extract<ShadowFeed, { kind: 'utterance' }>, 'commitments' | 'diagnostics'> {
  return {
    commitments: (state?.commitments ?? []).map((c) => ({ start: c.start, end: c.end, label: c.label })),
    diagnostics: (state?.parse_diagnostics ?? []).map((d) => ({ start: d.start, end: d.end, kind: d.kind, message: d.message })),
  };
}

/** The item as her session holds it now: what a room shows when she opens it (or when the tap begins). */
function itemRecord(session: TappedSession, itemId: string, recording: boolean): ShadowFeed {
  const state = session.itemState(itemId);
  const first = state?.label_history[0];
  const last = state?.label_history.at(-1);
  return {
    kind: 'item',
    item_id: itemId,
    prior: first && last ? { blind_label: first.label, final_label: last.label, label_source: last.source } : null,
    utterances: session.store
      .utterancesOf(itemId)
      .map((u) => ({ utterance: u.utterance, segments: u.segments.map((s) => ({ t0_ms: s.t0_ms, t1_ms: s.t1_ms, text: s.text })) })),
    ...marks(state),
    selection: state?.selection ? { start: state.selection.start, end: state.selection.end, quote: state.selection.quote } : null,
    reasoning: state?.reasoning ? { steps: state.reasoning.steps, model_label: state.reasoning.model_label } : null,
    recording,
    completed: state?.completed_at !== null && state?.completed_at !== undefined,
  };
}

/**
 * Listens to the expert's session and tells a shadow room what happens, as feed records: the item she opens, her
 * recording, its audio (for pauses, and for trainees only if she shares it), partial and final transcripts with
 * the commit phrases her parser found, her label acts with their source, her selection, the model's reasoning once
 * she has seen it, completion. It only reads; `send` must not throw (a room that refuses a record cannot stop her).
 * Returns the function that stops listening (and says her session left, unless `quietly`).
 */
export function tapSession(
  session: TappedSession,
  via: 'app' | 'ingest',
  send: (feed: ShadowFeed) => void,
): (options?: { quietly?: boolean }) => void {
  send({ kind: 'expert', annotator: session.store.annotator, via });
  const current = session.currentItem;
  if (current !== null) send(itemRecord(session, current, session.isRecording && session.state().recording?.item_id === current));

  const onEvent = (event: SessionEvent) => {
    switch (event.type) {
      case 'item_opened':
        return send(itemRecord(session, event.data.item_id, false));
      case 'recording_started':
        return send({ kind: 'recording', item_id: event.data.item_id, on: true });
      case 'recording_stopped':
        return send({ kind: 'recording', item_id: event.data.item_id, on: false });
      case 'utterance_transcribed': {
        const { item_id, utterance, segments } = event.data;
        return send({
          kind: 'utterance',
          item_id,
          utterance,
          segments: segments.map((s) => ({ t0_ms: s.t0_ms, t1_ms: s.t1_ms, text: s.text })),
          ...marks(session.itemState(item_id)),
        });
      }
      case 'label_committed': {
        const { item_id, label, source, quote, audio_ms } = event.data;
        const state = session.itemState(item_id);
        return send({
          kind: 'label',
          item_id,
          label,
          source,
          quote,
          audio_ms,
          blind_label: state?.blind_label ?? label,
          final_label: state?.final_label ?? label,
        });
      }
      case 'text_selected':
        return send({ kind: 'selection', item_id: event.data.item_id, span: event.data.span });
      case 'reasoning_shown':
        return send({ kind: 'reasoning', item_id: event.data.item_id, steps: event.data.steps, model_label: event.data.model_label });
      case 'item_completed':
        return send({ kind: 'completed', item_id: event.data.item_id });
      default:
        return;
    }
  };
  const onPartial = (p: LivePartial) => send({ kind: 'partial', item_id: p.item_id, utterance: p.utterance, text: p.text });
  const onAudio = (a: { item_id: string; start_sample: number; pcm: Float32Array }) =>
    send({ kind: 'audio', item_id: a.item_id, start_sample: a.start_sample, pcm: a.pcm });
  session.on('event', onEvent);
  session.on('partial', onPartial);
  session.on('audio', onAudio);
  return (options = {}) => {
    session.off('event', onEvent);
    session.off('partial', onPartial);
    session.off('audio', onAudio);
    if (!options.quietly) send({ kind: 'left' });
  };
}
