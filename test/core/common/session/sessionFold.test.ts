import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseProjectConfig } from '../../../../core/common/project/projectConfig';
import { foldSession, SessionFold } from '../../../../core/common/session/sessionFold';
import { EVENT_VERSIONS, type SessionEvent, type SessionEventData, type SessionEventType } from '../../../../core/common/session/sessionEvents';
import { SessionLogError } from '../../../../core/common/session/sessionLog';
import type { Segment } from '../../../../core/common/transcript/segment';

const here = path.dirname(fileURLToPath(import.meta.url));
const config = parseProjectConfig(readFileSync(path.join(here, '../../../../demo-project/aloud.yaml'), 'utf8'));
const model = { name: 'tiny.en', sha256: 'abc' };
const silence = { silent_chunks: 1, total_chunks: 2, pauses: { count: 0, total_ms: 0, longest_ms: 0, long_count: 0 }, time_to_first_speech_ms: 120 };

/** Builds a log: each call adds the next event with seq and a ts one second later. */
function logBuilder() {
  const events: SessionEvent[] = [];
  const add = <T extends SessionEventType>(type: T, data: SessionEventData[T]): SessionEvent => {
    const seq = events.length + 1;
    const event = { v: EVENT_VERSIONS[type], seq, ts: new Date(Date.UTC(2024, 4, 1, 10, 0, seq)).toISOString(), type, data } as SessionEvent;
    events.push(event);
    return event;
  };
  add('session_started', { annotator: 'ana', project_name: 'politeness-demo', sample_rate: 16000 });
  return { events, add };
}

function seg(t0_ms: number, t1_ms: number, text: string): Segment {
  return { t0_ms, t1_ms, text };
}

function utterance(item_id: string, index: number, segments: Segment[]): SessionEventData['utterance_transcribed'] {
  return { item_id, utterance: index, request_id: `r${index}`, start_sample: 0, end_sample: 0, segments, model };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

describe('foldSession', () => {
  it('joins the transcript in utterance order and finds voice commitments across utterance boundaries', () => {
    const { events, add } = logBuilder();
    add('item_opened', { item_id: 'demo-01' });
    add('utterance_transcribed', utterance('demo-01', 1, [seg(2000, 2900, ' polite.')]));
    add('utterance_transcribed', utterance('demo-01', 0, [seg(0, 900, ' Hmm, um, nice.'), seg(1000, 1900, ' I label this')]));
    const item = foldSession(deepFreeze(events), config).items[0]!;
    expect(item.transcript).toBe(' Hmm, um, nice. I label this polite.');
    expect(item.segments.map((s) => s.t0_ms)).toEqual([0, 1000, 2000]);
    expect(item.commitments).toHaveLength(1);
    const c = item.commitments[0]!;
    expect(item.transcript.slice(c.start, c.end)).toBe(c.quote);
    expect(c).toMatchObject({ label: 'Polite', quote: 'I label this polite' });
    expect(c.t_ms).toBeGreaterThan(2000);
    expect(c.t_ms).toBeLessThanOrEqual(2900);
    expect(item).toMatchObject({ final_label: 'Polite', label_source: 'voice', blind_label: 'Polite', model });
    expect(item.signals).toMatchObject({ commitment_count: 1, filler_count: 2, fillers_by_term: { um: 1, hmm: 1 } });
  });

  it('final label is the last commitment across voice, click and key by event order; blind label the first', () => {
    const { events, add } = logBuilder();
    add('item_opened', { item_id: 'demo-02' });
    add('utterance_transcribed', utterance('demo-02', 0, [seg(0, 1000, ' My answer is impolite.')]));
    add('label_committed', { item_id: 'demo-02', label: 'Neutral', source: 'click', quote: null, start: null, end: null, stem: null });
    let item = foldSession(events, config).items[0]!;
    expect(item).toMatchObject({ final_label: 'Neutral', label_source: 'click', blind_label: 'Impolite' });
    expect(item.manual_labels).toEqual([{ label: 'Neutral', source: 'click', at: events[3]!.ts }]);
    // a later utterance commits by voice again: it comes after the click
    add('utterance_transcribed', utterance('demo-02', 1, [seg(1500, 2500, ' Final answer: polite.')]));
    item = foldSession(events, config).items[0]!;
    expect(item).toMatchObject({ final_label: 'Polite', label_source: 'voice', blind_label: 'Impolite' });
    expect(item.commitments.map((c) => c.label)).toEqual(['Impolite', 'Polite']);
    add('label_committed', { item_id: 'demo-02', label: 'Impolite', source: 'key', quote: null, start: null, end: null, stem: null });
    item = foldSession(events, config).items[0]!;
    expect(item).toMatchObject({ final_label: 'Impolite', label_source: 'key' });
  });

  it('logged voice label_committed and label_changed events are records; the fold derives labels from the transcript', () => {
    const { events, add } = logBuilder();
    add('utterance_transcribed', utterance('a', 0, [seg(0, 1000, ' I would not label this polite.')]));
    add('label_committed', { item_id: 'a', label: 'Polite', source: 'voice', quote: 'x', start: 0, end: 1, stem: 'x' });
    add('label_changed', { item_id: 'a', from: 'Polite', to: 'Impolite', source: 'voice' });
    const item = foldSession(events, config).items[0]!;
    expect(item.commitments).toEqual([]);
    expect(item.final_label).toBeNull();
    expect(item.parse_diagnostics?.map((d) => d.kind)).toEqual(['negated']);
  });

  it('tracks audio, current item, the open recording, completion, stale results and notes', () => {
    const { events, add } = logBuilder();
    add('item_opened', { item_id: 'demo-01' });
    add('recording_started', { item_id: 'demo-01', audio_path: 'sessions/ana/audio/demo-01.wav', offset_samples: 0, device: null });
    add('audio_appended', { item_id: 'demo-01', offset_samples: 0, samples: 16000 });
    add('audio_appended', { item_id: 'demo-01', offset_samples: 16000, samples: 8000 });
    let state = foldSession(events, config);
    expect(state.recording).toEqual({ item_id: 'demo-01', since_seq: 3 });
    expect(state.items[0]).toMatchObject({ audio_path: 'sessions/ana/audio/demo-01.wav', audio_ms: 1500, signals: null, started_at: events[1]!.ts });
    add('recording_stopped', { item_id: 'demo-01', total_samples: 24000, reason: 'user', error: null });
    add('signals_computed', { item_id: 'demo-01', audio_samples: 24000, audio: silence });
    add('stale_result', { item_id: 'demo-01', request_id: 'r9', reason: 'superseded' });
    add('item_completed', { item_id: 'demo-01' });
    add('item_opened', { item_id: 'demo-02' });
    add('note', { item_id: 'demo-02', text: 'dog barking' });
    state = foldSession(events, config);
    expect(state).toMatchObject({ annotator: 'ana', project_name: 'politeness-demo', current_item: 'demo-02', recording: null, last_seq: 11 });
    expect(state.items.map((i) => i.item_id)).toEqual(['demo-01', 'demo-02']);
    expect(state.items[0]).toMatchObject({ signals: silence, stale_results: 1, completed_at: events[8]!.ts });
    expect(state.notes).toEqual([{ seq: 11, ts: events[10]!.ts, item_id: 'demo-02', text: 'dog barking' }]);
    // audio recorded after the signals were computed makes them stale until the next stop
    add('item_opened', { item_id: 'demo-01' });
    add('recording_started', { item_id: 'demo-01', audio_path: 'sessions/ana/audio/demo-01.wav', offset_samples: 24000, device: null });
    add('audio_appended', { item_id: 'demo-01', offset_samples: 24000, samples: 1600 });
    add('recording_stopped', { item_id: 'demo-01', total_samples: 25600, reason: 'recovered', error: null });
    add('audio_recovered', { item_id: 'demo-01', samples_logged: 25600, samples_total: 27200, header_repaired: true });
    const item = foldSession(events, config).items[0]!;
    expect(item.audio_ms).toBe(1700);
    expect(item.signals).toBeNull();
  });

  it('audio that does not follow on is corruption, named by line', () => {
    const { events, add } = logBuilder();
    add('recording_started', { item_id: 'a', audio_path: 'sessions/ana/audio/a.wav', offset_samples: 0, device: null });
    add('audio_appended', { item_id: 'a', offset_samples: 0, samples: 100 });
    add('audio_appended', { item_id: 'a', offset_samples: 50, samples: 100 });
    expect(() => foldSession(events, config, 'sessions/ana/events.jsonl')).toThrow(
      new SessionLogError('sessions/ana/events.jsonl', 4, 'audio_appended: offset_samples 50 but the item\'s audio has 100 samples'),
    );
    events.pop();
    add('recording_started', { item_id: 'b', audio_path: 'sessions/ana/audio/b.wav', offset_samples: 0, device: null });
    expect(() => foldSession(events, config)).toThrow('events.jsonl:4: recording_started: a recording of "a" (line 2) was never stopped');
  });

  it('checkAppend refuses events that would not fit, before anything is written', () => {
    const fold = new SessionFold(config);
    const { events } = logBuilder();
    fold.apply(events[0]!);
    expect(() => fold.checkAppend([{ type: 'audio_appended', data: { item_id: 'a', offset_samples: 0, samples: 1 } }], 2)).toThrow('events.jsonl:2: audio_appended: no recording of "a" is running');
    expect(() => fold.checkAppend([{ type: 'item_opened', data: { item_id: '' } }], 2)).toThrow('events.jsonl:2: item_opened: data.item_id must NOT have fewer than 1 characters');
    fold.checkAppend(
      [
        { type: 'recording_started', data: { item_id: 'a', audio_path: 'p', offset_samples: 0, device: null } },
        { type: 'audio_appended', data: { item_id: 'a', offset_samples: 0, samples: 1 } },
      ],
      2,
    );
    expect(fold.state().recording).toBeNull();
  });
});

describe('SessionFold derived item states', () => {
  it('derives an item again only after an event for that item, and always equals a full replay', () => {
    const { events, add } = logBuilder();
    add('item_opened', { item_id: 'demo-01' });
    add('utterance_transcribed', utterance('demo-01', 0, [seg(0, 1000, ' I label this polite.')]));
    add('item_opened', { item_id: 'demo-02' });
    const fold = new SessionFold(config);
    for (const e of events) fold.apply(e);
    const before = fold.state();
    const first = before.items.find((i) => i.item_id === 'demo-01')!;
    const second = before.items.find((i) => i.item_id === 'demo-02')!;
    expect(fold.state().items[0]).toBe(first); // nothing changed: reused, not parsed again

    fold.apply(add('utterance_transcribed', utterance('demo-02', 0, [seg(0, 900, ' My answer is impolite.')])));
    const after = fold.state();
    expect(after.items.find((i) => i.item_id === 'demo-01')).toBe(first);
    const changed = after.items.find((i) => i.item_id === 'demo-02')!;
    expect(changed).not.toBe(second);
    expect(changed.final_label).toBe('Impolite');
    fold.apply(add('label_committed', { item_id: 'demo-01', label: 'Neutral', source: 'key', quote: null, start: null, end: null, stem: null }));
    expect(fold.itemState('demo-01')!.final_label).toBe('Neutral');
    expect(fold.state()).toEqual(foldSession(events, config));
  });
});
