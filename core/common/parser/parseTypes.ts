/** One label of the annotation schema, e.g. Polite with key "1" and per-language synonyms. */
export interface LabelDef {
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

/** A committed label with where it was said as an item keeps it (offsets into the item's verbatim transcript; the time from its segments). */
export interface CommitmentRecord {
  label: string;
  quote: string;
  start: number;
  end: number;
  /** time on the item's audio timeline, when segment timestamps exist */
  t_ms: number | null;
  stem: string;
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
