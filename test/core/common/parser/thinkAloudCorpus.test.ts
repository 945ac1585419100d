import { describe, expect, it } from 'vitest';
import { createCommitParser } from '../../../../core/common/parser/commitPhrase';
import { expectQuotesExact, politeness } from './parserTestSupport';
import { judge, loadCorpus } from './thinkAloudCorpus';

/**
 * Think-aloud sentences as whisper writes them, English and German, each with the labels it commits (in order;
 * none for musings, hedges, reported speech, other subjects, past intentions, conditionals, questions, negations,
 * repairs taken back). A false commit (a label the sentence does not give) fails the test; a miss is reported, and
 * only the misses the corpus itself lists as known may occur.
 */
const corpus = loadCorpus();

describe('judge', () => {
  it('tells false commits from misses', () => {
    expect(judge([], [])).toBe('right');
    expect(judge(['Polite'], ['Polite'])).toBe('right');
    expect(judge(['Polite'], [])).toBe('false_commit');
    expect(judge(['Impolite'], ['Polite'])).toBe('false_commit');
    expect(judge(['Polite', 'Impolite'], ['Impolite'])).toBe('false_commit');
    expect(judge([], ['Polite'])).toBe('miss');
    expect(judge(['Neutral'], ['Impolite', 'Neutral'])).toBe('miss');
  });
});

describe('the think-aloud corpus', () => {
  it('holds at least 200 sentences, English and German, of every kind', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(200);
    const byLanguage = (lang: string) => corpus.filter((r) => r.lang === lang).length;
    expect(byLanguage('en')).toBeGreaterThanOrEqual(100);
    expect(byLanguage('de')).toBeGreaterThanOrEqual(100);
    const kinds = new Set(corpus.map((r) => r.kind));
    for (const kind of [
      'commit',
      'asr-form',
      'descriptive',
      'other-subject',
      'past-intention',
      'conditional',
      'question',
      'negation',
      'repair',
      'ambiguous',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    const names = new Set(politeness.map((l) => l.name));
    for (const row of corpus) for (const label of row.expect) expect(names, row.text).toContain(label);
    expect(corpus.filter((r) => r.expect.length === 0).length).toBeGreaterThanOrEqual(100);
  });

  for (const languages of ['own', 'both'] as const) {
    it(`commits no label a sentence does not give, and misses only the known ones (${languages === 'own' ? "the sentence's language" : 'en and de active'})`, () => {
      const parsers = {
        en: createCommitParser({ labels: politeness, languages: languages === 'own' ? ['en'] : ['en', 'de'] }),
        de: createCommitParser({ labels: politeness, languages: languages === 'own' ? ['de'] : ['en', 'de'] }),
      };
      const falseCommits: string[] = [];
      const misses: string[] = [];
      for (const row of corpus) {
        const result = parsers[row.lang](row.text);
        expectQuotesExact(row.text, result);
        const committed = result.commitments.map((c) => c.label);
        const outcome = judge(committed, row.expect);
        const line = `${row.lang} ${row.kind}: ${JSON.stringify(row.text)} committed ${JSON.stringify(committed)}, expected ${JSON.stringify(row.expect)}`;
        if (outcome === 'false_commit') falseCommits.push(line);
        if (outcome === 'miss') misses.push(row.known_miss ? `${line} (known: ${row.known_miss})` : `${line} (NOT a known miss)`);
      }
      console.info(
        `think-aloud corpus (${languages}): ${corpus.length} sentences, ${falseCommits.length} false commits, ${misses.length} misses${misses.map((m) => `\n  miss: ${m}`).join('')}`,
      );
      expect(falseCommits).toEqual([]);
      expect(misses.filter((m) => m.endsWith('(NOT a known miss)'))).toEqual([]);
      expect(misses.length).toBe(corpus.filter((r) => r.known_miss).length);
    });
  }
});
