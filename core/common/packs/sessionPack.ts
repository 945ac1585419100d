/**
 * A session pack: one annotator's session (log and audio) carried from their laptop to the lead's project as one
 * file, with a manifest saying what it holds (the sha256 of every file) and which project and items it was made from
 * (the project's name, the sha256 of every item's id, text and context). The rules for accepting one are here, as
 * pure functions; reading and writing the file is core/node/packs.
 */
import type { InputProblem } from '../io/inputProblem';
import { schemaProblems } from '../io/schemaProblems';
import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';

export const PACK_VERSION = 1;
export const PACK_MANIFEST = 'manifest.json';
export const PACK_LOG = 'events.jsonl';

/** One item as the annotator's project had it. */
export interface PackItem {
  id: string;
  id_sha256: string;
  text_sha256: string;
  context_sha256: string | null;
}

export interface PackFile {
  /** inside the pack: events.jsonl or audio/<encoded item id>.wav */
  path: string;
  sha256: string;
  bytes: number;
}

export interface SessionPackManifest {
  pack_version: 1;
  kind: 'aloud-session-pack';
  /** the project's name (aloud.yaml `name`) */
  project: string;
  annotator: string;
  /** events in the packed log */
  events: number;
  items: PackItem[];
  files: PackFile[];
  app_version: string;
  created_at: string;
}

const sha256 = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

export const packManifestJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://aloud.local/schemas/session-pack-manifest.v1.json',
  title: 'Aloud session pack manifest',
  type: 'object',
  additionalProperties: false,
  required: ['pack_version', 'kind', 'project', 'annotator', 'events', 'items', 'files', 'app_version', 'created_at'],
  properties: {
    pack_version: { const: 1 },
    kind: { const: 'aloud-session-pack' },
    project: { type: 'string', minLength: 1 },
    annotator: { type: 'string', minLength: 1 },
    events: { type: 'integer', minimum: 1 },
    items: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'id_sha256', 'text_sha256', 'context_sha256'],
        properties: {
          id: { type: 'string', minLength: 1 },
          id_sha256: sha256,
          text_sha256: sha256,
          context_sha256: { anyOf: [sha256, { type: 'null' }] },
        },
      },
    },
    files: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'sha256', 'bytes'],
        properties: { path: { type: 'string', minLength: 1 }, sha256, bytes: { type: 'integer', minimum: 0 } },
      },
    },
    app_version: { type: 'string' },
    created_at: { type: 'string', minLength: 1 },
  },
} as const;

const validateManifest = compileOnFirstUse(() =>
  sharedAjv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(packManifestJsonSchema),
);

/** Where a file of a pack may be: the log, or a WAV in audio/ named as the session store names it (no folders, no dot names). */
export function packPathProblem(path: string): string | null {
  if (path === PACK_LOG || path === PACK_MANIFEST) return null;
  if (/^audio\/[A-Za-z0-9_%-][A-Za-z0-9_%.-]{0,199}\.wav$/.test(path) && !path.includes('..')) return null;
  return `"${path}" is not a file a session pack holds (events.jsonl, audio/<item>.wav, manifest.json)`;
}

/**
 * The manifest's own checks: its schema, then that it describes a session (exactly one log, every path allowed and
 * listed once) and that every item's id_sha256 is the sha256 of its id (`sha256Hex` supplied by the caller).
 */
export function manifestProblems(value: unknown, file: string, sha256Hex: (text: string) => string): InputProblem[] {
  if (!validateManifest(value)) return schemaProblems(validateManifest.errors, file, { line: 1, pointer: '', value, locate: () => 1 });
  const manifest = value as SessionPackManifest;
  const problems: InputProblem[] = [];
  const at = (field: string, message: string): void => {
    problems.push({ file, line: null, field, stage: 'rule', message });
  };
  const seen = new Set<string>();
  manifest.files.forEach((f, i) => {
    const problem = packPathProblem(f.path);
    if (problem || f.path === PACK_MANIFEST) at(`files[${i}].path`, problem ?? 'the manifest does not list itself');
    if (seen.has(f.path)) at(`files[${i}].path`, `"${f.path}" is listed twice`);
    seen.add(f.path);
  });
  if (!seen.has(PACK_LOG)) at('files', `the pack lists no ${PACK_LOG}: it holds no session`);
  const ids = new Set<string>();
  manifest.items.forEach((item, i) => {
    if (sha256Hex(item.id) !== item.id_sha256) at(`items[${i}].id_sha256`, `is not the sha256 of the id "${item.id}"`);
    if (ids.has(item.id)) at(`items[${i}].id`, `item "${item.id}" is listed twice`);
    ids.add(item.id);
  });
  return problems;
}

/**
 * The first item of the pack that is not the same item in the lead's project (missing there, other text, other
 * context), in words naming it; null when every item of the pack is one of the project's, unchanged. Items the
 * project has and the pack lacks do not matter: nobody in the pack labelled them.
 */
export function firstItemDifference(
  pack: readonly PackItem[],
  project: ReadonlyMap<string, { textSha256: string; contextSha256: string | null }>,
): string | null {
  for (const [i, item] of pack.entries()) {
    const here = project.get(item.id);
    const which = `item "${item.id}" (item ${i + 1} of the pack)`;
    if (!here) return `${which} is not in this project`;
    if (here.textSha256 !== item.text_sha256)
      return `${which} has another text in the pack than in this project (sha256 ${item.text_sha256.slice(0, 12)}… there, ${here.textSha256.slice(0, 12)}… here)`;
    if (here.contextSha256 !== item.context_sha256) return `${which} has another context in the pack than in this project`;
  }
  return null;
}

/** "event 57 (label_committed of demo-03 at 2025-01-06T09:00:07.734Z)": an event line, in words, for a refusal. */
export function describeEventLine(seq: number, line: string | null): string {
  if (line === null) return `event ${seq} (none)`;
  try {
    const event = JSON.parse(line) as { type?: unknown; ts?: unknown; data?: { item_id?: unknown } };
    const item = typeof event.data?.item_id === 'string' ? ` of ${event.data.item_id}` : '';
    return `event ${seq} (${String(event.type)}${item} at ${String(event.ts)})`;
  } catch {
    return `event ${seq} (an unreadable line)`;
  }
}
