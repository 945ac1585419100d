import { describe, expect, it } from 'vitest';
import { emptyModelIndex, type InstalledModelRecord, parseModelIndex, withModelRecord } from '../../../../core/common/models/modelIndex';

const record: InstalledModelRecord = {
  name: 'tiny.en',
  file: 'ggml-tiny.en.bin',
  bytes: 10,
  sha256: 'a'.repeat(64),
  sha1: 'b'.repeat(40),
  source: 'download',
  origin: 'https://example.org/ggml-tiny.en.bin',
  downloaded_at: '2026-01-01T00:00:00.000Z',
  mtime_ms: 1,
};

describe('models.json index', () => {
  it('round-trips records and replaces a record for the same file or name', () => {
    const index = withModelRecord(withModelRecord(emptyModelIndex(), record), { ...record, name: 'custom', file: 'ggml-custom.bin', source: 'import', origin: '/tmp/c.bin' });
    expect(parseModelIndex(JSON.stringify(index), 'models.json')).toEqual(index);
    const replaced = withModelRecord(index, { ...record, bytes: 20 });
    expect(replaced.models.map((m) => [m.name, m.bytes])).toEqual([['custom', 10], ['tiny.en', 20]]);
  });

  it('names the file and field of a damaged index', () => {
    const bad = (value: unknown): string => {
      try {
        parseModelIndex(JSON.stringify(value), '/m/models.json');
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error('expected an error');
    };
    expect(bad({ index_version: 1, models: [{ ...record, sha256: 'xyz' }] })).toBe('/m/models.json: models[0].sha256: must be 64 hex digits');
    expect(bad({ index_version: 1, models: [{ ...record, file: '../x.bin' }] })).toBe('/m/models.json: models[0].file: must be a file name inside the models folder');
    expect(bad({ index_version: 1, models: [{ ...record, source: 'stolen' }] })).toBe('/m/models.json: models[0].source: must be "download" or "import"');
    expect(bad({ index_version: 3, models: [] })).toBe('/m/models.json: index_version: must be 1 (got 3)');
    expect(() => parseModelIndex('{', '/m/models.json')).toThrow(/^\/m\/models\.json: not valid JSON .*the model files themselves are kept/);
  });
});
