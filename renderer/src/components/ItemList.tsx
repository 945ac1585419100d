import { memo, useEffect, useRef } from 'react';
import type { Item } from '../../../core/common/items/item';
import type { ItemSummary } from '../../../core/common/session/itemSummary';

export type ItemStatus = 'done' | 'labelled' | 'audio' | 'new';

export function itemStatus(state: ItemSummary | undefined): ItemStatus {
  if (!state) return 'new';
  if (state.completed_at) return 'done';
  if (state.final_label) return 'labelled';
  return state.audio_ms > 0 ? 'audio' : 'new';
}

const STATUS_WORDS: Record<ItemStatus, string> = { done: 'completed', labelled: 'labelled', audio: 'recorded', new: 'not started' };

interface Props {
  items: readonly Item[];
  states: ReadonlyMap<string, ItemSummary>;
  currentId: string | null;
  onOpen: (index: number) => void;
  label?: string;
}

/**
 * The sidebar of items. It follows the current item (scrolls it into view), and its entries are out of the Tab
 * order except the current one, so Tab does not walk 400 entries before reaching the controls.
 */
export const ItemList = memo(function ItemList({ items, states, currentId, onOpen, label = 'items' }: Props) {
  const currentRef = useRef<HTMLButtonElement | null>(null);
  const listRef = useRef<HTMLElement | null>(null);
  useEffect(() => {
    // scroll the list only (scrollIntoView would scroll the whole page too), and again when the window size changes
    const follow = () => {
      const list = listRef.current;
      if (!list) return;
      // the list ends at the window's bottom whatever banners stand above it, so the current item is really in view
      const docTop = list.getBoundingClientRect().top + window.scrollY;
      list.style.maxHeight = `${Math.max(160, window.innerHeight - docTop - 12)}px`;
      const el = currentRef.current;
      if (!el) return;
      const top = el.offsetTop;
      const bottom = top + el.offsetHeight;
      if (top < list.scrollTop) list.scrollTop = Math.max(0, top - 8);
      else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight + 8;
    };
    follow();
    window.addEventListener('resize', follow);
    return () => window.removeEventListener('resize', follow);
  }, [currentId]);
  return (
    <aside className="item-list" aria-label={label} ref={listRef}>
      <ol>
        {items.map((it, n) => {
          const state = states.get(it.id);
          const status = itemStatus(state);
          const current = it.id === currentId;
          return (
            <li key={it.id}>
              <button
                ref={current ? currentRef : undefined}
                className={`item-link ${status} ${current ? 'current' : ''}`}
                aria-current={current ? 'true' : undefined}
                tabIndex={current ? 0 : -1}
                onClick={() => onOpen(n)}
                title={`${it.id}: ${STATUS_WORDS[status]}${state?.changed_after_completion ? ', label changed after completion' : ''}`}
              >
                <span className="dot" aria-hidden="true" />
                <span className="item-id">{it.id}</span>
                <span className="visually-hidden">
                  , {STATUS_WORDS[status]}
                  {state?.changed_after_completion ? ', label changed after completion' : ''}
                </span>
                {state?.final_label && (
                  <span className="item-label">
                    {state.final_label}
                    {state.changed_after_completion && (
                      <span className="item-changed" aria-hidden="true">
                        *
                      </span>
                    )}
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ol>
    </aside>
  );
});
