import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decodeFileName,
  encodeFileName,
  itemAudioRelativePath,
  resolveInSession,
  sessionPaths,
} from '../../../../core/node/session/sessionPaths';

describe('session file names', () => {
  it('keeps plain lower-case names readable', () => {
    expect(encodeFileName('ana', 'annotator')).toBe('ana');
    expect(encodeFileName('demo-01', 'item id')).toBe('demo-01');
    expect(encodeFileName('item_7.v2', 'item id')).toBe('item_7.v2');
  });

  it('escapes everything that could escape the folder or collide', () => {
    for (const hostile of ['..', '.', '../../etc/passwd', 'a/b', 'a\\b', '.lock', 'x.', 'C:', 'con', 'NUL', 'lpt1.txt']) {
      const encoded = encodeFileName(hostile, 'item id');
      expect(encoded).toMatch(/^[a-z0-9_%.-]+$/i);
      expect(encoded).not.toMatch(/^\.|\.$|[/\\:]/);
      expect(/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(encoded.split('.')[0]!)).toBe(false);
      expect(decodeFileName(encoded)).toBe(hostile);
    }
  });

  it('maps distinct names to names distinct even when the file system ignores case or normalises Unicode', () => {
    const names = ['Ana', 'ana', 'ANA', 'Jürgen', 'Ju\u0308rgen', 'a b', 'a%20b', 'a+b', '名前', 'a.b', 'a%2Eb'];
    const folded = names.map((n) => encodeFileName(n, 'annotator').toLowerCase());
    expect(new Set(folded).size).toBe(names.length);
    for (const n of names) expect(decodeFileName(encodeFileName(n, 'annotator'))).toBe(n);
  });

  it('rejects names that cannot become a file name, saying why', () => {
    expect(() => encodeFileName('', 'annotator name')).toThrow('annotator name must not be empty');
    expect(() => encodeFileName('   ', 'annotator name')).toThrow('must not be only spaces');
    expect(() => encodeFileName('a\nb', 'item id')).toThrow('item id "a\\nb" contains control characters');
    expect(() => encodeFileName('\ud800', 'item id')).toThrow('is not valid Unicode');
    expect(() => encodeFileName('ü'.repeat(40), 'item id')).toThrow(
      /too long for a file name \(240 characters once encoded, at most 200\)/,
    );
  });

  it('lays out sessions/<annotator>/events.jsonl, .lock and audio/<item>.wav inside the project', () => {
    const paths = sessionPaths('/p', 'Ana');
    expect(paths.dir).toBe(path.resolve('/p/sessions/%41na'));
    expect(paths.events).toBe(path.resolve('/p/sessions/%41na/events.jsonl'));
    expect(paths.lock).toBe(path.resolve('/p/sessions/%41na/.lock'));
    expect(itemAudioRelativePath(paths, '../x')).toBe('sessions/%41na/audio/%2E.%2Fx.wav');
    expect(resolveInSession(paths, 'sessions/%41na/audio/a.wav')).toBe(path.resolve('/p/sessions/%41na/audio/a.wav'));
    expect(() => resolveInSession(paths, 'sessions/bob/audio/a.wav')).toThrow('points outside');
    expect(() => resolveInSession(paths, 'sessions/%41na/../../x.wav')).toThrow('points outside');
  });
});
