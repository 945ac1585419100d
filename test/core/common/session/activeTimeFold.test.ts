import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseProjectConfig } from '../../../../core/common/project/projectConfig';
import { foldSession } from '../../../../core/common/session/sessionFold';
import {
  EVENT_VERSIONS,
  type SessionEvent,
  type SessionEventData,
  type SessionEventType,
} from '../../../../core/common/session/sessionEvents';

const here = path.dirname(fileURLToPath(import.meta.url));
const yaml = readFileSync(path.join(here, '../../../../demo-project/aloud.yaml'), 'utf8');
const config = parseProjectConfig(yaml);
const T0 = Date.UTC(2026, 11, 5, 9, 0, 0);
const model = { name: 'tiny.en', sha256: 'abc', whisper_cpp: null, vad: null };

/** A log whose events are stamped at the second given (from T0). */
function logAt() {
  const events: SessionEvent[] = [];
  const add = <T extends SessionEventType>(second: number, type: T, data: SessionEventData[T]) => {
    events.push({
      v: EVENT_VERSIONS[type],
      seq: events.length + 1,
      ts: new Date(T0 + second * 1000).toISOString(),
      type,
      data,
    } as SessionEvent);
  };
  const sitting = (second: number, reviewer: string | null = null) =>
    events.length === 0
      ? add(second, 'session_started', {
          annotator: 'ana',
          project_name: 'p',
          sample_rate: 16000,
          config_sha256: null,
          parser_version: null,
          parser_inputs_sha256: null,
          kind: 'annotator',
          room: null,
        })
      : add(second, 'session_resumed', {
          pid: 1,
          host: 'h',
          config_sha256: null,
          parser_version: null,
          reviewer,
          parser_inputs_sha256: null,
        });
  return { events, add, sitting };
}

const opened = (item_id: string) => ({ item_id, text_sha256: null });
const key = (item_id: string, label: string, reviewer: string | null = null) => ({
  item_id,
  label,
  source: 'key' as const,
  parser_version: null,
  reviewer,
  quote: null,
  start: null,
  end: null,
  audio_ms: null,
  utterance: null,
  stem: null,
});

describe('time on item in the session fold', () => {
  it('keeps the active and the wall time apart: a long break counts in the wall time only', () => {
    const { events, add, sitting } = logAt();
    sitting(0);
    add(0, 'item_opened', opened('a'));
    add(30, 'label_committed', key('a', 'Polite'));
    add(630, 'item_completed', { item_id: 'a' }); // after a 10-minute break
    add(640, 'item_opened', opened('b'));
    add(650, 'label_committed', key('b', 'Impolite'));
    const items = foldSession(events, config).items;
    expect(
      items.map((i) => [i.item_id, i.time_on_item_active_ms, i.time_on_item_wall_ms, i.time_open_ms, i.time_on_item_idle_gap_ms]),
    ).toEqual([
      ['a', 40_000, 640_000, 640_000, 120_000],
      ['b', 10_000, 10_000, 10_000, 120_000],
    ]);
  });

  it('counts speech over the time it was said (its utterance placed through its recording), not when it was transcribed', () => {
    const { events, add, sitting } = logAt();
    sitting(0);
    add(0, 'item_opened', opened('a'));
    add(10, 'recording_started', { item_id: 'a', audio_path: 'audio/ana/a.wav', offset_samples: 0, device: null });
    add(400, 'recording_stopped', { item_id: 'a', total_samples: 390 * 16000, reason: 'user', error: null });
    // said from 20 s to 260 s of the audio (4 minutes, no key pressed); transcribed long after
    add(500, 'utterance_transcribed', {
      item_id: 'a',
      utterance: 0,
      request_id: 'r',
      start_sample: 20 * 16000,
      end_sample: 260 * 16000,
      segments: [{ t0_ms: 20_000, t1_ms: 260_000, text: 'this is polite' }],
      model,
    });
    const [a] = foldSession(events, config).items;
    // opened 0, started 10, speech 30–270 (gap 20 s counted), stopped 400 (130 s after speech: idle)
    expect(a!.time_on_item_active_ms).toBe(270_000);
  });

  it("reads the bound from aloud.yaml's time_on_item.idle_gap_seconds", () => {
    const { events, add, sitting } = logAt();
    sitting(0);
    add(0, 'item_opened', opened('a'));
    add(200, 'item_completed', { item_id: 'a' });
    expect(foldSession(events, config).items[0]!.time_on_item_active_ms).toBe(0);
    const longer = parseProjectConfig(`${yaml}\ntime_on_item:\n  idle_gap_seconds: 300\n`);
    expect(foldSession(events, longer).items[0]!).toMatchObject({ time_on_item_active_ms: 200_000, time_on_item_idle_gap_ms: 300_000 });
  });

  it("leaves a reviewer's sitting out of the annotator's active and wall time, and bridges no gap across sittings", () => {
    const { events, add, sitting } = logAt();
    sitting(0);
    add(0, 'item_opened', opened('a'));
    add(20, 'label_committed', key('a', 'Polite'));
    sitting(60, 'ben');
    add(60, 'item_opened', opened('a'));
    add(90, 'label_committed', key('a', 'Impolite', 'ben'));
    sitting(100);
    add(110, 'item_opened', opened('a'));
    add(115, 'note', { item_id: 'a', text: 'hm' });
    const [a] = foldSession(events, config).items;
    // her own: 0–20 and 110–115; wall: 20 s (open until the sitting's last event) + 5 s; time_open_ms also counts Ben's 30 s
    expect(a).toMatchObject({ time_on_item_active_ms: 25_000, time_on_item_wall_ms: 25_000, time_open_ms: 55_000 });
  });

  it('counts a playback over the time it played, ending at its event', () => {
    const { events, add, sitting } = logAt();
    sitting(0);
    add(0, 'item_opened', opened('a'));
    add(400, 'audio_played', { item_id: 'a', audio_from_ms: 0, audio_to_ms: 3000, played_ms: 90_000 });
    add(450, 'item_completed', { item_id: 'a' });
    expect(foldSession(events, config).items[0]!.time_on_item_active_ms).toBe(140_000);
  });
});
