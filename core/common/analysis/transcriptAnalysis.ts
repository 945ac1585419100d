import { createCommitParser } from '../parser/commitPhrase';
import type { ParseDiagnostic, ParseOptions, ParseResult, CommitmentRecord } from '../parser/parseTypes';
import type { ProjectConfig } from '../project/projectConfig';
import type { TranscriptSignals } from '../signals/signalTypes';
import { computeTranscriptSignals } from '../signals/transcriptSignals';
import { joinSegments, timeAtOffset, type JoinedTranscript, type SegmentSpan } from '../transcript/joinSegments';
import type { Segment } from '../transcript/segment';

export type AnalysisConfig = Pick<ProjectConfig, 'schema' | 'thinkaloud'>;

export function parseOptionsOf(config: AnalysisConfig): ParseOptions {
  return {
    labels: config.schema.labels,
    languages: config.thinkaloud.languages,
    stems: config.thinkaloud.stems,
    fillers: config.thinkaloud.fillers,
  };
}

/** What the parser and the transcript signals say about one item's verbatim transcript. */
export interface TranscriptAnalysis {
  transcript: string;
  /** where each segment stands in the transcript and on the timeline (empty for plain text) */
  spans: SegmentSpan[];
  final_label: string | null;
  commitments: CommitmentRecord[];
  diagnostics: ParseDiagnostic[];
  parse: ParseResult;
}

/**
 * Analyses transcripts for one configuration (the commit parser is compiled once): the parse and its commitments,
 * not the transcript signals (transcriptSignalsOf, where they are used). Given segments, the
 * transcript is their verbatim join and commitments get times; given plain text, times are null.
 */
export function createTranscriptAnalyzer(config: AnalysisConfig): (input: string | readonly Segment[]) => TranscriptAnalysis {
  const parse = createCommitParser(parseOptionsOf(config));
  return (input) => {
    const joined: JoinedTranscript | null = typeof input === 'string' ? null : joinSegments(input);
    const transcript = joined ? joined.text : (input as string);
    const result = parse(transcript);
    const commitments = result.commitments.map((c) => ({
      label: c.label,
      quote: c.quote,
      start: c.start,
      end: c.end,
      t_ms: joined ? timeAtOffset(joined.spans, c.end) : null,
      stem: c.stem,
    }));
    return {
      transcript,
      spans: joined ? joined.spans : [],
      final_label: result.final_label,
      commitments,
      diagnostics: result.diagnostics,
      parse: result,
    };
  };
}

/**
 * The transcript signals of an analysis, computed where they are used (`aloud analyze`): a landing utterance's
 * analysis only needs its commitments, so the analyzer does not compute them for everyone. `timed`: the analysis was of
 * segments (their times give the timed signals).
 */
export function transcriptSignalsOf(analysis: TranscriptAnalysis, config: AnalysisConfig, timed: boolean): TranscriptSignals {
  return computeTranscriptSignals(analysis.transcript, analysis.parse, config.thinkaloud, timed ? { spans: analysis.spans } : undefined);
}
