import { expect } from 'vitest';
import type { LabelDef } from '../../../../core/common/parser/parseTypes';
import { parseCommitments } from '../../../../core/common/parser/commitPhrase';
import type { ParseOptions, ParseResult } from '../../../../core/common/parser/parseTypes';

/** The demo politeness schema: synonyms in English and German. */
export const politeness: LabelDef[] = [
  { name: 'Polite', synonyms: { en: ['courteous'], de: ['höflich'] } },
  { name: 'Impolite', synonyms: { en: ['rude'], de: ['unhöflich'] } },
  { name: 'Neutral', synonyms: { de: ['neutral'] } },
];

export const english: ParseOptions = { labels: politeness, languages: ['en'] };
export const german: ParseOptions = { labels: politeness, languages: ['de'] };
export const bilingual: ParseOptions = { labels: politeness, languages: ['en', 'de'] };

/** Every quote must be the exact slice of the transcript at its offsets, and final_label the last commitment. */
export function expectQuotesExact(transcript: string, result: ParseResult): void {
  for (const found of [...result.commitments, ...result.diagnostics]) {
    expect(found.start).toBeGreaterThanOrEqual(0);
    expect(found.end).toBeGreaterThan(found.start);
    expect(found.end).toBeLessThanOrEqual(transcript.length);
    expect(transcript.slice(found.start, found.end)).toBe(found.quote);
  }
  expect(result.final_label).toBe(result.commitments.at(-1)?.label ?? null);
}

/** parseCommitments with the quote/offset invariant checked on every result. */
export function parse(transcript: string, options: ParseOptions = english): ParseResult {
  const result = parseCommitments(transcript, options);
  expectQuotesExact(transcript, result);
  return result;
}

export function committedLabels(result: ParseResult): string[] {
  return result.commitments.map((c) => c.label);
}

export function diagnosticKinds(result: ParseResult): string[] {
  return result.diagnostics.map((d) => d.kind);
}
