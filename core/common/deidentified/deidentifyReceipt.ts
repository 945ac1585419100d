import { HIDDEN_AUDIO, PATTERN_NAMES, type HiddenAudio, type PatternName, type SampleRange } from './deidentifyTerms';

/** The rules of this de-identification (matcher, patterns, placeholders, masking); receipts name it. */
export const DEIDENTIFY_METHOD = 'aloud-deidentify-1';

/** One recording of a de-identified export: where its hidden samples are, so `validate` can hear that they are hidden. */
export interface HiddenAudioEntry {
  annotator: string;
  item_id: string;
  /** the WAV, relative to the receipt's folder */
  path: string;
  sample_rate: number;
  ranges: SampleRange[];
}

/** What a receipt of a de-identified export states: it is de-identified, by which list and method, how much was hidden. */
export interface DeidentificationReceipt {
  deidentified: true;
  method: string;
  /** the list's own `version:` and the sha256 of deidentify.yaml's bytes */
  list_version: string;
  list_sha256: string;
  /** how many terms the list has (never the terms) and the patterns in force */
  terms: number;
  patterns: PatternName[];
  languages: string[];
  audio: HiddenAudio;
  margin_ms: number;
  /** spans hidden per class: segments, corrections, superseded transcripts and notes */
  spans_by_class: Record<string, number>;
  /** the review decisions in force */
  review: { accepted: number; rejected: number; added: number };
  hidden_audio: HiddenAudioEntry[];
}

/** What a receipt states of the list in force (deidentify/deidentifyList's DeidentifyList), never its terms. */
export interface StatedList {
  version: string;
  terms: readonly unknown[];
  patterns: readonly PatternName[];
  languages: readonly string[];
  audio: HiddenAudio;
  margin_ms: number;
}

export function deidentificationReceipt(
  list: StatedList,
  listSha256: string,
  spans: Record<string, number>,
  review: DeidentificationReceipt['review'],
  hidden: HiddenAudioEntry[],
): DeidentificationReceipt {
  return {
    deidentified: true,
    method: DEIDENTIFY_METHOD,
    list_version: list.version,
    list_sha256: listSha256,
    terms: list.terms.length,
    patterns: [...list.patterns],
    languages: [...list.languages],
    audio: list.audio,
    margin_ms: list.margin_ms,
    spans_by_class: Object.fromEntries(Object.entries(spans).sort(([a], [b]) => a.localeCompare(b))),
    review,
    hidden_audio: hidden,
  };
}

const count = { type: 'integer', minimum: 0 } as const;

/** The `deidentification` member of a receipt (records and interop receipts alike). */
export const deidentificationReceiptJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'deidentified',
    'method',
    'list_version',
    'list_sha256',
    'terms',
    'patterns',
    'languages',
    'audio',
    'margin_ms',
    'spans_by_class',
    'review',
    'hidden_audio',
  ],
  properties: {
    deidentified: { const: true },
    method: { type: 'string', minLength: 1 },
    list_version: { type: 'string', minLength: 1 },
    list_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    terms: count,
    patterns: { type: 'array', items: { enum: [...PATTERN_NAMES] } },
    languages: { type: 'array', items: { enum: ['en', 'de'] } },
    audio: { enum: [...HIDDEN_AUDIO] },
    margin_ms: count,
    spans_by_class: { type: 'object', propertyNames: { pattern: '^[A-Z][A-Z0-9_]{0,31}$' }, additionalProperties: count },
    review: {
      type: 'object',
      additionalProperties: false,
      required: ['accepted', 'rejected', 'added'],
      properties: { accepted: count, rejected: count, added: count },
    },
    hidden_audio: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['annotator', 'item_id', 'path', 'sample_rate', 'ranges'],
        properties: {
          annotator: { type: 'string' },
          item_id: { type: 'string' },
          path: { type: 'string', minLength: 1 },
          sample_rate: { type: 'integer', minimum: 1 },
          ranges: {
            type: 'array',
            items: { type: 'object', additionalProperties: false, required: ['start', 'end'], properties: { start: count, end: count } },
          },
        },
      },
    },
  },
} as const;

/** "de-identified (list 3, 4 PERSON, 1 PHONE; audio: silence)": the one line an export summary adds. */
export function describeDeidentification(d: DeidentificationReceipt): string {
  const spans =
    Object.entries(d.spans_by_class)
      .map(([c, n]) => `${n} ${c}`)
      .join(', ') || 'nothing found to hide';
  return `de-identified (list version ${d.list_version}: ${spans}; audio: ${d.audio}, margin ${d.margin_ms} ms)`;
}
