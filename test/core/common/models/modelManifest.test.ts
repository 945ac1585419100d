import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findManifestModel, ManifestError, manifestModelWithDigest, type ModelManifest, parseModelManifest } from '../../../../core/common/models/modelManifest';

const MANIFEST_FILE = path.resolve(import.meta.dirname, '../../../../models/manifest.json');

function problemsOf(value: unknown): string[] {
  try {
    parseModelManifest(JSON.stringify(value), 'manifest.json');
  } catch (e) {
    expect(e).toBeInstanceOf(ManifestError);
    return (e as ManifestError).problems;
  }
  throw new Error('expected a ManifestError');
}

const entry = {
  name: 'tiny.en',
  file: 'ggml-tiny.en.bin',
  url: 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-tiny.en.bin',
  bytes: null,
  approx_mib: 75,
  checksum: { algo: 'sha1', value: 'c78c86eb1a8faa21b369bcd33207cc90d64ae9df' },
  english_only: true,
  size_class: 'tiny',
  source: 'whisper.cpp models/README.md',
};
const manifestWith = (models: unknown[], extra: Record<string, unknown> = {}): unknown => ({ manifest_version: 1, default: 'tiny.en', models, ...extra });

describe('models/manifest.json', () => {
  const manifest = parseModelManifest(readFileSync(MANIFEST_FILE, 'utf8'), MANIFEST_FILE);

  it('lists the six official models and five quantized English ones, with tiny.en as default', () => {
    expect(manifest.default).toBe('tiny.en');
    expect(manifest.models.map((m) => m.name)).toEqual([
      'tiny.en', 'tiny', 'base.en', 'base', 'small.en', 'small',
      'tiny.en-q5_1', 'tiny.en-q8_0', 'base.en-q5_1', 'base.en-q8_0', 'small.en-q5_1',
    ]);
  });

  it('names the Silero VAD model with its official URL, exact size and sha256', () => {
    expect(manifest.vad).toEqual(expect.objectContaining({
      kind: 'vad',
      file: 'ggml-silero-v6.2.0.bin',
      url: 'https://huggingface.co/ggml-org/whisper-vad/resolve/main/ggml-silero-v6.2.0.bin',
      bytes: 885098,
      checksum: { algo: 'sha256', value: '2aa269b785eeb53a82983a20501ddf7c1d9c48e33ab63a41391ac6c9f7fb6987' },
    }));
    expect(problemsOf(manifestWith([entry], { vad: { ...manifest.vad, url: 'http://example.org/x.bin' } }))).toEqual(['vad.url: must be an https URL naming a host and a file']);
    expect(problemsOf(manifestWith([entry], { vad: { ...manifest.vad, file: 'ggml-tiny.en.bin' } }))).toEqual(['vad.file: "ggml-tiny.en.bin" is also models[0].file']);
  });

  it('points every model at the whisper.cpp Hugging Face repo with a cited checksum', () => {
    for (const m of manifest.models) {
      expect(m.file).toBe(`ggml-${m.name}.bin`);
      expect(m.url).toBe(`https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-${m.name}.bin`);
      expect(m.checksum.algo).toBe('sha1');
      expect(m.english_only).toBe(/\.en(-|$)/.test(m.name));
      expect(m.size_class).toBe(m.name.replace(/\.en$/, '').replace(/-q\d_\d$/, '').replace(/\.en$/, ''));
      expect(m.source).toMatch(/models\/README\.md|README\.md 'Available models'/);
      // no authoritative exact size is published; the manifest says so rather than guessing
      expect(m.bytes).toBeNull();
    }
    expect(findManifestModel(manifest, 'tiny.en')?.checksum.value).toBe('c78c86eb1a8faa21b369bcd33207cc90d64ae9df');
    expect(findManifestModel(manifest, 'base.en-q8_0')?.checksum.value).toBe('bb1574182e9b924452bf0cd1510ac034d323e948');
    expect(new Set(manifest.models.map((m) => m.checksum.value)).size).toBe(11);
  });
});

describe('parseModelManifest', () => {
  it('accepts a minimal valid manifest and a sha256 checksum', () => {
    const sha256 = { ...entry, name: 'x', file: 'ggml-x.bin', checksum: { algo: 'sha256', value: 'a'.repeat(64) }, bytes: 123 };
    const parsed = parseModelManifest(JSON.stringify(manifestWith([entry, sha256])), 'm.json');
    expect(parsed.models).toHaveLength(2);
  });

  it('allows plain http only to the loopback address (tests, local mirrors)', () => {
    expect(parseModelManifest(JSON.stringify(manifestWith([{ ...entry, url: 'http://127.0.0.1:8080/ggml-tiny.en.bin' }])), 'm.json').models[0]!.url).toContain('127.0.0.1');
    expect(problemsOf(manifestWith([{ ...entry, url: 'http://localhost:8080/ggml-tiny.en.bin' }]))).toEqual(['models[0].url: must use https (got http:)']);
    expect(problemsOf(manifestWith([{ ...entry, url: 'http://127.0.0.1.evil.org/ggml-tiny.en.bin' }]))).toEqual(['models[0].url: must use https (got http:)']);
    expect(problemsOf(manifestWith([{ ...entry, url: 'ftp://host/x.bin' }]))).toEqual(['models[0].url: must use https (got ftp:)']);
  });

  it('names the file and the field of every problem', () => {
    const problems = problemsOf(
      manifestWith([
        { ...entry, url: 'http://huggingface.co/x/ggml-tiny.en.bin' },
        { ...entry, checksum: { algo: 'sha1', value: 'abc' }, extra: 1 },
        { ...entry, name: 'base', file: 'ggml-base.bin', url: 'https://user:pw@host/x.bin', bytes: -5, size_class: 'huge' },
        { ...entry, name: 'small', file: '../evil.bin', checksum: { algo: 'md5', value: 'x' }, source: ' ' },
      ], { default: 'large', bonus: true }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'bonus: unknown key (not allowed here)',
        'models[0].url: must use https (got http:)',
        'models[1].extra: unknown key (not allowed here)',
        'models[1].name: duplicate model name "tiny.en" (also models[0])',
        'models[1].file: "ggml-tiny.en.bin" is also models[0].file',
        'models[1].checksum.value: must be 40 lower-case hex digits for sha1',
        'models[2].url: must not contain credentials',
        'models[2].bytes: must be a positive integer, or null when no authoritative size is known',
        'models[2].size_class: must be one of tiny, base, small, medium, large',
        'models[3].file: must be a plain file name ending in .bin',
        'models[3].checksum.algo: must be "sha1" or "sha256"',
        'models[3].source: must say where the URL, checksum and size come from',
        'default: "large" is not one of the models',
      ]),
    );
  });

  it('reports missing keys, bad JSON and a wrong version', () => {
    const { checksum: _omit, ...noChecksum } = entry;
    expect(problemsOf(manifestWith([noChecksum]))).toEqual(['models[0]: missing required key "checksum"']);
    expect(problemsOf({ manifest_version: 2, default: 'tiny.en', models: [entry] })).toEqual(['manifest_version: must be 1 (got 2)']);
    expect(problemsOf({ manifest_version: 1, default: 'tiny.en', models: [] })).toEqual(['models: must be a non-empty array']);
    expect(() => parseModelManifest('{ nope', 'bad.json')).toThrow(/^bad\.json: not valid JSON/);
  });

  it('recognises a file by the digest named in each entry', () => {
    const m = parseModelManifest(
      JSON.stringify(manifestWith([entry, { ...entry, name: 'x', file: 'ggml-x.bin', checksum: { algo: 'sha256', value: 'b'.repeat(64) } }])),
      'm.json',
    ) as ModelManifest;
    expect(manifestModelWithDigest(m, { sha1: entry.checksum.value, sha256: '0'.repeat(64) })?.name).toBe('tiny.en');
    expect(manifestModelWithDigest(m, { sha1: '0'.repeat(40), sha256: 'b'.repeat(64) })?.name).toBe('x');
    // a sha1 value never matches a sha256 entry and vice versa
    expect(manifestModelWithDigest(m, { sha1: 'b'.repeat(40), sha256: entry.checksum.value.padEnd(64, '0') })).toBeUndefined();
  });
});
