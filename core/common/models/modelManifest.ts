import type { WhisperSizeClass } from './ggmlFormat';
import { Refusal } from '../refusal/refusal';

/** How a manifest entry's checksum was computed; the manifest names it rather than assuming one. */
export type ChecksumAlgo = 'sha1' | 'sha256';

export interface ModelChecksum {
  algo: ChecksumAlgo;
  /** lower-case hex digest */
  value: string;
}

/** One known whisper model (models/manifest.json). */
export interface ModelManifestEntry {
  /** e.g. "tiny.en": the name aloud.yaml's thinkaloud.model refers to */
  name: string;
  /** file name in the models folder, e.g. "ggml-tiny.en.bin" */
  file: string;
  /** official download URL: https (http only to 127.0.0.1 / [::1], for tests and local mirrors) */
  url: string;
  /** exact byte size, or null when no authoritative source states it (the download then relies on Content-Length and the checksum) */
  bytes: number | null;
  /** rounded size as published (MiB), for display only */
  approx_mib: number;
  checksum: ModelChecksum;
  english_only: boolean;
  size_class: Exclude<WhisperSizeClass, 'unknown'>;
  /** where the URL, checksum and size come from */
  source: string;
}

/** The voice-activity model (Silero VAD, models/manifest.json `vad`), downloaded with the default whisper model. */
export interface VadManifestEntry extends Pick<ModelManifestEntry, 'name' | 'file' | 'url' | 'bytes' | 'approx_mib' | 'checksum' | 'source'> {
  kind: 'vad';
}

export interface ModelManifest {
  manifest_version: 1;
  /** name of the model used when a project does not choose one */
  default: string;
  models: ModelManifestEntry[];
  /** the Silero VAD model the live cutter uses when it is present (optional: older manifests have none) */
  vad?: VadManifestEntry;
}

/** A problem in models/manifest.json, named by field path. */
export class ManifestError extends Refusal {
  override name = 'ManifestError';
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super('bad_request', problems.map((p) => `${file}: ${p}`).join('\n'));
  }
}

const HEX_DIGITS: Record<ChecksumAlgo, number> = { sha1: 40, sha256: 64 };
const SIZE_CLASSES = ['tiny', 'base', 'small', 'medium', 'large'] as const;
const ENTRY_KEYS = ['name', 'file', 'url', 'bytes', 'approx_mib', 'checksum', 'english_only', 'size_class', 'source'] as const;
/** Model names and file names stay plain so they are safe as paths and as CLI arguments. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Plain http is only ever for a server on this machine (tests, local mirrors); the downloader still refuses it unless told. */
const LOOPBACK_AUTHORITY = /^(127\.0\.0\.1|\[::1\])(:\d+)?$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses and validates the manifest text; throws ManifestError listing every problem by field path. */
export function parseModelManifest(text: string, file: string): ModelManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // i18n-ignore: models/manifest.json ships with Aloud (a developer's file); its field problems stay English
    throw new ManifestError(file, [`not valid JSON (${(e as Error).message})`]);
  }
  const problems: string[] = [];
  // i18n-ignore: models/manifest.json ships with Aloud (a developer's file); its field problems stay English
  if (!isRecord(value)) throw new ManifestError(file, ['(top level): must be a JSON object']);
  for (const key of Object.keys(value)) {
    if (!['manifest_version', 'default', 'models', 'vad'].includes(key)) problems.push(`${key}: unknown key (not allowed here)`);
  }
  if (value.manifest_version !== 1) problems.push(`manifest_version: must be 1 (got ${JSON.stringify(value.manifest_version)})`);
  if (!Array.isArray(value.models) || value.models.length === 0) {
    problems.push('models: must be a non-empty array');
    // i18n-ignore: models/manifest.json ships with Aloud (a developer's file); its field problems stay English
    throw new ManifestError(file, problems);
  }
  const names = new Map<string, number>();
  const files = new Map<string, number>();
  value.models.forEach((raw: unknown, i: number) => {
    const at = `models[${i}]`;
    if (!isRecord(raw)) {
      problems.push(`${at}: must be an object`);
      return;
    }
    for (const key of Object.keys(raw)) {
      if (!(ENTRY_KEYS as readonly string[]).includes(key)) problems.push(`${at}.${key}: unknown key (not allowed here)`);
    }
    for (const key of ENTRY_KEYS) if (!(key in raw)) problems.push(`${at}: missing required key "${key}"`);
    const { name, file: fileName, url, bytes, approx_mib, checksum, english_only, size_class, source } = raw;
    if ('name' in raw) {
      if (typeof name !== 'string' || !SAFE_NAME.test(name)) problems.push(`${at}.name: must be a plain name like "tiny.en"`);
      else if (names.has(name)) problems.push(`${at}.name: duplicate model name "${name}" (also models[${names.get(name)}])`);
      else names.set(name, i);
    }
    if ('file' in raw) {
      if (typeof fileName !== 'string' || !SAFE_NAME.test(fileName) || !fileName.endsWith('.bin')) problems.push(`${at}.file: must be a plain file name ending in .bin`);
      else if (files.has(fileName)) problems.push(`${at}.file: "${fileName}" is also models[${files.get(fileName)}].file`);
      else files.set(fileName, i);
    }
    if ('url' in raw) {
      const scheme = typeof url === 'string' ? /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(\/[^\s]*)?$/i.exec(url) : null;
      if (!scheme) problems.push(`${at}.url: must be an absolute URL`);
      else if (scheme[1]?.toLowerCase() !== 'https' && !(scheme[1]?.toLowerCase() === 'http' && LOOPBACK_AUTHORITY.test(scheme[2] ?? ''))) {
        problems.push(`${at}.url: must use https (got ${scheme[1]}:)`);
      }
      else if (scheme[2]?.includes('@')) problems.push(`${at}.url: must not contain credentials`);
      else if (!scheme[2] || !scheme[3] || scheme[3] === '/') problems.push(`${at}.url: must name a host and a file`);
    }
    if ('bytes' in raw && bytes !== null && !(Number.isSafeInteger(bytes) && (bytes as number) > 0)) {
      problems.push(`${at}.bytes: must be a positive integer, or null when no authoritative size is known`);
    }
    if ('approx_mib' in raw && !(typeof approx_mib === 'number' && approx_mib > 0)) problems.push(`${at}.approx_mib: must be a positive number`);
    if ('checksum' in raw) {
      if (!isRecord(checksum)) problems.push(`${at}.checksum: must be {"algo": "sha1"|"sha256", "value": hex}`);
      else {
        for (const key of Object.keys(checksum)) if (key !== 'algo' && key !== 'value') problems.push(`${at}.checksum.${key}: unknown key (not allowed here)`);
        const algo = checksum.algo;
        if (algo !== 'sha1' && algo !== 'sha256') problems.push(`${at}.checksum.algo: must be "sha1" or "sha256"`);
        else if (typeof checksum.value !== 'string' || !new RegExp(`^[0-9a-f]{${HEX_DIGITS[algo]}}$`).test(checksum.value)) {
          problems.push(`${at}.checksum.value: must be ${HEX_DIGITS[algo]} lower-case hex digits for ${algo}`);
        }
      }
    }
    if ('english_only' in raw && typeof english_only !== 'boolean') problems.push(`${at}.english_only: must be true or false`);
    if ('size_class' in raw && !(SIZE_CLASSES as readonly unknown[]).includes(size_class)) problems.push(`${at}.size_class: must be one of ${SIZE_CLASSES.join(', ')}`);
    if ('source' in raw && !(typeof source === 'string' && source.trim().length > 0)) problems.push(`${at}.source: must say where the URL, checksum and size come from`);
  });
  if ('vad' in value) checkVadEntry(value.vad, files, problems);
  if (typeof value.default !== 'string') problems.push('default: must be the name of one of the models');
  else if (!names.has(value.default)) problems.push(`default: "${value.default}" is not one of the models`);
  // i18n-ignore: models/manifest.json ships with Aloud (a developer's file); its field problems stay English
  if (problems.length > 0) throw new ManifestError(file, problems);
  return value as unknown as ModelManifest;
}

const VAD_KEYS = ['kind', 'name', 'file', 'url', 'bytes', 'approx_mib', 'checksum', 'source'] as const;

function checkVadEntry(raw: unknown, whisperFiles: ReadonlyMap<string, number>, problems: string[]): void {
  if (!isRecord(raw)) {
    problems.push('vad: must be an object');
    return;
  }
  for (const key of Object.keys(raw)) if (!(VAD_KEYS as readonly string[]).includes(key)) problems.push(`vad.${key}: unknown key (not allowed here)`);
  for (const key of VAD_KEYS) if (!(key in raw)) problems.push(`vad: missing required key "${key}"`);
  if (raw.kind !== 'vad') problems.push('vad.kind: must be "vad"');
  if (typeof raw.name !== 'string' || !SAFE_NAME.test(raw.name)) problems.push('vad.name: must be a plain name like "silero-v6.2.0"');
  if (typeof raw.file !== 'string' || !SAFE_NAME.test(raw.file) || !raw.file.endsWith('.bin')) problems.push('vad.file: must be a plain file name ending in .bin');
  else if (whisperFiles.has(raw.file)) problems.push(`vad.file: "${raw.file}" is also models[${whisperFiles.get(raw.file)}].file`);
  const url = typeof raw.url === 'string' ? /^([a-z]+):\/\/([^/?#@\s]+)\/\S+$/i.exec(raw.url) : null;
  const schemeOk = url && (url[1]!.toLowerCase() === 'https' || (url[1]!.toLowerCase() === 'http' && LOOPBACK_AUTHORITY.test(url[2]!)));
  if (!schemeOk) problems.push('vad.url: must be an https URL naming a host and a file');
  if (raw.bytes !== null && !(Number.isSafeInteger(raw.bytes) && (raw.bytes as number) > 0)) problems.push('vad.bytes: must be a positive integer, or null');
  if (!(typeof raw.approx_mib === 'number' && raw.approx_mib > 0)) problems.push('vad.approx_mib: must be a positive number');
  const checksum = raw.checksum;
  if (!isRecord(checksum) || (checksum.algo !== 'sha1' && checksum.algo !== 'sha256') || typeof checksum.value !== 'string' || !new RegExp(`^[0-9a-f]{${HEX_DIGITS[checksum.algo]}}$`).test(checksum.value)) {
    problems.push('vad.checksum: must be {"algo": "sha1"|"sha256", "value": lower-case hex}');
  }
  if (!(typeof raw.source === 'string' && raw.source.trim().length > 0)) problems.push('vad.source: must say where the URL, checksum and size come from');
}

export function findManifestModel(manifest: ModelManifest, name: string): ModelManifestEntry | undefined {
  return manifest.models.find((m) => m.name === name);
}

/** The manifest model whose checksum equals one of the file's digests, if any. */
export function manifestModelWithDigest(manifest: ModelManifest, digests: { sha1: string; sha256: string }): ModelManifestEntry | undefined {
  return manifest.models.find((m) => m.checksum.value === digests[m.checksum.algo]);
}
