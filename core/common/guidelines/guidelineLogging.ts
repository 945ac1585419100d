import type { GuidelineInForce, GuidelineScope } from './guidelines';

/** Events that give a label, or apply or remove a code: each is given under the guidelines last logged in force. */
const ACTS_OF: Record<GuidelineScope, ReadonlySet<string>> = {
  labels: new Set(['label_committed', 'labels_rederived']),
  codes: new Set(['code_applied', 'code_removed']),
};

/**
 * The entries to append with a guideline_in_force first wherever an act is given under guidelines other than the ones
 * this log recorded last (per scope): so every label and code in the log has the version it was given under, and a
 * log without acts, or a project without guidelines (`inForce` null), gets no such event. Codes: the version is the
 * one the coding act itself carries, and is logged only when `inForce` has that version's texts.
 */
export function withGuidelinesInForce<E extends { type: string; data: unknown }>(
  entries: readonly E[],
  logged: (scope: GuidelineScope) => string | null,
  inForce: Readonly<Record<GuidelineScope, GuidelineInForce | null>>,
  guidelineEntry: (data: GuidelineInForce) => E,
): E[] {
  const last: Record<GuidelineScope, string | null> = { labels: logged('labels'), codes: logged('codes') };
  const out: E[] = [];
  for (const entry of entries) {
    for (const scope of ['labels', 'codes'] as const) {
      const now = inForce[scope];
      if (!now || !ACTS_OF[scope].has(entry.type)) continue;
      if (scope === 'codes' && (entry.data as { codebook_version?: string }).codebook_version !== now.version) continue;
      if (last[scope] !== now.version) {
        out.push(guidelineEntry(now));
        last[scope] = now.version;
      }
    }
    out.push(entry);
  }
  return out;
}
