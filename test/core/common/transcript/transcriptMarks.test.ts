import { describe, expect, it } from 'vitest';
import { parseCommitments } from '../../../../core/common/parser/commitPhrase';
import { fillerSpans, formatClock, transcriptPieces } from '../../../../core/common/transcript/transcriptMarks';

const labels = [
  { name: 'Polite', synonyms: {} },
  { name: 'Impolite', synonyms: {} },
  { name: 'Neutral', synonyms: {} },
];

describe('transcript marks', () => {
  it('marks fillers on word boundaries, the longest first, and never inside a word', () => {
    const text = 'Um, I think the umbrella is, kind of like, fine. UM.';
    const spans = fillerSpans(text, ['um', 'i think', 'kind of', 'like']);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['Um', 'I think', 'kind of', 'like', 'UM']);
  });

  it('marks a negated mention, the commitment and the fillers, keeping every character', () => {
    const text = 'Hmm, it is not polite. Um, I label this impolite.';
    const parse = parseCommitments(text, { labels, languages: ['en'], fillers: ['um', 'hmm'] });
    const commitments = parse.commitments.map((c) => ({ ...c, t_ms: null }));
    const pieces = transcriptPieces(text, commitments, parse.diagnostics, { fillers: ['um', 'hmm'], finalIsVoice: true });
    expect(pieces.map((p) => p.text).join('')).toBe(text);
    expect(pieces.filter((p) => p.kind === 'filler').map((p) => p.text)).toEqual(['Hmm', 'Um']);
    const commit = pieces.find((p) => p.kind === 'commit');
    expect(commit).toMatchObject({ text: 'I label this impolite', label: 'Impolite', final: true });
  });

  it('a commitment overridden by a key is not shown as the final one', () => {
    const text = 'Final answer: neutral.';
    const parse = parseCommitments(text, { labels, languages: ['en'] });
    const commitments = parse.commitments.map((c) => ({ ...c, t_ms: null }));
    expect(commitments).toHaveLength(1);
    expect(transcriptPieces(text, commitments, [], { finalIsVoice: false }).find((p) => p.kind === 'commit')).toMatchObject({
      final: false,
    });
  });

  it('a filler inside a commit phrase stays part of the phrase', () => {
    const text = 'I label this, um, polite.';
    const parse = parseCommitments(text, { labels, languages: ['en'], fillers: ['um'] });
    const commitments = parse.commitments.map((c) => ({ ...c, t_ms: null }));
    const pieces = transcriptPieces(text, commitments, [], { fillers: ['um'] });
    expect(pieces.map((p) => p.kind)).toEqual(['commit', 'text']);
  });

  it('formats clock times', () => {
    expect(formatClock(65_300)).toBe('1:05.3');
    expect(formatClock(-5)).toBe('0:00.0');
  });
});
