import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  EVENT_UPCASTERS,
  formatEventLine,
  parseSessionLog,
  SessionLogError,
  type UpcasterRegistry,
} from '../../../../core/common/session/sessionLog';
import { EVENT_VERSIONS, type SessionEvent } from '../../../../core/common/session/sessionEvents';
import { foldSession } from '../../../../core/common/session/sessionFold';
import { parseProjectConfig } from '../../../../core/common/project/projectConfig';

const here = path.dirname(fileURLToPath(import.meta.url));
const ts = '2024-05-01T10:00:00.000Z';
const config = parseProjectConfig(readFileSync(path.join(here, '../../../../demo-project/aloud.yaml'), 'utf8'));

function line(seq: number, type: string, data: unknown, v = 1): string {
  return JSON.stringify({ v, seq, ts, type, data });
}

const started = line(
  1,
  'session_started',
  {
    annotator: 'ana',
    project_name: 'demo',
    sample_rate: 16000,
    config_sha256: null,
    parser_version: null,
    parser_inputs_sha256: null,
    kind: 'annotator',
    room: null,
  },
  4,
);
const opened = (seq: number, item = 'demo-01') => line(seq, 'item_opened', { item_id: item, text_sha256: null }, 2);

function problemOf(text: string, upcasters?: UpcasterRegistry): SessionLogError {
  try {
    parseSessionLog(text, 'sessions/ana/events.jsonl', upcasters);
  } catch (e) {
    if (e instanceof SessionLogError) return e;
    throw e;
  }
  throw new Error('expected a SessionLogError');
}

describe('parseSessionLog', () => {
  it('reads a complete log and round-trips every line through formatEventLine', () => {
    const text = `${started}\n${opened(2)}\n${line(3, 'note', { item_id: null, text: 'headset crackles' })}\n`;
    const { events, torn, missingFinalNewline } = parseSessionLog(text, 'events.jsonl');
    expect(events.map((e) => e.type)).toEqual(['session_started', 'item_opened', 'note']);
    expect(torn).toBeNull();
    expect(missingFinalNewline).toBe(false);
    expect(`${events.map(formatEventLine).join('\n')}\n`).toBe(text);
  });

  it('reports a torn last line (a cut write) and keeps every event before it', () => {
    const full = opened(3, 'demo-02');
    const text = `${started}\n${opened(2)}\n${full.slice(0, 25)}`;
    const { events, torn } = parseSessionLog(text, 'events.jsonl');
    expect(events).toHaveLength(2);
    expect(torn).toEqual({ line: 3, text: full.slice(0, 25) });
  });

  it('accepts a complete last event whose newline was never written, and says so', () => {
    const { events, torn, missingFinalNewline } = parseSessionLog(`${started}\n${opened(2)}`, 'events.jsonl');
    expect(events).toHaveLength(2);
    expect(torn).toBeNull();
    expect(missingFinalNewline).toBe(true);
  });

  it('refuses bad JSON in the middle, naming the file and line', () => {
    const e = problemOf(`${started}\n{"v":1,"seq":2,\n${opened(3)}\n`);
    expect(e.line).toBe(2);
    expect(e.message).toMatch(/^sessions\/ana\/events\.jsonl:2: not valid JSON/);
  });

  it('refuses a torn line that is not the last one', () => {
    const e = problemOf(`${started}\n${opened(2).slice(0, 20)}\n${opened(3)}\n`);
    expect(e.line).toBe(2);
  });

  it('refuses a gap or repeat in seq', () => {
    expect(problemOf(`${started}\n${opened(3)}\n`).message).toContain('events.jsonl:2: field "seq" is 3 but must be 2');
    expect(problemOf(`${started}\n${opened(2)}\n${opened(2)}\n`).line).toBe(3);
  });

  it('refuses an unknown event type, unknown fields and bad data, naming the field', () => {
    expect(problemOf(`${started}\n${line(2, 'item_teleported', {})}\n`).message).toContain(':2: unknown event type "item_teleported"');
    expect(
      problemOf(`${started}\n${JSON.stringify({ v: 1, seq: 2, ts, type: 'item_opened', data: { item_id: 'x' }, extra: 1 })}\n`).message,
    ).toContain(':2: unknown field "extra"');
    const badSource = line(2, 'label_committed', {
      item_id: 'x',
      label: 'Polite',
      source: 'telepathy',
      quote: null,
      start: null,
      end: null,
      stem: null,
    });
    expect(problemOf(`${started}\n${badSource}\n`).message).toContain(':2: label_committed: data.source must be one of voice, click, key');
    const missing = line(2, 'audio_appended', { item_id: 'x', offset_samples: 0 });
    expect(problemOf(`${started}\n${missing}\n`).message).toContain('missing field "samples"');
  });

  it('requires session_started first and only first', () => {
    expect(problemOf(`${opened(1)}\n`).message).toContain(':1: the first event must be session_started');
    expect(problemOf(`${started}\n${started.replace('"seq":1', '"seq":2')}\n`).line).toBe(2);
  });

  it('refuses an event version newer than this build understands', () => {
    const e = problemOf(`${started}\n${line(2, 'item_opened', { item_id: 'x' }, 3)}\n`);
    expect(e.message).toContain(':2: item_opened v3 is newer than this version of Aloud understands (v2)');
  });
});

describe('event upcasting', () => {
  // A synthetic older version: label_committed v0 had {item, label, via}; v1 renamed the fields and added the quote.
  const v0Upcasters: UpcasterRegistry = {
    ...EVENT_UPCASTERS,
    label_committed: {
      ...EVENT_UPCASTERS.label_committed,
      0: (data) => {
        const old = data as { item: string; label: string; via: string };
        return { item_id: old.item, label: old.label, source: old.via, quote: null, start: null, end: null, stem: null };
      },
    },
  };
  const fixture = readFileSync(path.join(here, 'fixtures/label-committed-v0.jsonl'), 'utf8');

  it('upcasts a v0 fixture line to the current version before checking it', () => {
    const { events } = parseSessionLog(fixture, 'label-committed-v0.jsonl', v0Upcasters);
    const committed = events.filter((e): e is Extract<SessionEvent, { type: 'label_committed' }> => e.type === 'label_committed');
    // v0 → v1 (the synthetic step) → v2 → v3 (the real ones: no audio time, utterance, parser version or reviewer recorded)
    expect(committed[0]).toEqual({
      v: 3,
      seq: 3,
      ts: '2024-05-01T10:00:02.000Z',
      type: 'label_committed',
      data: {
        item_id: 'demo-01',
        label: 'Polite',
        source: 'key',
        quote: null,
        start: null,
        end: null,
        stem: null,
        audio_ms: null,
        utterance: null,
        parser_version: null,
        reviewer: null,
      },
    });
    expect(committed[1]!.data.source).toBe('click');
  });

  it('without the upcaster the old line is an error naming the line', () => {
    const e = problemOf(fixture);
    expect(e.line).toBe(3);
    expect(e.message).toContain('label_committed v0 cannot be read: no upcaster from v0 to v1');
  });

  it('an upcaster whose output does not fit the current schema is caught', () => {
    const broken: UpcasterRegistry = { ...EVENT_UPCASTERS, label_committed: { ...EVENT_UPCASTERS.label_committed, 0: (data) => data } };
    expect(problemOf(fixture, broken).message).toContain(':3: label_committed: data: missing field "item_id"');
  });
});

describe('a log written by Aloud before the record became the log (all v1 events)', () => {
  const v1 = readFileSync(path.join(here, 'fixtures/session-v1.jsonl'), 'utf8');

  it('upcasts every changed event with nulls for what v1 did not record', () => {
    const { events } = parseSessionLog(v1, 'session-v1.jsonl');
    expect(events.every((e) => e.v === EVENT_VERSIONS[e.type])).toBe(true);
    expect(events[0]!.data).toEqual({
      annotator: 'ana',
      project_name: 'politeness-demo',
      sample_rate: 16000,
      config_sha256: null,
      parser_version: null,
      parser_inputs_sha256: null,
      kind: null,
      room: null,
    });
    expect(events[1]!.data).toEqual({ item_id: 'demo-01', text_sha256: '0'.repeat(64) });
    expect(events[11]!.data).toEqual({ item_id: 'demo-02', text_sha256: null });
    expect(events[7]!.data).toMatchObject({ source: 'voice', audio_ms: null, utterance: null, parser_version: null });
    expect(events[9]!.data).toEqual({
      item_id: 'demo-01',
      from: 'Polite',
      to: 'Neutral',
      source: 'key',
      after_completion: false,
      reviewer: null,
    });
    expect(events[13]!.data).toEqual({
      pid: 4242,
      host: 'lab-laptop',
      config_sha256: null,
      parser_version: null,
      reviewer: null,
      parser_inputs_sha256: null,
    });
    expect(events[6]!.data).toMatchObject({ model: { name: 'tiny.en', sha256: '5'.repeat(64), whisper_cpp: null, vad: null } });
    // the voice-activity signals came with signals_computed v2: a v1 log never computed them
    expect(events[5]!).toMatchObject({
      type: 'signals_computed',
      data: { item_id: 'demo-01', audio_samples: 32000, vad: null, vad_model: null, takes: null },
    });
  });
});

describe('a v2 log (before reviewers, session kinds, the VAD model and takes were recorded)', () => {
  const v2 = readFileSync(path.join(here, 'fixtures/session-v2.jsonl'), 'utf8');

  it("upcasts to v3 with nulls for what v2 did not record; its acts stay the annotator's", () => {
    const { events } = parseSessionLog(v2, 'session-v2.jsonl');
    expect(events.every((e) => e.v === EVENT_VERSIONS[e.type])).toBe(true);
    expect(events[0]!.data).toMatchObject({ annotator: 'ana', kind: null, room: null });
    expect(events[5]!.data).toMatchObject({ vad: null, vad_model: null, takes: null });
    expect(events[6]!.data).toMatchObject({ model: { whisper_cpp: '1.8.2', vad: null } });
    expect(events[7]!.data).toMatchObject({ source: 'key', reviewer: null });
    expect(events[9]!.data).toMatchObject({ pid: 4242, reviewer: null });
    expect(events[10]!.data).toMatchObject({ annotator: 'ana', reviewer: null });
    expect(events[12]!.data).toEqual({
      item_id: 'demo-01',
      from: 'Neutral',
      to: 'Polite',
      source: 'correction',
      after_completion: true,
      reviewer: null,
    });
    const state = foldSession(events, config);
    expect(state.kind).toBe('annotator');
    expect(state.items[0]).toMatchObject({ final_label: 'Polite', vad_model: null, time_to_complete_ms: 7000 });
    expect(state.items[0]!.label_history.map((a) => a.reviewer)).toEqual([null, null]);
  });
});

describe("a v3 log (before the parser's inputs were logged beside the whole aloud.yaml)", () => {
  const v3 = readFileSync(path.join(here, 'fixtures/session-v3.jsonl'), 'utf8');

  it('upcasts session_started, session_resumed and labels_rederived with a null parser_inputs_sha256; the fold falls back to the whole aloud.yaml', () => {
    const { events } = parseSessionLog(v3, 'session-v3.jsonl');
    expect(events.every((e) => e.v === EVENT_VERSIONS[e.type])).toBe(true);
    expect(
      events
        .filter((e) => ['session_started', 'session_resumed', 'labels_rederived'].includes(e.type))
        .map((e) => (e.data as { parser_inputs_sha256?: unknown }).parser_inputs_sha256),
    ).toEqual([null, null, null]);
    const A = 'a'.repeat(64);
    // the voice label was derived under aloud.yaml A: with another aloud.yaml it is flagged, whatever the parser's inputs now
    expect(foldSession(events, config, 'events.jsonl', { configSha256: A, parserInputsSha256: 'c'.repeat(64) }).config_changed).toBe(false);
    expect(
      foldSession(events, config, 'events.jsonl', { configSha256: 'b'.repeat(64), parserInputsSha256: 'c'.repeat(64) }).config_changed,
    ).toBe(true);
  });
});
