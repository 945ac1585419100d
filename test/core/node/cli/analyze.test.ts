import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../../helpers/cli';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const fixtures = path.resolve(repoRoot, '../shared/fixtures/audio');
const labels = ['--labels', 'Polite,Impolite,Neutral'];

async function analyze(...argv: string[]) {
  const result = await cli('analyze', ...argv);
  if (result.code !== 0) throw new Error(`analyze exited ${result.code}: ${result.err}`);
  return JSON.parse(result.out) as Record<string, unknown> & {
    final_label: string | null;
    commitments: Array<{ label: string; quote: string; start: number; end: number; t_ms: number | null; stem: string }>;
    diagnostics: Array<{ kind: string; quote: string }>;
    pauses?: { count: number; total_ms: number; longest_ms: number; long_count: number };
  };
}

async function tempFile(name: string, content: string | Uint8Array): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-analyze-')), name);
  await writeFile(file, content);
  return file;
}

describe('aloud analyze', () => {
  it('prints every contract field for a text', async () => {
    const out = await analyze(...labels, '--text', 'My answer is impolite. Uh, actually no. Final answer: neutral.');
    for (const key of ['final_label', 'commitments', 'diagnostics', 'filler_count', 'fillers_by_term', 'word_count', 'label_changes']) {
      expect(out).toHaveProperty(key);
    }
    expect(out.final_label).toBe('Neutral');
    expect(out.commitments.map((c) => c.label)).toEqual(['Impolite', 'Neutral']);
    expect(out.commitments[1]!.quote).toBe('Final answer: neutral');
    expect(out.label_changes).toBe(1);
    expect(out.filler_count).toBe(1);
    expect(out).not.toHaveProperty('pauses');
  });

  it('reports a negated mention as a diagnostic and commits the later phrase', async () => {
    const out = await analyze(...labels, '--text', 'I would not label this polite. It is rude. I label this impolite.');
    expect(out.final_label).toBe('Impolite');
    expect(out.diagnostics.map((d) => d.kind)).toEqual(['negated']);
  });

  it('takes labels, synonyms and languages from --config', async () => {
    const config = await tempFile(
      'aloud.yaml',
      'name: t\nschema:\n  name: s\n  labels:\n    - {name: Polite, synonyms: {de: ["höflich"]}}\n    - {name: Rude}\nthinkaloud:\n  languages: [en, de]\n',
    );
    expect((await analyze('--config', config, '--text', 'Meine Antwort ist höflich.')).final_label).toBe('Polite');
    // --lang overrides the config's languages: German stems are then inactive
    expect((await analyze('--config', config, '--lang', 'en', '--text', 'Meine Antwort ist höflich.')).final_label).toBeNull();
  });

  it('times commitments from a segments JSON transcript, also when a phrase spans two segments', async () => {
    const file = await tempFile(
      'utterances.json',
      JSON.stringify({
        segments: [
          { t0_ms: 0, t1_ms: 1000, text: ' Hmm. I label this' },
          { t0_ms: 3000, t1_ms: 4000, text: ' polite.' },
        ],
      }),
    );
    const out = await analyze(...labels, '--transcript', file);
    expect(out.final_label).toBe('Polite');
    expect(out.commitments[0]!.quote).toBe('I label this polite');
    expect(out.commitments[0]!.t_ms).toBeGreaterThan(3000);
    expect(out.commitments[0]!.t_ms).toBeLessThanOrEqual(4000);
    expect(out.time_to_first_commit_ms).toBe(out.commitments[0]!.t_ms);
  });

  it.skipIf(!existsSync(fixtures))('adds audio signals with --audio (fixture commit-polite.wav: one 2 s gap)', async () => {
    const out = await analyze(...labels, '--text', 'I label this polite.', '--audio', path.join(fixtures, 'commit-polite.wav'));
    expect(out.pauses!.long_count).toBe(1);
    expect(out.pauses!.longest_ms).toBeGreaterThanOrEqual(2000);
    expect(out.silent_chunks).toBeGreaterThanOrEqual(1);
    expect(out.time_to_first_speech_ms).toBeLessThan(200);
  });

  it('prints hesitation by category for English, beside the legacy filler_count', async () => {
    const out = await analyze(...labels, '--text', "Um, I, I like this reply. It's kind of polite, I think. No wait, I label this polite.");
    expect(out).toMatchObject({
      filled_pause_count: 1,
      hedge_count: 2,
      repetition_count: 1,
      editing_term_count: 1,
      hesitation_language: 'en',
    });
    // the legacy single list counts "like" (a verb here) too
    expect(out.filler_count).toBe(4);
    expect(out.final_label).toBe('Polite');
  });

  it('prints hesitation by category for German with --lang de (German lists and rules)', async () => {
    const out = await analyze(
      ...labels,
      '--lang',
      'de',
      '--text',
      'Ähm, wir sehen uns um drei Uhr. Ich, ich glaube, äh, nein warte, ich wähle Impolite.',
    );
    expect(out).toMatchObject({
      filled_pause_count: 2,
      hedge_count: 1,
      repetition_count: 1,
      editing_term_count: 1,
      hesitation_language: 'de',
    });
    // the legacy list counts the preposition "um" and misses "Ähm"
    expect(out.filler_count).toBe(1);
    expect(out.final_label).toBe('Impolite');
  });

  it('--explain lists the spoken forms of every label, the commit phrases, the grammar and the hesitation lists', async () => {
    const { code, out } = await cli('analyze', ...labels, '--lang', 'en,de', '--explain');
    expect(code).toBe(0);
    const { explain } = JSON.parse(out) as {
      explain: {
        labels: Array<{ label: string; forms: Array<{ text: string; source: string }> }>;
        commit_phrases: Record<string, Array<{ pattern: string }>>;
        grammar: string[];
        hesitation: Record<string, { filled_pauses: string[] }>;
      };
    };
    expect(explain.labels.map((l) => l.label)).toEqual(['Polite', 'Impolite', 'Neutral']);
    expect(explain.labels[1]!.forms).toEqual(
      expect.arrayContaining([
        { text: 'impolite', source: 'name', language: null },
        expect.objectContaining({ text: 'in polite', source: 'derived', rule: 'split prefix' }),
      ]),
    );
    expect(Object.keys(explain.commit_phrases)).toEqual(['en', 'de']);
    expect(explain.commit_phrases.en![0]).toMatchObject({
      pattern: 'I (label|labeled|labelled) this/it/that (one) (as)',
      source: 'built-in',
    });
    expect(explain.grammar.length).toBeGreaterThan(5);
    expect(explain.hesitation.de!.filled_pauses).toContain('ähm');
    // with a text, the explanation comes beside the analysis
    expect(await analyze(...labels, '--text', 'My answer is in polite.', '--explain')).toMatchObject({
      final_label: 'Impolite',
      explain: { grammar: explain.grammar },
    });
  });

  const badCases: Array<[string, string[], RegExp]> = [
    ['no labels', ['--text', 'x'], /--labels/],
    ['no text', [...labels], /exactly one of --text/],
    ['text and transcript', [...labels, '--text', 'x', '--transcript', 'y'], /exactly one of --text/],
    ['one label', ['--labels', 'Polite', '--text', 'x'], /at least two labels/],
    ['empty label', ['--labels', 'Polite,,Rude', '--text', 'x'], /empty label/],
    ['unknown language', [...labels, '--lang', 'xx', '--text', 'x'], /unknown language "xx"/],
    ['missing transcript file', [...labels, '--transcript', '/nonexistent/t.txt'], /\/nonexistent\/t\.txt: cannot read/],
    ['missing config', ['--config', '/nonexistent/aloud.yaml', '--text', 'x'], /\/nonexistent\/aloud\.yaml: not found/],
    ['missing audio', [...labels, '--text', 'x', '--audio', '/nonexistent/a.wav'], /\/nonexistent\/a\.wav: cannot read/],
    ['unknown option', [...labels, '--text', 'x', '--bogus'], /bogus/],
  ];
  it.each(badCases)('bad input (%s): exit 2 with one line', async (_name, argv, message) => {
    const { code, err, out } = await cli('analyze', ...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(message);
  });

  it('bad files: not a WAV, a segments JSON with a wrong field, an invalid config key', async () => {
    const notWav = await tempFile('a.wav', 'hello');
    let r = await cli('analyze', ...labels, '--text', 'x', '--audio', notWav);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${notWav}: not a WAV file`);
    const badJson = await tempFile('t.json', JSON.stringify({ segments: [{ t0_ms: 0, t1_ms: 'x', text: 'a' }] }));
    r = await cli('analyze', ...labels, '--transcript', badJson);
    expect(r.code).toBe(2);
    expect(r.err).toContain('segments[0].t1_ms must be a number');
    const badConfig = await tempFile(
      'aloud.yaml',
      'name: t\nschema:\n  name: s\n  labels: [{name: A}, {name: B}]\nthinkaloud:\n  min_pause: 3\n',
    );
    r = await cli('analyze', '--config', badConfig, '--text', 'x');
    expect(r.code).toBe(2);
    expect(r.err).toContain('aloud.yaml:6: thinkaloud.min_pause: unknown key');
    const badUtf8 = await tempFile('t.txt', Uint8Array.from([0x49, 0xff, 0xfe]));
    r = await cli('analyze', ...labels, '--transcript', badUtf8);
    expect(r.err).toContain('not valid UTF-8');
  });
});
