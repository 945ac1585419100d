import { MODEL_FIELDS, type Item } from './item';

/**
 * How an import combines with the project's items. append: existing items stay as they are, new ids are added
 * after them, an id given again with the same content is a no-op, with different content it is refused.
 * replace: the imported file becomes the whole item list.
 */
export type ImportMode = 'append' | 'replace';

export interface ItemsMerge {
  /** the project's item list after the import */
  items: Item[];
  added: string[];
  unchanged: string[];
  /** ids present before and after whose text, context, model reasoning or metadata differ */
  changed: string[];
  /** ids present before and not after (replace only) */
  removed: string[];
}

export function mergeItems(existing: readonly Item[], incoming: readonly Item[], mode: ImportMode): ItemsMerge {
  const before = new Map(existing.map((item) => [item.id, item]));
  const incomingIds = new Set(incoming.map((item) => item.id));
  const added: string[] = [];
  const unchanged: string[] = [];
  const changed: string[] = [];
  for (const item of incoming) {
    const old = before.get(item.id);
    if (!old) added.push(item.id);
    else if (sameItem(old, item)) unchanged.push(item.id);
    else changed.push(item.id);
  }
  if (mode === 'replace') {
    const removed = existing.filter((item) => !incomingIds.has(item.id)).map((item) => item.id);
    return { items: [...incoming], added, unchanged, changed, removed };
  }
  const addedSet = new Set(added);
  return { items: [...existing, ...incoming.filter((item) => addedSet.has(item.id))], added, unchanged, changed, removed: [] };
}

export function sameItem(a: Item, b: Item): boolean {
  return (
    a.id === b.id &&
    a.text === b.text &&
    a.context === b.context &&
    MODEL_FIELDS.every((key) => canonicalJson(a[key] ?? null) === canonicalJson(b[key] ?? null)) &&
    canonicalJson(a.meta ?? {}) === canonicalJson(b.meta ?? {})
  );
}

/** JSON with object keys sorted, so metadata written in another key order still compares equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
