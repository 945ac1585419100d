/**
 * What `--json` prints for a pipeline: the result with every list replaced by its count (and, for lists of gaps,
 * problems or files, counts by reason, stage or kind) and long texts by their length, so stdout stays a few hundred
 * bytes at any study size. The whole result stays in its receipt file; `--full` prints it whole.
 */

/** A refusal's or a validation's problems for a pipeline: how many, by stage, and the first 20 (stdout stays bounded). */
export function problemsSummary(problems: ReadonlyArray<{ stage: string }>): Json {
  return {
    ...(pipelineSummary({ problems }) as { [key: string]: Json }),
    first_problems: problems.slice(0, FIRST_ELEMENTS) as unknown as Json,
  };
}

/** A text longer than this is summarised by its length (a receipt's aloud.yaml, a long message). */
const LONG_TEXT = 240;
/** How many elements of a list kept in the summary (warnings, problems) are printed; its count says how many there are. */
export const FIRST_ELEMENTS = 20;
/** The fields a list's elements are grouped by, first present wins. */
const GROUP_FIELDS = ['reason', 'stage', 'kind', 'format'] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Counts of a list's elements by the first of GROUP_FIELDS they carry as text, or null when they carry none. */
function groupCounts(list: readonly unknown[]): { field: string; counts: Record<string, number> } | null {
  for (const field of GROUP_FIELDS) {
    const counts: Record<string, number> = {};
    let grouped = false;
    for (const element of list) {
      const value = element !== null && typeof element === 'object' ? (element as Record<string, unknown>)[field] : undefined;
      if (typeof value !== 'string') continue;
      counts[value] = (counts[value] ?? 0) + 1;
      grouped = true;
    }
    if (grouped) return { field, counts };
  }
  return null;
}

/**
 * The summary of a JSON-able result: objects keep their fields and names; a list `xs` becomes `xs_count` (and
 * `xs_by_<field>` when its elements carry a reason, stage, kind or format); a text over 240 characters becomes
 * `<name>_chars`. `keepLists` names lists a reader wants to see (e.g. warnings): their first 20 elements stay, with
 * `xs_count`, so the summary stays bounded however many there are.
 */
export function pipelineSummary(value: unknown, keepLists: ReadonlySet<string> = new Set(['warnings'])): Json {
  if (value === null || typeof value !== 'object') return (value ?? null) as Json;
  if (Array.isArray(value)) return value.length;
  const out: { [key: string]: Json } = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    if (field === undefined) continue;
    if (Array.isArray(field) && keepLists.has(key)) {
      out[key] = field.slice(0, FIRST_ELEMENTS) as Json[];
      out[`${key}_count`] = field.length;
    } else if (Array.isArray(field)) {
      out[`${key}_count`] = field.length;
      const groups = groupCounts(field);
      if (groups) out[`${key}_by_${groups.field}`] = groups.counts;
    } else if (typeof field === 'string' && field.length > LONG_TEXT) {
      out[`${key}_chars`] = field.length;
    } else {
      out[key] = pipelineSummary(field, keepLists);
    }
  }
  return out;
}
