import type { GuidelineFields } from '../guidelines/guidelines';

/** One label of the annotation schema, e.g. Polite with key "1" and per-language synonyms. */
export interface LabelDef extends GuidelineFields {
  name: string;
  key?: string;
  /** language code → synonyms, e.g. { de: ["höflich"] } */
  synonyms: Record<string, string[]>;
}

/** A label committed by a fixed phrase; offsets index the original (never changed) transcript. */
export interface Commitment {
  label: string;
  /** exact substring transcript.slice(start, end): from the stem's first character to the label's last */
  quote: string;
  start: number;
  end: number;
  /** the stem pattern that matched, as written in the stem list, e.g. "my (label|answer|rating|choice|verdict) (is|would be)" */
  stem: string;
  language: string;
}

/** What the parser found, as every later step keeps it (its language aside: the stem says it): a commitment's one shape. */
export type FoundCommitment = Omit<Commitment, 'language'>;

/**
 * A spoken commitment where it was said: THE shape a voice label keeps from the parser to the log. Its fields are
 * label_committed's data as logged (acts of other sources log them as null), and the fold reads them back as they are.
 */
export interface VoiceCommitment extends FoundCommitment {
  /** when the commit phrase was complete, on the item's audio timeline; null without segment times */
  audio_ms: number | null;
  /** the utterance holding the end of the phrase */
  utterance: number | null;
}

/** A voice commitment's fields as a label act of any source logs them (label_committed): null where nothing was said. */
export type CommitmentFields = { [K in Exclude<keyof VoiceCommitment, 'label'>]: VoiceCommitment[K] | null };

/** A committed label with where it was said as an item keeps it (offsets into the item's verbatim transcript). */
export interface CommitmentRecord extends FoundCommitment {
  /** time on the item's audio timeline, when segment timestamps exist */
  t_ms: number | null;
}

export type DiagnosticKind = 'negated' | 'ambiguous' | 'unknown_label';

/** A mention that looked like a commitment but committed nothing, and why. */
export interface ParseDiagnostic {
  kind: DiagnosticKind;
  quote: string;
  start: number;
  end: number;
  stem: string;
  message: string;
}

export interface ParseResult {
  commitments: Commitment[];
  /** label of the last commitment, or null */
  final_label: string | null;
  diagnostics: ParseDiagnostic[];
}

export interface ParseOptions {
  labels: readonly LabelDef[];
  /** active languages, e.g. ["en"] or ["en", "de"] */
  languages: readonly string[];
  /** language → stem patterns; a language present here replaces that language's default stems */
  stems?: Readonly<Record<string, readonly string[]>>;
  /** fillers that may stand between a stem and its label ("I label this, um, polite") */
  fillers?: readonly string[];
}
