import type { Item } from '../../common/items/item';
import { ProjectError } from './projectError';

/** Items as JSON Lines: one object per line with a string `id` and `text`; other keys are metadata. */
export function parseItemsJsonl(text: string, file: string): Item[] {
  const items: Item[] = [];
  const seen = new Map<string, number>();
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new ProjectError(`${file}:${line}: not valid JSON (${(e as Error).message})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ProjectError(`${file}:${line}: an item must be a JSON object with "id" and "text"`);
    }
    const { id, text: itemText, context, meta, ...rest } = value as Record<string, unknown>;
    if (typeof id !== 'string' || id.trim() === '') throw new ProjectError(`${file}:${line}: field "id" must be a non-empty string`);
    if (typeof itemText !== 'string' || itemText.trim() === '') throw new ProjectError(`${file}:${line}: field "text" must be a non-empty string`);
    if (context !== undefined && typeof context !== 'string') throw new ProjectError(`${file}:${line}: field "context" must be a string`);
    if (meta !== undefined && (typeof meta !== 'object' || meta === null || Array.isArray(meta))) {
      throw new ProjectError(`${file}:${line}: field "meta" must be an object`);
    }
    if (seen.has(id)) throw new ProjectError(`${file}:${line}: duplicate item id "${id}" (first on line ${seen.get(id)})`);
    seen.set(id, line);
    const metadata = { ...(meta as Record<string, unknown> | undefined), ...rest };
    items.push({ id, text: itemText, ...(context !== undefined ? { context } : {}), ...(Object.keys(metadata).length ? { meta: metadata } : {}) });
  });
  return items;
}
