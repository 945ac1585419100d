import { LABEL_SOURCES } from '../session/sessionEvents';
import type { LabelSource } from '../session/itemState';
import {
  MAX_SHADOW_TEXT_CHARS,
  type ShadowCommitment,
  type ShadowDiagnostic,
  type ShadowEventData,
  type ShadowPriorLabels,
  type ShadowSegment,
} from './shadowEvents';

/**
 * What the expert's session tells a shadow room, read off her session's events and fold by a tap in her process
 * (core/node/rooms/shadowTap.ts). One way only: nothing of the room ever reaches her session.
 */
export type ShadowFeed =
  /** first: whose session feeds the room, and from where */
  | { kind: 'expert'; annotator: string; via: 'app' | 'ingest' }
  /** she opened the item (or the tap began while it was open): what it holds so far */
  | {
      kind: 'item';
      item_id: string;
      prior: ShadowPriorLabels | null;
      utterances: Array<{ utterance: number; segments: ShadowSegment[] }>;
      commitments: ShadowCommitment[];
      diagnostics: ShadowDiagnostic[];
      selection: { start: number; end: number; quote: string } | null;
      reasoning: { steps: string[]; model_label: string | null } | null;
      recording: boolean;
      completed: boolean;
    }
  | { kind: 'recording'; item_id: string; on: boolean }
  /** audio of the running recording at start_sample on the item's audio (16 kHz) */
  | { kind: 'audio'; item_id: string; start_sample: number; pcm: Float32Array }
  | { kind: 'partial'; item_id: string; utterance: number; text: string }
  | {
      kind: 'utterance';
      item_id: string;
      utterance: number;
      segments: ShadowSegment[];
      commitments: ShadowCommitment[];
      diagnostics: ShadowDiagnostic[];
    }
  /** her label act as the room logs it (the quote then cut to the room's length) */
  | ({ kind: 'label' } & ShadowEventData['label_act'])
  | { kind: 'selection'; item_id: string; span: { start: number; end: number; quote: string } | null }
  | { kind: 'reasoning'; item_id: string; steps: string[]; model_label: string | null }
  | { kind: 'completed'; item_id: string }
  /** her session closed */
  | { kind: 'left' };

export type ShadowFeedKind = ShadowFeed['kind'];

/** A feed record that is not one: names the field. */
export class ShadowFeedError extends Error {
  override name = 'ShadowFeedError';
}

type Fields = Record<string, unknown>;

const fail = (field: string, problem: string): never => {
  throw new ShadowFeedError(`feed record: ${field} ${problem}`);
};
const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Fields, key: string, max = MAX_SHADOW_TEXT_CHARS): string => {
  const v = o[key];
  if (typeof v !== 'string') return fail(key, 'must be a string');
  if (v.length > max) return fail(key, `is longer than ${max} characters`);
  return v;
};
const nullableStr = (o: Fields, key: string): string | null => (o[key] === null ? null : str(o, key));
const count = (o: Fields, key: string): number => {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) return fail(key, 'must be a whole number ≥ 0');
  return v;
};
const ms = (o: Fields, key: string): number => {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return fail(key, 'must be a number ≥ 0');
  return v;
};
const bool = (o: Fields, key: string): boolean => {
  if (typeof o[key] !== 'boolean') return fail(key, 'must be true or false');
  return o[key] as boolean;
};
const list = <T>(o: Fields, key: string, each: (v: Fields) => T, max = 10_000): T[] => {
  const v = o[key];
  if (!Array.isArray(v) || v.length > max) return fail(key, `must be a list of at most ${max}`);
  return v.map((x, i) => (isObject(x) ? each(x) : fail(`${key}[${i}]`, 'must be an object')));
};
const strings = (o: Fields, key: string, max = 1000): string[] => {
  const v = o[key];
  if (!Array.isArray(v) || v.length > max) return fail(key, `must be a list of at most ${max} texts`);
  return v.map((x: unknown, i) =>
    typeof x === 'string' && x.length <= MAX_SHADOW_TEXT_CHARS ? x : fail(`${key}[${i}]`, 'must be a text'),
  );
};
const segments = (o: Fields): ShadowSegment[] =>
  list(o, 'segments', (s) => ({ t0_ms: ms(s, 't0_ms'), t1_ms: ms(s, 't1_ms'), text: str(s, 'text') }), 1000);
const commitments = (o: Fields): ShadowCommitment[] =>
  list(o, 'commitments', (c) => ({ start: count(c, 'start'), end: count(c, 'end'), label: str(c, 'label', 1000) }), 1000);
const diagnostics = (o: Fields): ShadowDiagnostic[] =>
  list(
    o,
    'diagnostics',
    (d) => {
      const kind = d.kind;
      if (kind !== 'negated' && kind !== 'ambiguous' && kind !== 'unknown_label')
        return fail('diagnostics.kind', 'must be negated, ambiguous or unknown_label');
      return { start: count(d, 'start'), end: count(d, 'end'), kind, message: str(d, 'message', 1000) };
    },
    1000,
  );
const span = (o: Fields, key: string): { start: number; end: number; quote: string } | null => {
  const v = o[key];
  if (v === null) return null;
  if (!isObject(v)) return fail(key, 'must be an object or null');
  return { start: count(v, 'start'), end: count(v, 'end'), quote: str(v, 'quote') };
};
const source = (o: Fields, key = 'source'): LabelSource => {
  const v = o[key];
  if (typeof v !== 'string' || !(LABEL_SOURCES as readonly string[]).includes(v))
    return fail(key, `must be one of ${LABEL_SOURCES.join(', ')}`);
  return v as LabelSource;
};

/**
 * A feed record that came over the wire (a `session ingest` in another process), checked field by field; `pcm` is
 * decoded by the caller (it travels as 16-bit samples). Throws ShadowFeedError naming the field.
 */
export function checkShadowFeed(value: unknown, pcm: (encoded: unknown) => Float32Array): ShadowFeed {
  if (!isObject(value)) return fail('(record)', 'must be a JSON object');
  const o = value;
  const item_id = (): string => str(o, 'item_id', 1000);
  switch (o.kind) {
    case 'expert': {
      if (o.via !== 'app' && o.via !== 'ingest') return fail('via', 'must be app or ingest');
      return { kind: 'expert', annotator: str(o, 'annotator', 200), via: o.via };
    }
    case 'item': {
      const prior =
        o.prior === null
          ? null
          : isObject(o.prior)
            ? {
                blind_label: str(o.prior, 'blind_label', 1000),
                final_label: str(o.prior, 'final_label', 1000),
                label_source: source(o.prior, 'label_source'),
              }
            : fail('prior', 'must be an object or null');
      const reasoning =
        o.reasoning === null
          ? null
          : isObject(o.reasoning)
            ? { steps: strings(o.reasoning, 'steps'), model_label: nullableStr(o.reasoning, 'model_label') }
            : fail('reasoning', 'must be an object or null');
      return {
        kind: 'item',
        item_id: item_id(),
        prior,
        utterances: list(o, 'utterances', (u) => ({ utterance: count(u, 'utterance'), segments: segments(u) })),
        commitments: commitments(o),
        diagnostics: diagnostics(o),
        selection: span(o, 'selection'),
        reasoning,
        recording: bool(o, 'recording'),
        completed: bool(o, 'completed'),
      };
    }
    case 'recording':
      return { kind: 'recording', item_id: item_id(), on: bool(o, 'on') };
    case 'audio':
      return { kind: 'audio', item_id: item_id(), start_sample: count(o, 'start_sample'), pcm: pcm(o.pcm) };
    case 'partial':
      return { kind: 'partial', item_id: item_id(), utterance: count(o, 'utterance'), text: str(o, 'text') };
    case 'utterance':
      return {
        kind: 'utterance',
        item_id: item_id(),
        utterance: count(o, 'utterance'),
        segments: segments(o),
        commitments: commitments(o),
        diagnostics: diagnostics(o),
      };
    case 'label':
      return {
        kind: 'label',
        item_id: item_id(),
        label: str(o, 'label', 1000),
        source: source(o),
        quote: nullableStr(o, 'quote'),
        audio_ms: o.audio_ms === null ? null : ms(o, 'audio_ms'),
        blind_label: str(o, 'blind_label', 1000),
        final_label: str(o, 'final_label', 1000),
      };
    case 'selection':
      return { kind: 'selection', item_id: item_id(), span: span(o, 'span') };
    case 'reasoning':
      return { kind: 'reasoning', item_id: item_id(), steps: strings(o, 'steps'), model_label: nullableStr(o, 'model_label') };
    case 'completed':
      return { kind: 'completed', item_id: item_id() };
    case 'left':
      return { kind: 'left' };
    default:
      return fail('kind', `"${String(o.kind)}" is not a feed record`);
  }
}
