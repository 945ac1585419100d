import { describe, expect, it } from 'vitest';
import { ConfigError, parseProjectConfig } from '../../../../core/common/project/projectConfig';

const base = `name: politeness-demo
schema:
  name: politeness
  ordered: false
  labels:
    - {name: Polite, key: "1", synonyms: {en: [courteous], de: ["höflich"]}}
    - {name: Impolite, key: "2", synonyms: {en: [rude], de: ["unhöflich"]}}
    - {name: Neutral, key: "3", synonyms: {de: [neutral]}}
items: items.jsonl
`;

function problemsOf(text: string) {
  try {
    parseProjectConfig(text, 'p/aloud.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    // the catalog message beside each problem is tested in test/i18n/schemaMessages.test.ts
    return (e as ConfigError).problems.map(({ say: _say, ...problem }) => problem);
  }
  throw new Error('expected a ConfigError');
}

describe('parseProjectConfig', () => {
  it('applies every thinkaloud default', () => {
    const config = parseProjectConfig(base);
    expect(config.thinkaloud).toEqual({
      model: 'tiny.en',
      languages: ['en'],
      stems: {},
      fillers: ['um', 'uh', 'hmm', 'er', 'like', 'i guess', 'maybe', 'i think', 'sort of', 'kind of'],
      hesitation: {},
      chunk_seconds: 1.0,
      silence_threshold_dbfs: -45,
      min_pause_ms: 250,
      long_pause_ms: 1000,
      cut_floor_ms: 200,
      require_spoken_label: true,
      complete_wait_seconds: 15,
    });
    expect(config.schema.labels.map((l) => l.name)).toEqual(['Polite', 'Impolite', 'Neutral']);
    expect(config.schema.labels[2]!.synonyms).toEqual({ de: ['neutral'] });
  });

  it('reads per-language hesitation lists, and names a term with no word by its key path and line', () => {
    const config = parseProjectConfig(`${base}thinkaloud:\n  hesitation:\n    de: {hedges: [vielleicht, quasi]}\n`);
    expect(config.thinkaloud.hesitation).toEqual({ de: { hedges: ['vielleicht', 'quasi'] } });
    expect(() => parseProjectConfig(`${base}thinkaloud:\n  hesitation:\n    en:\n      hedges: [maybe, "..."]\n`)).toThrow(
      /aloud\.yaml:\d+: thinkaloud\.hesitation\.en\.hedges\[1\]: "\.\.\." has no word to count/,
    );
    expect(() => parseProjectConfig(`${base}thinkaloud:\n  hesitation:\n    en: {pauses: [um]}\n`)).toThrow(
      /thinkaloud\.hesitation\.en\.pauses: unknown key/,
    );
    expect(() => parseProjectConfig(`${base}thinkaloud:\n  hesitation:\n    English: {hedges: [maybe]}\n`)).toThrow(
      /thinkaloud\.hesitation: must match pattern/,
    );
  });

  it('keeps given values and defaults only the missing ones', () => {
    const config = parseProjectConfig(`${base}thinkaloud:\n  languages: [en, de]\n  min_pause_ms: 300\n  stems: {en: ["i vote"]}\n`);
    expect(config.thinkaloud.languages).toEqual(['en', 'de']);
    expect(config.thinkaloud.min_pause_ms).toBe(300);
    expect(config.thinkaloud.long_pause_ms).toBe(1000);
    expect(config.thinkaloud.stems).toEqual({ en: ['i vote'] });
  });

  it('rejects an unknown key with its path and line', () => {
    const problems = problemsOf(`${base}thinkaloud:\n  min_pause_ms: 300\n  silence_db: -40\n`);
    expect(problems).toEqual([
      { file: 'p/aloud.yaml', line: 12, path: 'thinkaloud.silence_db', message: 'unknown key (not allowed here)' },
    ]);
  });

  it('rejects a wrong type with its path and line', () => {
    const problems = problemsOf(base.replace('ordered: false', 'ordered: "no"'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 4, path: 'schema.ordered' });
  });

  it('reports a missing required key', () => {
    const problems = problemsOf('name: x\n');
    expect(problems[0]!.message).toContain('missing required key "schema"');
  });

  it('reports YAML syntax errors with a line', () => {
    const problems = problemsOf('name: x\nschema: [\n');
    expect(problems[0]!.message).toMatch(/^YAML syntax/);
    expect(problems[0]!.line).toBeGreaterThanOrEqual(2);
  });

  it('rejects duplicate YAML keys', () => {
    expect(problemsOf(`${base}name: again\n`)[0]!.message).toMatch(/YAML syntax/);
  });

  it('rejects duplicate label names and keys, and a synonym naming another label', () => {
    expect(problemsOf(base.replace('name: Neutral, key: "3"', 'name: polite, key: "3"'))[0]).toMatchObject({
      path: 'schema.labels[2].name',
      line: 8,
    });
    expect(problemsOf(base.replace('key: "3"', 'key: "2"'))[0]).toMatchObject({ path: 'schema.labels[2].key' });
    expect(problemsOf(base.replace('en: [rude]', 'en: [polite]'))[0]).toMatchObject({ path: 'schema.labels[1].synonyms.en', line: 7 });
  });

  it('rejects long_pause_ms below min_pause_ms', () => {
    expect(problemsOf(`${base}thinkaloud:\n  min_pause_ms: 500\n  long_pause_ms: 400\n`)[0]).toMatchObject({
      path: 'thinkaloud.long_pause_ms',
      line: 12,
    });
  });
});

describe('thinkaloud.stems', () => {
  it('rejects a malformed commit phrase pattern with its path and line', () => {
    const problems = problemsOf(`${base}thinkaloud:\n  stems:\n    en: ["i vote", "i (pick"]\n`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: 'thinkaloud.stems.en[1]', line: 12 });
    expect(problems[0]!.message).toContain('bad commit phrase pattern');
  });
});

describe('rules that keep labelling possible', () => {
  it('rejects a language without commit phrases, unless stems are given for it', () => {
    expect(problemsOf(`${base}thinkaloud:\n  languages: [en, fr]\n`)[0]).toMatchObject({ path: 'thinkaloud.languages[1]', line: 11 });
    expect(parseProjectConfig(`${base}thinkaloud:\n  languages: [fr]\n  stems: {fr: ["je choisis"]}\n`).thinkaloud.languages).toEqual([
      'fr',
    ]);
  });

  it('rejects a blank label key and the record shortcut', () => {
    expect(problemsOf(base.replace('key: "1"', 'key: " "'))[0]).toMatchObject({ path: 'schema.labels[0].key', line: 6 });
    expect(problemsOf(base.replace('key: "1"', 'key: "R"'))[0]!.message).toContain('record shortcut');
  });

  it('keeps the items file inside the project folder', () => {
    for (const items of ['../other/items.jsonl', '/etc/items.jsonl', 'sub/../../x.jsonl', 'C:/items.jsonl']) {
      expect(problemsOf(base.replace('items: items.jsonl', `items: "${items}"`))[0]).toMatchObject({ path: 'items', line: 9 });
    }
    expect(parseProjectConfig(base.replace('items: items.jsonl', 'items: data/items.csv')).items).toBe('data/items.csv');
  });
});
