import { commitmentUtf16Span, type ExportRecord, type ExportSegmentV2 } from '../exportRecord';
import type { RecordingRecord } from '../../session/itemState';
import type { StepJudgmentRecord } from '../../reasoning/stepJudgments';
import { hesitationOccurrences, type HesitationCategory, type HesitationSettings } from '../../signals/hesitation';
import { fillerOccurrences } from '../../signals/transcriptSignals';
import { joinSegments, timeAtOffset } from '../../transcript/joinSegments';

/** The tiers of every ELAN and Praat file, in this order, always all present (an empty tier says "none"). */
export const TIER_NAMES = [
  'utterances',
  'words',
  'corrected',
  'commit phrases',
  'label acts',
  'label act sources',
  'pauses (energy)',
  'pauses (VAD)',
  'hesitations',
  'filled pauses',
  'hedges',
  'repetitions',
  'editing terms',
  'keep-talking cues',
  'model steps',
  'step judgments',
] as const;
export type TierName = (typeof TIER_NAMES)[number];

/** A span on the item's audio, whole milliseconds, t0 < t1, inside [0, duration]. */
export interface TimedSpan {
  t0_ms: number;
  t1_ms: number;
  text: string;
}

/** An instant on the item's audio, whole milliseconds inside [0, duration). */
export interface TimedPoint {
  t_ms: number;
  text: string;
}

export type TimelineTier =
  | { name: TierName; kind: 'interval'; spans: TimedSpan[]; parent?: TierName }
  | { name: TierName; kind: 'point'; points: TimedPoint[]; parent?: TierName };

/** What an ELAN or Praat file holds for one annotator and item: the tiers over the item's audio. */
export interface ItemTimeline {
  annotator: string;
  item_id: string;
  duration_ms: number;
  /** every label of the schema and any label in the record that the schema no longer has: ELAN's controlled vocabulary */
  labels: string[];
  tiers: TimelineTier[];
}

/** What the record does not hold and the timeline needs: from the same fold (recordings) and from the WAV (pause spans). */
export interface ItemTimelineInput {
  record: ExportRecord;
  labels: readonly string[];
  recordings: readonly RecordingRecord[];
  /** the item's audio length when the reasoning was shown; null when it never was */
  reasoningShownAudioMs: number | null;
  /** the pauses the energy signals counted; null when they could not be placed (see the warnings) */
  energyPauses: ReadonlyArray<{ t0_ms: number; t1_ms: number }> | null;
  vadPauses: ReadonlyArray<{ t0_ms: number; t1_ms: number }> | null;
  longPauseMs: number;
  /** the legacy single list, for the `hesitations` tier */
  fillers: readonly string[];
  /** the project's languages and hesitation lists, for a tier per category (the record's filled_pause_count, …) */
  hesitation: HesitationSettings;
}

/** The tier of each hesitation category: the spans its `<category>_count` counts (as on every tier, one left without length joins the one before). */
const CATEGORY_TIERS: ReadonlyArray<[HesitationCategory, TierName]> = [
  ['filled_pause', 'filled pauses'],
  ['hedge', 'hedges'],
  ['repetition', 'repetitions'],
  ['editing_term', 'editing terms'],
];

/**
 * The tiers of one annotator's work on one item, on the item's audio timeline. Times come from the record: segment
 * and token times, commitments, voice label acts and cues (audio_ms), step judgments; a key, click, correction or
 * room act has only a clock time and stands where the audio was at that moment (recordings from the fold). The
 * model's steps have no time: they are laid side by side over the audio after the reveal (as ELAN exports a symbolic
 * subdivision to Praat), and each step's judgments go with it.
 */
export function buildItemTimeline(input: ItemTimelineInput): ItemTimeline {
  const { record } = input;
  if (record.audio === null) throw new RangeError(`${record.annotator} / ${record.item_id}: no audio, so no timeline`);
  const duration = Math.max(1, Math.round(record.audio.duration_ms));
  const segments = record.segments;
  const joined = joinSegments(segments);
  const at = (offset: number): number => timeAtOffset(joined.spans, offset) ?? 0;

  const byUtterance = groupByUtterance(segments);
  const utterances = [...byUtterance.entries()].map(([, segs]) => ({
    t0_ms: Math.min(...segs.map((s) => s.t0_ms)),
    t1_ms: Math.max(...segs.map((s) => s.t1_ms)),
    text: joinSegments(segs).text,
  }));

  const corrected: TimedSpan[] = [];
  if (record.corrections.length > 0) {
    const latest = new Map(record.corrections.map((c) => [`${c.utterance}/${c.segment}`, c.text]));
    for (const [utterance, segs] of byUtterance) {
      const text = joinSegments(segs.map((s) => ({ ...s, text: latest.get(`${utterance}/${s.index}`) ?? s.text }))).text;
      corrected.push({ t0_ms: Math.min(...segs.map((s) => s.t0_ms)), t1_ms: Math.max(...segs.map((s) => s.t1_ms)), text });
    }
  }

  const phrases = record.commitments.map((c) => {
    const span = commitmentUtf16Span(record.transcript ?? '', c, record.schema_version);
    const t1 = c.t_ms ?? at(span.end);
    return { t0_ms: Math.min(at(span.start), t1), t1_ms: t1, text: c.quote };
  });

  const acts = inTimeOrder(
    record.label_history.map((a) => ({
      t: a.audio_ms ?? audioMsAtClock(a.at, input.recordings, duration),
      label: a.label,
      source: `${a.source} at ${a.at}${a.quote === null ? '' : `: "${a.quote}"`}`,
    })),
  );
  const actTimes = distinctInstants(
    acts.map((a) => a.t),
    duration,
  );

  const pauseText = (p: { t0_ms: number; t1_ms: number }): string => {
    const ms = Math.round(p.t1_ms - p.t0_ms);
    return `${ms >= input.longPauseMs ? 'long pause' : 'pause'} ${ms} ms`;
  };
  const transcript = record.transcript ?? '';
  const heard = (span: { start: number; end: number }): TimedSpan => ({
    t0_ms: at(span.start),
    t1_ms: at(span.end),
    text: transcript.slice(span.start, span.end),
  });
  const hesitations = fillerOccurrences(transcript, input.fillers).map(heard);
  const byCategory = hesitationOccurrences(transcript, input.hesitation);
  const categoryTiers = CATEGORY_TIERS.map(([category, name]): TimelineTier => ({
    name,
    kind: 'interval',
    spans: layIntervals(byCategory.filter((o) => o.category === category).map(heard), duration),
  }));

  const cues = inTimeOrder(
    record.keep_talking_cues.map((c) => ({ t: c.audio_ms, text: `keep talking (after ${c.silence_ms} ms of silence)` })),
  );
  const cueTimes = distinctInstants(
    cues.map((c) => c.t),
    duration,
  );

  const { steps, judgments } = modelStepSpans(record, input.reasoningShownAudioMs, duration);

  const tiers: TimelineTier[] = [
    { name: 'utterances', kind: 'interval', spans: layIntervals(utterances, duration) },
    { name: 'words', kind: 'interval', spans: layIntervals(wordsOf(segments), duration) },
    { name: 'corrected', kind: 'interval', spans: layIntervals(corrected, duration) },
    { name: 'commit phrases', kind: 'interval', spans: layIntervals(phrases, duration) },
    { name: 'label acts', kind: 'point', points: acts.map((a, i) => ({ t_ms: actTimes[i]!, text: a.label })) },
    {
      name: 'label act sources',
      kind: 'point',
      parent: 'label acts',
      points: acts.map((a, i) => ({ t_ms: actTimes[i]!, text: a.source })),
    },
    {
      name: 'pauses (energy)',
      kind: 'interval',
      spans: layIntervals(
        (input.energyPauses ?? []).map((p) => ({ ...p, text: pauseText(p) })),
        duration,
      ),
    },
    {
      name: 'pauses (VAD)',
      kind: 'interval',
      spans: layIntervals(
        (input.vadPauses ?? []).map((p) => ({ ...p, text: pauseText(p) })),
        duration,
      ),
    },
    { name: 'hesitations', kind: 'interval', spans: layIntervals(hesitations, duration) },
    ...categoryTiers,
    { name: 'keep-talking cues', kind: 'point', points: cues.map((c, i) => ({ t_ms: cueTimes[i]!, text: c.text })) },
    { name: 'model steps', kind: 'interval', spans: steps },
    { name: 'step judgments', kind: 'interval', parent: 'model steps', spans: judgments },
  ];
  const labels = [...new Set([...input.labels, ...record.label_history.map((a) => a.label)])];
  return { annotator: record.annotator, item_id: record.item_id, duration_ms: duration, labels, tiers };
}

/** Sorted by time, ties in their given order. */
function inTimeOrder<T extends { t: number }>(points: readonly T[]): T[] {
  return points
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.t - b.p.t || a.i - b.i)
    .map(({ p }) => p);
}

function groupByUtterance(segments: readonly ExportSegmentV2[]): Map<number, ExportSegmentV2[]> {
  const by = new Map<number, ExportSegmentV2[]>();
  for (const s of segments) {
    const list = by.get(s.utterance) ?? [];
    list.push(s);
    by.set(s.utterance, list);
  }
  return by;
}

/**
 * Words from whisper's token times: a token starting with whitespace starts a word, other tokens continue it
 * (sub-word pieces, punctuation). Segments without tokens have no word times and add no words.
 */
export function wordsOf(segments: readonly ExportSegmentV2[]): Array<{ t0_ms: number; t1_ms: number; text: string }> {
  const words: Array<{ t0_ms: number; t1_ms: number; text: string }> = [];
  for (const segment of segments) {
    let current: { t0_ms: number; t1_ms: number; text: string } | null = null;
    for (const token of segment.tokens ?? []) {
      if (current === null || /^\s/u.test(token.text)) {
        if (current && current.text.trim() !== '') words.push({ ...current, text: current.text.trim() });
        current = { t0_ms: token.t0_ms, t1_ms: token.t1_ms, text: token.text };
      } else {
        current.text += token.text;
        current.t1_ms = Math.max(current.t1_ms, token.t1_ms);
      }
    }
    if (current && current.text.trim() !== '') words.push({ ...current, text: current.text.trim() });
  }
  return words;
}

/**
 * Where the audio stood at a clock time: inside a recording, its offset plus the time since it started; between
 * recordings (nothing was being recorded), where the last one ended; before any, 0.
 */
export function audioMsAtClock(iso: string, recordings: readonly RecordingRecord[], durationMs: number): number {
  const t = Date.parse(iso);
  let position = 0;
  recordings.forEach((r, i) => {
    const started = Date.parse(r.started_at);
    if (!(started <= t)) return;
    const end = recordings[i + 1]?.offset_ms ?? durationMs;
    position = Math.min(r.offset_ms + (t - started), end);
  });
  return Math.max(0, Math.min(durationMs, Math.round(position)));
}

/**
 * Instants as strictly increasing whole milliseconds inside [0, duration): order kept, each as near its own time as
 * the ones before it allow (acts in the same millisecond stand 1 ms apart), so that no two share a place in a tier.
 */
export function distinctInstants(times: readonly number[], durationMs: number): number[] {
  const last = Math.max(0, durationMs - 1);
  const out = times.map((t) => Math.max(0, Math.min(last, Math.round(t))));
  for (let i = 1; i < out.length; i++) out[i] = Math.max(out[i]!, out[i - 1]! + 1);
  // pushed past the end: walk back from it
  for (let i = out.length - 1; i >= 0; i--) {
    const ceiling = i === out.length - 1 ? last : out[i + 1]! - 1;
    if (out[i]! > ceiling) out[i] = ceiling;
  }
  if (out.some((t) => t < 0)) throw new RangeError(`${times.length} instants do not fit in ${durationMs} ms of audio`);
  return out;
}

/**
 * Spans laid for a tier that ELAN and Praat accept: whole milliseconds inside [0, duration], sorted, none
 * overlapping (a span starting before the previous one ends starts where it ends). A span left with no length
 * (whisper gives zero-length tokens) joins its text to the span before it, so no text is dropped.
 */
export function layIntervals(spans: ReadonlyArray<{ t0_ms: number; t1_ms: number; text: string }>, durationMs: number): TimedSpan[] {
  const sorted = spans.map((s, i) => ({ ...s, i })).sort((a, b) => a.t0_ms - b.t0_ms || a.i - b.i);
  const out: TimedSpan[] = [];
  let carried = '';
  for (const s of sorted) {
    const previousEnd = out.at(-1)?.t1_ms ?? 0;
    const t0 = Math.max(previousEnd, Math.max(0, Math.min(durationMs, Math.round(s.t0_ms))));
    const t1 = Math.max(0, Math.min(durationMs, Math.round(s.t1_ms)));
    if (t1 <= t0) {
      const last = out.at(-1);
      if (last) last.text = joinText(last.text, s.text);
      else carried = joinText(carried, s.text);
      continue;
    }
    out.push({ t0_ms: t0, t1_ms: t1, text: joinText(carried, s.text) });
    carried = '';
  }
  if (carried !== '' && out.length === 0 && durationMs > 0) out.push({ t0_ms: 0, t1_ms: durationMs, text: carried });
  return out;
}

const joinText = (a: string, b: string): string => (a === '' ? b : b === '' ? a : `${a} ${b}`);

const REWARD_WORDS: Readonly<Record<string, string>> = { '1': '+1 correct', '0': '0 neutral', '-1': '-1 wrong', null: 'withdrawn' };

function judgmentText(j: StepJudgmentRecord): string {
  const what = j.kind === 'first_error' ? `${REWARD_WORDS[String(j.reward)]} (first error)` : REWARD_WORDS[String(j.reward)];
  return `${what}, ${j.source} at ${j.at}${j.quote === null ? '' : `: "${j.quote}"`}`;
}

/**
 * The model's steps side by side over the audio recorded after the reasoning was shown (the whole audio when
 * nothing was recorded after, or it was never shown), and with each step every judgment of it in log order.
 */
function modelStepSpans(
  record: ExportRecord,
  shownAudioMs: number | null,
  duration: number,
): { steps: TimedSpan[]; judgments: TimedSpan[] } {
  const steps = record.model_reasoning?.steps ?? [];
  if (steps.length === 0) return { steps: [], judgments: [] };
  let from = shownAudioMs === null ? 0 : Math.round(shownAudioMs);
  if (duration - from < steps.length) from = 0;
  if (duration < steps.length) {
    const text = steps.map((s, i) => `${i + 1}. ${s}`).join('\n');
    return { steps: [{ t0_ms: 0, t1_ms: duration, text }], judgments: [] };
  }
  const width = (duration - from) / steps.length;
  const spans = steps.map((text, i) => ({
    t0_ms: from + Math.round(i * width),
    t1_ms: i === steps.length - 1 ? duration : from + Math.round((i + 1) * width),
    text: `${i + 1}. ${text}`,
  }));
  const judgments: TimedSpan[] = [];
  spans.forEach((span, i) => {
    const own = record.step_judgments.filter((j) => j.index === i + 1);
    if (own.length > 0) judgments.push({ t0_ms: span.t0_ms, t1_ms: span.t1_ms, text: own.map(judgmentText).join('; ') });
  });
  return { steps: spans, judgments };
}
