import { describe, expect, it } from 'vitest';
import type { ItemSessionState } from '../../../../core/common/session/itemState';
import { summaryOfItem } from '../../../../core/common/session/itemSummary';
import { computeAudioSignals } from '../../../../core/common/signals/audioSignals';
import {
  filterReviewItems,
  NO_FILTER,
  pauseSpans,
  playingSegment,
  segmentStartAfter,
} from '../../../../renderer/src/features/review/reviewModel';

const items = ['a', 'b', 'c', 'd'].map((id) => ({ id, text: id }));
function state(id: string, more: Partial<ItemSessionState>): ItemSessionState {
  return {
    item_id: id,
    audio_path: null,
    audio_ms: 0,
    transcript: '',
    segments: [],
    commitments: [],
    final_label: null,
    label_source: null,
    blind_label: null,
    signals: null,
    model: null,
    started_at: null,
    completed_at: null,
    stale_results: 0,
    label_history: [],
    segment_refs: [],
    transcript_corrected: null,
    corrections: [],
    superseded_transcripts: [],
    parser_version: null,
    config_changed: false,
    labels_not_in_schema: [],
    changed_after_completion: false,
    ...more,
  };
}
const states = new Map(
  [
    [
      'a',
      state('a', {
        audio_ms: 4000,
        transcript: 'I label this polite',
        final_label: 'Polite',
        label_source: 'voice',
        completed_at: 't',
        signals: { pauses: { count: 1, total_ms: 2500, longest_ms: 2500, long_count: 1 } },
      }),
    ],
    [
      'b',
      state('b', {
        audio_ms: 3000,
        transcript: ' ',
        final_label: 'Neutral',
        label_source: 'key',
        signals: { pauses: { count: 1, total_ms: 400, longest_ms: 400, long_count: 0 } },
      }),
    ],
    ['c', state('c', {})],
  ].map(([id, full]) => [id as string, summaryOfItem(full as ItemSessionState)] as const),
);
const ids = (f: Partial<typeof NO_FILTER>) => filterReviewItems(items, states, { ...NO_FILTER, ...f }).map((i) => i.id);

describe('review filters', () => {
  it('lists every item, recorded or not, without a filter', () => {
    expect(ids({})).toEqual(['a', 'b', 'c', 'd']);
  });
  it('filters by label, label source, status and longest pause', () => {
    expect(ids({ label: 'Neutral' })).toEqual(['b']);
    expect(ids({ source: 'voice' })).toEqual(['a']);
    expect(ids({ status: 'no-audio' })).toEqual(['c', 'd']);
    expect(ids({ status: 'no-transcript' })).toEqual(['b']);
    expect(ids({ status: 'no-label' })).toEqual(['c', 'd']);
    expect(ids({ status: 'completed' })).toEqual(['a']);
    expect(ids({ status: 'not-completed' })).toEqual(['b', 'c', 'd']);
    expect(ids({ longestPauseAboveS: 2 })).toEqual(['a']);
    expect(ids({ longestPauseAboveS: 0.3, source: 'key' })).toEqual(['b']);
  });
});

describe('pause markers', () => {
  it('agree with the pause signals: count, longest and long ones', () => {
    const rate = 16_000;
    const pcm = new Float32Array(rate * 6);
    const tone = (from: number, to: number) => {
      for (let i = Math.round(from * rate); i < Math.round(to * rate); i++) pcm[i] = 0.3 * Math.sin(i / 5);
    };
    tone(0.5, 1.5); // leading silence is no pause
    tone(1.8, 2.5); // 300 ms pause
    tone(4.5, 5.0); // 2 s pause; the trailing second is no pause
    const options = { chunk_seconds: 1, silence_threshold_dbfs: -45, min_pause_ms: 250, long_pause_ms: 1000 };
    const spans = pauseSpans(pcm, rate, options);
    const signals = computeAudioSignals(pcm, rate, options);
    expect(spans).toHaveLength(signals.pauses.count);
    expect(Math.max(...spans.map((s) => s.end_ms - s.start_ms))).toBeCloseTo(signals.pauses.longest_ms, 6);
    expect(spans.filter((s) => s.long)).toHaveLength(signals.pauses.long_count);
    expect(spans[0]!.start_ms).toBeCloseTo(1500, -1);
  });
  it('finds the playing segment', () => {
    const segs = [
      { t0_ms: 0, t1_ms: 1000 },
      { t0_ms: 1000, t1_ms: 2000 },
    ];
    expect(playingSegment(segs, 1000)).toBe(1);
    expect(playingSegment(segs, 2500)).toBe(-1);
  });
});

describe('pcm16WavSamples', () => {
  it('reads the samples of a 16-bit mono WAV, and refuses other formats by name', async () => {
    const { pcm16WavSamples } = await import('../../../../renderer/src/features/review/reviewModel');
    const { toneAndSilenceWav } = await import('../../../e2e/appHarness');
    const wav = toneAndSilenceWav([
      [0.5, 'tone'],
      [0.25, 'silence'],
    ]);
    const { samples, sampleRate } = pcm16WavSamples(wav.buffer.slice(wav.byteOffset, wav.byteOffset + wav.byteLength) as ArrayBuffer);
    expect(sampleRate).toBe(16_000);
    expect(samples).toHaveLength(12_000);
    expect(Math.max(...samples.slice(0, 8000))).toBeCloseTo(9000 / 32768, 3);
    expect(samples.slice(8000).every((s) => s === 0)).toBe(true);
    const stereo = Buffer.from(wav);
    stereo.writeUInt16LE(2, 22);
    expect(() => pcm16WavSamples(stereo.buffer.slice(stereo.byteOffset, stereo.byteOffset + stereo.byteLength) as ArrayBuffer)).toThrow(
      '2 channel(s)',
    );
    expect(() => pcm16WavSamples(new ArrayBuffer(4))).toThrow('not a WAV file');
  });
});

describe('segment keys', () => {
  const segs = [{ t0_ms: 0 }, { t0_ms: 2000 }, { t0_ms: 5000 }];
  it('↓ goes to the start of the first segment after the position; none after the last', () => {
    expect(segmentStartAfter(segs, 0, 1)).toBe(2000);
    expect(segmentStartAfter(segs, 2000, 1)).toBe(5000);
    expect(segmentStartAfter(segs, 3500, 1)).toBe(5000);
    expect(segmentStartAfter(segs, 5200, 1)).toBeNull();
  });
  it('↑ goes to the start of the segment playing, or to the one before when the position is just past its start', () => {
    expect(segmentStartAfter(segs, 3500, -1)).toBe(2000);
    expect(segmentStartAfter(segs, 2100, -1)).toBe(0);
    expect(segmentStartAfter(segs, 100, -1)).toBe(0);
    expect(segmentStartAfter([], 100, -1)).toBeNull();
  });
});

describe('a recording the review cannot read', () => {
  it("says why in the person's language (the English stays the error's message)", async () => {
    const { createIntl } = await import('react-intl');
    const { appCatalogs } = await import('../../../../renderer/src/app/appCatalogs');
    const { pcm16WavSamples, WavReadError } = await import('../../../../renderer/src/features/review/reviewModel');
    const header = (format: number, channels: number, bits: number): ArrayBuffer => {
      const view = new DataView(new ArrayBuffer(44));
      const put = (at: number, tag: string) => [...tag].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
      put(0, 'RIFF');
      put(8, 'WAVE');
      put(12, 'fmt ');
      view.setUint32(16, 16, true);
      view.setUint16(20, format, true);
      view.setUint16(22, channels, true);
      view.setUint32(24, 44100, true);
      view.setUint16(34, bits, true);
      put(36, 'data');
      return view.buffer;
    };
    const german = createIntl({ locale: 'de', messages: appCatalogs.de });
    const said = (bytes: ArrayBuffer): { english: string; german: string } => {
      try {
        pcm16WavSamples(bytes);
      } catch (e) {
        if (!(e instanceof WavReadError)) throw e;
        return { english: e.message, german: german.formatMessage({ id: e.say.id }, e.say.values) };
      }
      throw new Error('read');
    };
    expect(said(new ArrayBuffer(8))).toEqual({ english: 'not a WAV file', german: 'keine WAV-Datei' });
    expect(said(header(1, 2, 16))).toEqual({
      english: 'WAV is not 16-bit PCM mono (format 1, 2 channel(s), 16 bits)',
      german: 'die WAV-Datei ist nicht 16-Bit-PCM mono (Format 1, 2 Kanäle, 16 Bit)',
    });
    expect(said(header(1, 1, 16).slice(0, 36))).toEqual({
      english: 'WAV has no data chunk',
      german: 'die WAV-Datei hat keinen Datenblock',
    });
  });
});
