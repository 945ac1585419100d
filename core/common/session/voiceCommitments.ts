import type { TranscriptAnalysis } from '../analysis/transcriptAnalysis';
import { joinSegments, timeAtOffsetByTokens } from '../transcript/joinSegments';
import type { Segment } from '../transcript/segment';
import type { VoiceCommitment } from '../parser/parseTypes';

/**
 * The voice commitments the parser finds in an item's current utterances, each with the audio time at the end of
 * its phrase and the utterance that holds it. Shared by live transcription, transcribe-later and `session reparse`.
 */
export function voiceCommitmentsOf(
  utterances: ReadonlyArray<{ utterance: number; segments: readonly Segment[] }>,
  analyze: (segments: readonly Segment[]) => TranscriptAnalysis,
): { commitments: VoiceCommitment[]; diagnostics: TranscriptAnalysis['diagnostics']; final_label: string | null } {
  const segments = utterances.flatMap((u) => u.segments);
  const owner = utterances.flatMap((u) => u.segments.map(() => u.utterance));
  const { spans } = joinSegments(segments);
  const analysis = analyze(segments);
  const commitments = analysis.commitments.map((c) => {
    const at = spans.findIndex((span) => span.end >= c.end);
    const t = spans.length > 0 ? timeAtOffsetByTokens(segments, spans, c.end) : null;
    return {
      label: c.label,
      quote: c.quote,
      start: c.start,
      end: c.end,
      stem: c.stem,
      audio_ms: t === null ? null : Math.round(t),
      utterance: at >= 0 ? owner[at]! : null,
    };
  });
  return { commitments, diagnostics: analysis.diagnostics, final_label: analysis.final_label };
}
