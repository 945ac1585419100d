import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parserInputsText } from '../../../../core/common/analysis/parserInputs';
import { parseProjectConfig } from '../../../../core/common/project/projectConfig';
import { PARSER_VERSION } from '../../../../core/common/parser/parserVersion';
import { foldSession, SessionFold } from '../../../../core/common/session/sessionFold';
import {
  EVENT_VERSIONS,
  type SessionEvent,
  type SessionEventData,
  type SessionEventType,
} from '../../../../core/common/session/sessionEvents';
import type { Segment } from '../../../../core/common/transcript/segment';

const here = path.dirname(fileURLToPath(import.meta.url));
const config = parseProjectConfig(readFileSync(path.join(here, '../../../../demo-project/aloud.yaml'), 'utf8'));
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const model = { name: 'tiny.en', sha256: 'abc', whisper_cpp: null, vad: null };
const silence = {
  silent_chunks: 1,
  total_chunks: 2,
  pauses: { count: 0, total_ms: 0, longest_ms: 0, long_count: 0 },
  time_to_first_speech_ms: 120,
};

/** Builds a log: each call adds the next event with seq and a ts one second later. */
function logBuilder() {
  const events: SessionEvent[] = [];
  const add = <T extends SessionEventType>(type: T, data: SessionEventData[T]): SessionEvent => {
    const seq = events.length + 1;
    const event = {
      v: EVENT_VERSIONS[type],
      seq,
      ts: new Date(Date.UTC(2024, 4, 1, 10, 0, seq)).toISOString(),
      type,
      data,
    } as SessionEvent;
    events.push(event);
    return event;
  };
  add('session_started', {
    annotator: 'ana',
    project_name: 'politeness-demo',
    sample_rate: 16000,
    config_sha256: CONFIG_A,
    parser_version: PARSER_VERSION,
    parser_inputs_sha256: null,
    kind: 'annotator',
    room: null,
  });
  return { events, add };
}

const CONFIG_A = 'a'.repeat(64);
const CONFIG_B = 'b'.repeat(64);

/** A click or key act. */
function manual(item_id: string, label: string, source: 'click' | 'key' | 'correction'): SessionEventData['label_committed'] {
  return {
    item_id,
    label,
    source,
    quote: null,
    start: null,
    end: null,
    stem: null,
    audio_ms: null,
    utterance: null,
    parser_version: null,
    reviewer: null,
  };
}

/** A voice act as the service logs it when a transcription lands. */
function voice(
  item_id: string,
  label: string,
  at: { quote: string; start: number; audio_ms: number | null; utterance: number },
): SessionEventData['label_committed'] {
  return {
    item_id,
    label,
    source: 'voice',
    quote: at.quote,
    start: at.start,
    end: at.start + at.quote.length,
    stem: 'i label this',
    audio_ms: at.audio_ms,
    utterance: at.utterance,
    parser_version: PARSER_VERSION,
    reviewer: null,
  };
}

const opened = (item_id: string): SessionEventData['item_opened'] => ({ item_id, text_sha256: null });

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
  it('joins the transcript in utterance order and reads voice commitments from the log, never from the parser', () => {
    const { events, add } = logBuilder();
    add('item_opened', opened('demo-01'));
    add('utterance_transcribed', utterance('demo-01', 1, [seg(2000, 2900, ' polite.')]));
    add('utterance_transcribed', utterance('demo-01', 0, [seg(0, 900, ' Hmm, um, nice.'), seg(1000, 1900, ' I label this')]));
    let item = foldSession(deepFreeze(events.slice()), config).items[0]!;
    expect(item.transcript).toBe(' Hmm, um, nice. I label this polite.');
    expect(item.segments.map((s) => s.t0_ms)).toEqual([0, 1000, 2000]);
    expect(item.segment_refs).toEqual([
      { utterance: 0, segment: 0 },
      { utterance: 0, segment: 1 },
      { utterance: 1, segment: 0 },
    ]);
    // the transcript holds a commit phrase, but no voice act was logged: no label
    expect(item.commitments).toEqual([]);
    expect(item.final_label).toBeNull();
    add('label_committed', voice('demo-01', 'Polite', { quote: 'I label this polite', start: 16, audio_ms: 2800, utterance: 1 }));
    item = foldSession(events, config).items[0]!;
    expect(item.commitments).toEqual([
      { label: 'Polite', quote: 'I label this polite', start: 16, end: 35, t_ms: 2800, stem: 'i label this' },
    ]);
    expect(item).toMatchObject({
      final_label: 'Polite',
      label_source: 'voice',
      blind_label: 'Polite',
      model,
      parser_version: PARSER_VERSION,
    });
    expect(item.signals).toMatchObject({
      commitment_count: 1,
      filler_count: 2,
      fillers_by_term: { um: 1, hmm: 1 },
      time_to_first_commit_ms: 2800,
    });
  });

  it('places a late voice result where it was said: a click after the phrase wins even when the transcript lands later', () => {
    const { events, add } = logBuilder();
    // seq 2 at 10:00:02; the recording starts at 10:00:03 and stops at 10:00:06 (4 s of audio in the WAV)
    add('item_opened', opened('a'));
    add('recording_started', { item_id: 'a', audio_path: 'sessions/ana/audio/a.wav', offset_samples: 0, device: null });
    add('audio_appended', { item_id: 'a', offset_samples: 0, samples: 64000 });
    add('recording_stopped', { item_id: 'a', total_samples: 64000, reason: 'user', error: null });
    add('label_committed', manual('a', 'Impolite', 'click')); // 10:00:06
    add('utterance_transcribed', utterance('a', 0, [seg(0, 2000, ' I label this polite.')])); // arrives late: 10:00:07
    add('label_committed', voice('a', 'Polite', { quote: 'I label this polite', start: 1, audio_ms: 2000, utterance: 0 })); // said at 10:00:05
    const item = foldSession(events, config).items[0]!;
    expect(item.label_history.map((h) => [h.source, h.label, h.at])).toEqual([
      ['voice', 'Polite', '2024-05-01T10:00:05.000Z'],
      ['click', 'Impolite', events[5]!.ts],
    ]);
    expect(item).toMatchObject({ final_label: 'Impolite', label_source: 'click', blind_label: 'Polite' });
    expect(item.label_history[0]).toMatchObject({ audio_ms: 2000, quote: 'I label this polite' });
    expect(item.signals?.label_changes).toBe(1);
  });

  it('a phrase said after a click wins, whenever its transcript lands', () => {
    const { events, add } = logBuilder();
    add('item_opened', opened('a'));
    add('label_committed', manual('a', 'Impolite', 'key')); // 10:00:03
    add('recording_started', { item_id: 'a', audio_path: 'sessions/ana/audio/a.wav', offset_samples: 0, device: null }); // 10:00:04
    add('audio_appended', { item_id: 'a', offset_samples: 0, samples: 32000 });
    add('recording_stopped', { item_id: 'a', total_samples: 32000, reason: 'user', error: null }); // 10:00:06
    add('utterance_transcribed', utterance('a', 0, [seg(0, 1500, ' Final answer: neutral.')]));
    add('label_committed', voice('a', 'Neutral', { quote: 'Final answer: neutral', start: 1, audio_ms: 1500, utterance: 0 }));
    const item = foldSession(events, config).items[0]!;
    expect(item.label_history.map((h) => h.source)).toEqual(['key', 'voice']);
    expect(item).toMatchObject({ final_label: 'Neutral', label_source: 'voice', blind_label: 'Impolite' });
  });

  it("audio said in a later recording of the item maps through that recording's start and offset", () => {
    const { events, add } = logBuilder();
    add('item_opened', opened('a'));
    add('recording_started', { item_id: 'a', audio_path: 'sessions/ana/audio/a.wav', offset_samples: 0, device: null }); // 10:00:03
    add('audio_appended', { item_id: 'a', offset_samples: 0, samples: 16000 });
    add('recording_stopped', { item_id: 'a', total_samples: 16000, reason: 'user', error: null });
    add('recording_started', { item_id: 'a', audio_path: 'sessions/ana/audio/a.wav', offset_samples: 16000, device: null }); // 10:00:06
    add('audio_appended', { item_id: 'a', offset_samples: 16000, samples: 64000 });
    add('recording_stopped', { item_id: 'a', total_samples: 80000, reason: 'user', error: null }); // 10:00:08, 4 s of audio in 2 s
    // 2.5 s into the item's audio = 1.5 s into the second recording
    add('label_committed', voice('a', 'Polite', { quote: 'I label this polite', start: 0, audio_ms: 2500, utterance: 1 }));
    expect(foldSession(events, config).items[0]!.label_history[0]!.at).toBe('2024-05-01T10:00:07.500Z');
    // audio cannot have been said after its recording stopped (an ingest faster than real time)
    add('label_committed', voice('a', 'Neutral', { quote: 'I label this neutral', start: 20, audio_ms: 4500, utterance: 1 }));
    expect(foldSession(events, config).items[0]!.label_history[1]!.at).toBe('2024-05-01T10:00:08.000Z');
  });

  it('keeps recorded labels when the configuration changes, flags it, and reports labels the schema no longer has', () => {
    const { events, add } = logBuilder();
    add('item_opened', opened('a'));
    add('utterance_transcribed', utterance('a', 0, [seg(0, 1000, ' I label this polite.')]));
    add('label_committed', voice('a', 'Polite', { quote: 'I label this polite', start: 1, audio_ms: 1000, utterance: 0 }));
    const renamed = {
      ...config,
      schema: { ...config.schema, labels: config.schema.labels.map((l) => (l.name === 'Polite' ? { ...l, name: 'Courteous' } : l)) },
    };
    const same = foldSession(events, config, 'events.jsonl', { configSha256: CONFIG_A });
    expect(same).toMatchObject({ config_changed: false, config_sha256: CONFIG_A });
    const changed = foldSession(events, renamed, 'events.jsonl', { configSha256: CONFIG_B });
    expect(changed.config_changed).toBe(true);
    expect(changed.items[0]).toMatchObject({ final_label: 'Polite', config_changed: true, labels_not_in_schema: ['Polite'] });
    // a session resumed under the new configuration does not make old labels current
    add('session_resumed', {
      pid: 1,
      host: 'h',
      config_sha256: CONFIG_B,
      parser_version: PARSER_VERSION,
      reviewer: null,
      parser_inputs_sha256: null,
    });
    expect(foldSession(events, renamed, 'events.jsonl', { configSha256: CONFIG_B }).items[0]!.config_changed).toBe(true);
    // re-derived labels replace the voice acts, under the configuration of the reparse
    add('labels_rederived', {
      item_id: 'a',
      config_sha256: CONFIG_B,
      parser_version: PARSER_VERSION,
      parser_inputs_sha256: null,
      from_final: 'Polite',
      to_final: null,
      commitments: [],
      diagnostics: [],
    });
    const reparsed = foldSession(events, renamed, 'events.jsonl', { configSha256: CONFIG_B }).items[0]!;
    expect(reparsed).toMatchObject({ final_label: null, config_changed: false, commitments: [] });
  });

  it("voice labels are versioned by the parser's inputs: a coding setting never marks them stale, a synonym does", () => {
    const { events } = logBuilder();
    const withInputs = (inputs: string | null) =>
      events.map((e) => (e.type === 'session_started' ? { ...e, data: { ...e.data, parser_inputs_sha256: inputs } } : e)) as SessionEvent[];
    const PARSER_A = sha(parserInputsText(config));
    const logged = withInputs(PARSER_A);
    const add = (type: SessionEventType, data: unknown) =>
      logged.push({
        v: EVENT_VERSIONS[type],
        seq: logged.length + 1,
        ts: `2024-05-01T10:00:${String(logged.length).padStart(2, '0')}.000Z`,
        type,
        data,
      } as SessionEvent);
    add('item_opened', opened('a'));
    add('utterance_transcribed', utterance('a', 0, [seg(0, 1000, ' I label this polite.')]));
    add('label_committed', voice('a', 'Polite', { quote: 'I label this polite', start: 1, audio_ms: 1000, utterance: 0 }));
    // coding.blind added: the aloud.yaml bytes differ (CONFIG_B), what the parser reads does not
    const blind = { ...config, coding: { ...config.coding, blind: true } };
    expect(sha(parserInputsText(blind))).toBe(PARSER_A);
    expect(
      foldSession(logged, blind, 'events.jsonl', { configSha256: CONFIG_B, parserInputsSha256: sha(parserInputsText(blind)) }),
    ).toMatchObject({ config_changed: false });
    // a label's key changes nothing the parser reads either; a synonym, a language or a stem does
    const keyed = {
      ...config,
      schema: { ...config.schema, labels: config.schema.labels.map((l) => ({ ...l, key: l.key === '1' ? '9' : l.key })) },
    };
    expect(sha(parserInputsText(keyed))).toBe(PARSER_A);
    const synonym = {
      ...config,
      schema: {
        ...config.schema,
        labels: config.schema.labels.map((l) =>
          l.name === 'Polite' ? { ...l, synonyms: { ...l.synonyms, en: [...(l.synonyms['en'] ?? []), 'courteous'] } } : l,
        ),
      },
    };
    const stems = { ...config, thinkaloud: { ...config.thinkaloud, stems: { en: ['my verdict is'] } } };
    const languages = { ...config, thinkaloud: { ...config.thinkaloud, languages: ['en', 'de'] } };
    for (const changed of [synonym, stems, languages]) {
      expect(sha(parserInputsText(changed))).not.toBe(PARSER_A);
      expect(
        foldSession(logged, changed, 'events.jsonl', { configSha256: CONFIG_B, parserInputsSha256: sha(parserInputsText(changed)) })
          .items[0]!.config_changed,
      ).toBe(true);
    }
    // a log from before the parser's inputs were logged falls back to the whole aloud.yaml
    expect(
      foldSession(withInputs(null).concat(logged.slice(1)), blind, 'events.jsonl', { configSha256: CONFIG_B, parserInputsSha256: PARSER_A })
        .config_changed,
    ).toBe(true);
  });

  it('corrections are a layer: the verbatim transcript and the labels stay, the corrected text is beside them', () => {
    const { events, add } = logBuilder();
    add('item_opened', opened('a'));
    add('utterance_transcribed', utterance('a', 0, [seg(0, 1000, ' I label this polar.'), seg(1000, 2000, ' Hmm.')]));
    add('transcript_corrected', {
      item_id: 'a',
      utterance: 0,
      segment: 0,
      original_sha256: 'c'.repeat(64),
      text: ' I label this polite.',
      annotator: 'rev',
      reviewer: null,
    });
    const item = foldSession(events, config).items[0]!;
    expect(item.transcript).toBe(' I label this polar. Hmm.');
    expect(item.segments[0]!.text).toBe(' I label this polar.');
    expect(item.transcript_corrected).toBe(' I label this polite. Hmm.');
    expect(item.corrections).toEqual([
      {
        utterance: 0,
        segment: 0,
        original_text: ' I label this polar.',
        text: ' I label this polite.',
        annotator: 'rev',
        reviewer: null,
        at: events[3]!.ts,
      },
    ]);
    expect(item.final_label).toBeNull();
    add('label_committed', { ...manual('a', 'Polite', 'correction'), quote: 'I label this polite' });
    expect(foldSession(events, config).items[0]).toMatchObject({ final_label: 'Polite', label_source: 'correction' });
  });

  it('superseded transcripts are kept aside and their voice labels give way to the new transcription', () => {
    const { events, add } = logBuilder();
    add('item_opened', opened('a'));
    add('utterance_transcribed', utterance('a', 0, [seg(0, 1000, ' I label this neutral.')]));
    add('label_committed', voice('a', 'Neutral', { quote: 'I label this neutral', start: 1, audio_ms: 1000, utterance: 0 }));
    add('transcripts_superseded', { item_id: 'a', utterances: [0], reason: 'transcribed again with base.en' });
    add('utterance_transcribed', utterance('a', 1, [seg(0, 1000, ' I label this polite.')]));
    add('label_committed', voice('a', 'Polite', { quote: 'I label this polite', start: 1, audio_ms: 1000, utterance: 1 }));
    const fold = new SessionFold(config);
    for (const e of events) fold.apply(e);
    const item = fold.itemState('a')!;
    expect(item.transcript).toBe(' I label this polite.');
    expect(item.superseded_transcripts).toEqual([
      {
        utterance: 0,
        text: ' I label this neutral.',
        corrected_text: null,
        model,
        superseded_at: events[4]!.ts,
        reason: 'transcribed again with base.en',
      },
    ]);
    expect(item.label_history.map((h) => h.label)).toEqual(['Polite']);
    expect(fold.nextUtteranceIndex('a')).toBe(2);
  });

  it('says when the final label changed after the item was completed', () => {
    const { events, add } = logBuilder();
    add('item_opened', opened('a'));
    add('label_committed', manual('a', 'Polite', 'key'));
    add('item_completed', { item_id: 'a' });
    expect(foldSession(events, config).items[0]!.changed_after_completion).toBe(false);
    add('label_committed', manual('a', 'Polite', 'click'));
    expect(foldSession(events, config).items[0]!.changed_after_completion).toBe(false);
    add('label_committed', manual('a', 'Neutral', 'key'));
    expect(foldSession(events, config).items[0]).toMatchObject({ final_label: 'Neutral', changed_after_completion: true });
  });

  it('a v1 voice commitment without audio time is timed by its recorded offsets in the transcript', () => {
    const { events, add } = logBuilder();
    add('item_opened', opened('a'));
    add('utterance_transcribed', utterance('a', 0, [seg(1000, 2000, ' I label this polite.')]));
    add('label_committed', {
      ...voice('a', 'Polite', { quote: 'I label this polite', start: 1, audio_ms: null, utterance: 0 }),
      utterance: null,
      parser_version: null,
    });
    const item = foldSession(events, config).items[0]!;
    // end offset 20 of 21 characters in a segment from 1000 to 2000 ms
    expect(item.commitments[0]!.t_ms).toBe(1952);
    expect(item.label_history[0]).toMatchObject({ audio_ms: 1952, at: events[3]!.ts });
  });

  it('tracks audio, current item, the open recording, completion, stale results and notes', () => {
    const { events, add } = logBuilder();
    add('item_opened', opened('demo-01'));
    add('recording_started', { item_id: 'demo-01', audio_path: 'sessions/ana/audio/demo-01.wav', offset_samples: 0, device: null });
    add('audio_appended', { item_id: 'demo-01', offset_samples: 0, samples: 16000 });
    add('audio_appended', { item_id: 'demo-01', offset_samples: 16000, samples: 8000 });
    let state = foldSession(events, config);
    expect(state.recording).toEqual({ item_id: 'demo-01', since_seq: 3 });
    expect(state.items[0]).toMatchObject({
      audio_path: 'sessions/ana/audio/demo-01.wav',
      audio_ms: 1500,
      signals: null,
      started_at: events[1]!.ts,
    });
    add('recording_stopped', { item_id: 'demo-01', total_samples: 24000, reason: 'user', error: null });
    add('signals_computed', { item_id: 'demo-01', audio_samples: 24000, audio: silence, vad: null, vad_model: null, takes: [0] });
    add('stale_result', { item_id: 'demo-01', request_id: 'r9', reason: 'superseded' });
    add('item_completed', { item_id: 'demo-01' });
    add('item_opened', opened('demo-02'));
    add('note', { item_id: 'demo-02', text: 'dog barking' });
    state = foldSession(events, config);
    expect(state).toMatchObject({
      annotator: 'ana',
      project_name: 'politeness-demo',
      current_item: 'demo-02',
      recording: null,
      last_seq: 11,
    });
    expect(state.items.map((i) => i.item_id)).toEqual(['demo-01', 'demo-02']);
    expect(state.items[0]).toMatchObject({ signals: silence, stale_results: 1, completed_at: events[8]!.ts });
    expect(state.notes).toEqual([{ seq: 11, ts: events[10]!.ts, item_id: 'demo-02', text: 'dog barking' }]);
    // audio recorded after the signals were computed makes them stale until the next stop
    add('item_opened', opened('demo-01'));
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
      "sessions/ana/events.jsonl:4: audio_appended: offset_samples 50 but the item's audio has 100 samples",
    );
    events.pop();
    add('recording_started', { item_id: 'b', audio_path: 'sessions/ana/audio/b.wav', offset_samples: 0, device: null });
    expect(() => foldSession(events, config)).toThrow('events.jsonl:4: recording_started: a recording of "a" (line 2) was never stopped');
  });

  it('checkAppend refuses events that would not fit, before anything is written', () => {
    const fold = new SessionFold(config);
    const { events } = logBuilder();
    fold.apply(events[0]!);
    expect(() => fold.checkAppend([{ type: 'audio_appended', data: { item_id: 'a', offset_samples: 0, samples: 1 } }], 2)).toThrow(
      'events.jsonl:2: audio_appended: no recording of "a" is running',
    );
    expect(() => fold.checkAppend([{ type: 'item_opened', data: { item_id: '', text_sha256: null } }], 2)).toThrow(
      'events.jsonl:2: item_opened: data.item_id must NOT have fewer than 1 characters',
    );
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
    add('item_opened', opened('demo-01'));
    add('utterance_transcribed', utterance('demo-01', 0, [seg(0, 1000, ' I label this polite.')]));
    add('item_opened', opened('demo-02'));
    const fold = new SessionFold(config);
    for (const e of events) fold.apply(e);
    const before = fold.state();
    const first = before.items.find((i) => i.item_id === 'demo-01')!;
    const second = before.items.find((i) => i.item_id === 'demo-02')!;
    expect(fold.state().items[0]).toBe(first); // nothing changed: reused, not derived again

    fold.apply(
      add('label_committed', voice('demo-02', 'Impolite', { quote: 'My answer is impolite', start: 1, audio_ms: 900, utterance: 0 })),
    );
    const after = fold.state();
    expect(after.items.find((i) => i.item_id === 'demo-01')).toBe(first);
    const changed = after.items.find((i) => i.item_id === 'demo-02')!;
    expect(changed).not.toBe(second);
    expect(changed.final_label).toBe('Impolite');
    fold.apply(add('label_committed', manual('demo-01', 'Neutral', 'key')));
    expect(fold.itemState('demo-01')!.final_label).toBe('Neutral');
    expect(fold.state()).toEqual(foldSession(events, config));
  });
});

describe('a v1 log (before the record became the log)', () => {
  it('folds from its recorded acts: the voice commitment timed by its offsets, the later key wins, notes kept', async () => {
    const { parseSessionLog } = await import('../../../../core/common/session/sessionLog');
    const { events } = parseSessionLog(readFileSync(path.join(here, 'fixtures/session-v1.jsonl'), 'utf8'), 'session-v1.jsonl');
    const state = foldSession(events, config);
    const item = state.items[0]!;
    expect(item.label_history).toEqual([
      // " Um, I label this polite." ends at offset 24 of 25 in a 0–2000 ms segment: 1920 ms after the recording began (09:00:03)
      { label: 'Polite', source: 'voice', at: '2025-11-20T09:00:04.920Z', audio_ms: 1920, quote: 'I label this polite', reviewer: null },
      { label: 'Neutral', source: 'key', at: '2025-11-20T09:00:09.000Z', audio_ms: null, quote: null, reviewer: null },
    ]);
    expect(item).toMatchObject({
      final_label: 'Neutral',
      label_source: 'key',
      blind_label: 'Polite',
      parser_version: null,
      config_changed: false,
    });
    expect(state.notes.map((n) => n.text)).toEqual(['skipped: the reply is cut off']);
  });
});

describe('review findings on the record', () => {
  it('a v1 voice act gets its utterance when applied, so a later transcription supersedes it too', async () => {
    const { parseSessionLog } = await import('../../../../core/common/session/sessionLog');
    const { events } = parseSessionLog(readFileSync(path.join(here, 'fixtures/session-v1.jsonl'), 'utf8'), 'session-v1.jsonl');
    const more: SessionEvent[] = [...events];
    const next = <T extends SessionEventType>(type: T, data: SessionEventData[T]) =>
      more.push({ v: EVENT_VERSIONS[type], seq: more.length + 1, ts: '2025-11-21T09:00:00.000Z', type, data } as SessionEvent);
    next('transcripts_superseded', { item_id: 'demo-01', utterances: [0], reason: 'transcribed again' });
    next('utterance_transcribed', utterance('demo-01', 1, [seg(0, 2000, ' Hmm, impolite maybe.')]));
    const item = foldSession(more, config).items[0]!;
    expect(item.label_history.map((h) => `${h.source}:${h.label}`)).toEqual(['key:Neutral']);
  });

  it('label_changes counts key and click changes on an item with no audio or transcript', () => {
    const { events, add } = logBuilder();
    add('item_opened', opened('a'));
    add('label_committed', manual('a', 'Polite', 'key'));
    add('label_committed', manual('a', 'Impolite', 'click'));
    expect(foldSession(events, config).items[0]!.signals).toMatchObject({ label_changes: 1 });
  });

  it('corrections of superseded utterances go with them; every correction of a segment is kept, the latest applies', () => {
    const { events, add } = logBuilder();
    add('item_opened', opened('a'));
    add('utterance_transcribed', utterance('a', 0, [seg(0, 1000, ' I label this polar.')]));
    add('transcript_corrected', {
      item_id: 'a',
      utterance: 0,
      segment: 0,
      original_sha256: 'c'.repeat(64),
      text: ' I label this pole.',
      annotator: 'rev',
      reviewer: null,
    });
    add('transcript_corrected', {
      item_id: 'a',
      utterance: 0,
      segment: 0,
      original_sha256: 'c'.repeat(64),
      text: ' I label this polite.',
      annotator: 'rev',
      reviewer: null,
    });
    let item = foldSession(events, config).items[0]!;
    expect(item.corrections.map((c) => c.text)).toEqual([' I label this pole.', ' I label this polite.']);
    expect(item.transcript_corrected).toBe(' I label this polite.');
    add('transcripts_superseded', { item_id: 'a', utterances: [0], reason: 'again' });
    add('utterance_transcribed', utterance('a', 1, [seg(0, 1000, ' I label this polite.')]));
    item = foldSession(events, config).items[0]!;
    expect(item).toMatchObject({ corrections: [], transcript_corrected: null });
    expect(item.superseded_transcripts[0]).toMatchObject({ text: ' I label this polar.', corrected_text: ' I label this polite.' });
  });

  it('a change after completion stays visible when it is undone', () => {
    const { events, add } = logBuilder();
    add('item_opened', opened('a'));
    add('label_committed', manual('a', 'Polite', 'key'));
    add('item_completed', { item_id: 'a' });
    add('label_committed', manual('a', 'Neutral', 'key'));
    add('label_committed', manual('a', 'Polite', 'key'));
    expect(foldSession(events, config).items[0]).toMatchObject({ final_label: 'Polite', changed_after_completion: true });
  });
});

describe('methods metadata in the fold', () => {
  it('time on item: first opening to first completion, and every stretch the item was open (a new sitting ends it at the last event)', () => {
    const { events, add } = logBuilder(); // session_started at :01, each event one second later
    add('item_opened', opened('a')); // :02
    add('note', { item_id: 'a', text: 'hm' }); // :03
    add('item_completed', { item_id: 'a' }); // :04
    add('item_opened', opened('b')); // :05 — a was open 3 s
    add('note', { item_id: 'b', text: 'x' }); // :06
    add('session_resumed', {
      pid: 1,
      host: 'h',
      config_sha256: CONFIG_A,
      parser_version: PARSER_VERSION,
      reviewer: null,
      parser_inputs_sha256: null,
    }); // :07 — b ends at :06
    add('item_opened', opened('a')); // :08
    add('item_completed', { item_id: 'a' }); // :09 — a open 1 s more, so far
    const state = foldSession(events, config);
    const [a, b] = [state.items.find((i) => i.item_id === 'a')!, state.items.find((i) => i.item_id === 'b')!];
    expect(a).toMatchObject({
      time_to_complete_ms: 2000,
      time_open_ms: 4000,
      first_completed_at: events[3]!.ts,
      completed_at: events[8]!.ts,
    });
    expect(b).toMatchObject({ time_to_complete_ms: null, time_open_ms: 1000, first_completed_at: null });
  });

  it("the kind of session: as session_started says; a room's write-back from before kinds were recorded is told by its room acts", () => {
    const { events, add } = logBuilder();
    add('item_opened', opened('a'));
    add('label_committed', manual('a', 'Polite', 'click'));
    expect(foldSession(events, config)).toMatchObject({ kind: 'annotator', room: null });
    const room = logBuilder();
    room.events[0] = {
      ...room.events[0]!,
      data: { ...(room.events[0]!.data as SessionEventData['session_started']), kind: 'room', room: { code: 'NS4V2U', member_id: 'm1' } },
    } as SessionEvent;
    expect(foldSession(room.events, config)).toMatchObject({ kind: 'room', room: { code: 'NS4V2U', member_id: 'm1' } });
    const old = logBuilder();
    old.events[0] = {
      ...old.events[0]!,
      data: { ...(old.events[0]!.data as SessionEventData['session_started']), kind: null },
    } as SessionEvent;
    old.add('item_opened', opened('a'));
    old.add('label_committed', { ...manual('a', 'Polite', 'click'), source: 'room' });
    expect(foldSession(old.events, config).kind).toBe('room');
  });
});
