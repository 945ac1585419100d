import { Refusal } from '../refusal/refusal';
import type { RefusalMessage } from '../refusal/refusalMessage';
/** models.json in the models folder: what was downloaded or imported, with its digests. */

export interface InstalledModelRecord {
  name: string;
  /** file name inside the models folder */
  file: string;
  bytes: number;
  sha256: string;
  sha1: string;
  source: 'download' | 'import';
  /** the URL downloaded from, or the path imported from */
  origin: string;
  /** ISO time; downloaded_at for downloads, imported_at for imports */
  downloaded_at?: string;
  imported_at?: string;
  /** modification time when hashed: while size and mtime (to the millisecond) are unchanged the digests can be reused */
  mtime_ms: number;
}

export interface ModelIndex {
  index_version: 1;
  models: InstalledModelRecord[];
}

export function emptyModelIndex(): ModelIndex {
  return { index_version: 1, models: [] };
}

/** A damaged models.json: a person must repair or remove it. */
export class ModelIndexError extends Refusal {
  override name = 'ModelIndexError';
  constructor(message: string | RefusalMessage) {
    super('conflict', message);
  }
}

const RECORD_KEYS = ['name', 'file', 'bytes', 'sha256', 'sha1', 'source', 'origin', 'downloaded_at', 'imported_at', 'mtime_ms'];

/** Parses models.json; a damaged index is an error naming the file and field, never silently replaced. */
export function parseModelIndex(text: string, file: string): ModelIndex {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // i18n-ignore: models.json is Aloud's own index; a damaged one's field problems stay English
    throw new ModelIndexError(`${file}: not valid JSON (${(e as Error).message}); fix or delete it (the model files themselves are kept)`);
  }
  const fail = (field: string, message: string): never => {
    // i18n-ignore: models.json is Aloud's own index; a damaged one's field problems stay English
    throw new ModelIndexError(`${file}: ${field}: ${message}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('(top level)', 'must be a JSON object');
  const root = value as Record<string, unknown>;
  if (root.index_version !== 1) fail('index_version', `must be 1 (got ${JSON.stringify(root.index_version)})`);
  if (!Array.isArray(root.models)) return fail('models', 'must be an array');
  root.models.forEach((raw: unknown, i: number) => {
    const at = `models[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail(at, 'must be an object');
    const r = raw as Record<string, unknown>;
    for (const key of Object.keys(r)) if (!RECORD_KEYS.includes(key)) fail(`${at}.${key}`, 'unknown key');
    for (const key of ['name', 'file', 'origin'] as const) if (typeof r[key] !== 'string' || r[key] === '') fail(`${at}.${key}`, 'must be a non-empty string');
    if (typeof r.file === 'string' && (r.file.includes('/') || r.file.includes('\\'))) fail(`${at}.file`, 'must be a file name inside the models folder');
    if (!Number.isSafeInteger(r.bytes) || (r.bytes as number) < 0) fail(`${at}.bytes`, 'must be a byte count');
    if (typeof r.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(r.sha256)) fail(`${at}.sha256`, 'must be 64 hex digits');
    if (typeof r.sha1 !== 'string' || !/^[0-9a-f]{40}$/.test(r.sha1)) fail(`${at}.sha1`, 'must be 40 hex digits');
    if (r.source !== 'download' && r.source !== 'import') fail(`${at}.source`, 'must be "download" or "import"');
    if (typeof r.mtime_ms !== 'number') fail(`${at}.mtime_ms`, 'must be a number');
    for (const key of ['downloaded_at', 'imported_at'] as const) {
      if (r[key] !== undefined && (typeof r[key] !== 'string' || Number.isNaN(Date.parse(r[key])))) fail(`${at}.${key}`, 'must be an ISO date-time');
    }
  });
  return root as unknown as ModelIndex;
}

/** The index with `record` added, replacing any record for the same file or the same name. */
export function withModelRecord(index: ModelIndex, record: InstalledModelRecord): ModelIndex {
  return { ...index, models: [...index.models.filter((m) => m.file !== record.file && m.name !== record.name), record] };
}
