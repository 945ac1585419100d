import { useEffect, useRef, useState } from 'react';

/** What the coder is told: a code set on a unit, or taken off it. */
type CodeChangeId = 'coding.announce.added' | 'coding.announce.removed';

/** The last code given or taken back on the protocol shown, found by comparing its codes with the ones shown before. */
export function useCodeChangeAnnouncement(
  view: { annotator: string; item_id: string; mine: Record<string, ReadonlyArray<{ code: string }>> } | null | undefined,
): { id: CodeChangeId; code: string; unit: string } | null {
  const before = useRef<{ item: string; mine: Record<string, ReadonlyArray<{ code: string }>> } | null>(null);
  const [said, setSaid] = useState<{ id: CodeChangeId; code: string; unit: string } | null>(null);
  useEffect(() => {
    const was = before.current;
    before.current = view ? { item: `${view.annotator}/${view.item_id}`, mine: view.mine } : null;
    // another protocol (or the first shown) is not a change anybody made
    if (!view || !was || was.item !== `${view.annotator}/${view.item_id}`) {
      setSaid(null);
      return;
    }
    for (const unit of new Set([...Object.keys(was.mine), ...Object.keys(view.mine)])) {
      const old = new Set((was.mine[unit] ?? []).map((c) => c.code));
      const now = new Set((view.mine[unit] ?? []).map((c) => c.code));
      const added = [...now].find((c) => !old.has(c));
      const removed = [...old].find((c) => !now.has(c));
      if (added !== undefined) return setSaid({ id: 'coding.announce.added', code: added, unit });
      if (removed !== undefined) return setSaid({ id: 'coding.announce.removed', code: removed, unit });
    }
  }, [view]);
  return said;
}
