import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import type { Item } from '../../../core/common/items/item';
import type { ItemSummary } from '../../../core/common/session/itemSummary';
import { useIntl } from 'react-intl';
import type { AppMessageId } from './i18n/catalogs';

export type ItemStatus = 'done' | 'labelled' | 'audio' | 'new';

export function itemStatus(state: ItemSummary | undefined): ItemStatus {
  if (!state) return 'new';
  if (state.completed_at) return 'done';
  if (state.final_label) return 'labelled';
  return state.audio_ms > 0 ? 'audio' : 'new';
}

const STATUS_WORDS: Record<ItemStatus, AppMessageId> = {
  done: 'shared.itemList.done',
  labelled: 'shared.itemList.labelled',
  audio: 'shared.itemList.audio',
  new: 'shared.itemList.new',
};

interface Props {
  items: readonly Item[];
  states: ReadonlyMap<string, ItemSummary>;
  currentId: string | null;
  onOpen: (index: number) => void;
  /** the list's accessible name (default: "items" in the interface language) */
  label?: string;
}

/** Lists longer than this render only the rows in view (and a margin): 10,000 buttons took seconds to open and every act re-rendered them. */
const WINDOWED_FROM = 200;
/** rows rendered above and below the visible ones */
const OVERSCAN = 20;
/** a row's height until one is measured (an .item-link: 13 px text, 5 px padding above and below) */
const DEFAULT_ROW_PX = 25;
/** the list's own padding above its first row (.item-list ol) */
const LIST_PADDING_PX = 4;

/**
 * The sidebar of items. It follows the current item (scrolls it into view), and its entries are out of the Tab
 * order except the current one, so Tab does not walk 400 entries before reaching the controls. A long list renders
 * the rows in view only (each at its place in a list as tall as all of them), and always the current one.
 */
export const ItemList = memo(function ItemList({ items, states, currentId, onOpen, label }: Props) {
  const intl = useIntl();
  const currentRef = useRef<HTMLButtonElement | null>(null);
  const listRef = useRef<HTMLElement | null>(null);
  const windowed = items.length > WINDOWED_FROM;
  const [rowPx, setRowPx] = useState(DEFAULT_ROW_PX);
  const [view, setView] = useState({ top: 0, height: 800 });
  const currentIndex = useMemo(() => (currentId === null ? -1 : items.findIndex((it) => it.id === currentId)), [items, currentId]);
  useEffect(() => {
    // scroll the list only (scrollIntoView would scroll the whole page too), and again when the window size changes
    const follow = () => {
      const list = listRef.current;
      if (!list) return;
      // the list ends at the window's bottom whatever banners stand above it, so the current item is really in view
      const docTop = list.getBoundingClientRect().top + window.scrollY;
      list.style.maxHeight = `${Math.max(160, window.innerHeight - docTop - 12)}px`;
      if (windowed) setView({ top: list.scrollTop, height: list.clientHeight });
      const el = currentRef.current;
      if (!el) return;
      const top = windowed ? LIST_PADDING_PX + currentIndex * rowPx : el.offsetTop;
      const bottom = top + el.offsetHeight;
      if (top < list.scrollTop) list.scrollTop = Math.max(0, top - 8);
      else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight + 8;
      if (windowed) setView({ top: list.scrollTop, height: list.clientHeight });
    };
    follow();
    window.addEventListener('resize', follow);
    return () => window.removeEventListener('resize', follow);
  }, [currentId, currentIndex, rowPx, windowed]);
  useEffect(() => {
    // the real height of a row, once one is on screen (fonts and zoom differ)
    const measured = listRef.current?.querySelector('li')?.getBoundingClientRect().height;
    if (windowed && measured && Math.abs(measured - rowPx) > 0.5) setRowPx(measured);
  }, [windowed, rowPx]);
  const onScroll = useCallback(() => {
    const list = listRef.current;
    if (list && windowed) setView({ top: list.scrollTop, height: list.clientHeight });
  }, [windowed]);
  // a list that got shorter (a filter) may have been scrolled past its new end: read where it is now
  useLayoutEffect(onScroll, [onScroll, items.length]);

  const row = (it: Item, n: number) => {
    const state = states.get(it.id);
    const status = itemStatus(state);
    const current = it.id === currentId;
    const statusWords = intl.formatMessage(
      { id: 'shared.itemList.status' },
      { status: intl.formatMessage({ id: STATUS_WORDS[status] }), changed: state?.changed_after_completion ? 'yes' : 'no' },
    );
    return (
      <li
        key={it.id}
        style={
          windowed ? { position: 'absolute', top: LIST_PADDING_PX + n * rowPx, left: LIST_PADDING_PX, right: LIST_PADDING_PX } : undefined
        }
        {...(windowed ? { 'aria-posinset': n + 1, 'aria-setsize': items.length } : {})}
      >
        <button
          ref={current ? currentRef : undefined}
          className={`item-link ${status} ${current ? 'current' : ''}`}
          aria-current={current ? 'true' : undefined}
          tabIndex={current ? 0 : -1}
          onClick={() => onOpen(n)}
          title={`${it.id}: ${statusWords}`}
        >
          <span className="dot" aria-hidden="true" />
          <span className="item-id">{it.id}</span>
          <span className="visually-hidden">, {statusWords}</span>
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
  };

  let rows: ReactElement[];
  if (!windowed) rows = items.map(row);
  else {
    // never past the end: the browser stops a list that got shorter at its end
    const top = Math.max(0, Math.min(view.top, 2 * LIST_PADDING_PX + items.length * rowPx - view.height));
    const first = Math.max(0, Math.floor((top - LIST_PADDING_PX) / rowPx) - OVERSCAN);
    const last = Math.min(items.length, Math.ceil((top + view.height) / rowPx) + OVERSCAN);
    rows = [];
    // the current row is always there (it holds the list's one Tab stop), in view or not
    if (currentIndex >= 0 && currentIndex < first) rows.push(row(items[currentIndex]!, currentIndex));
    for (let n = first; n < last; n++) rows.push(row(items[n]!, n));
    if (currentIndex >= last) rows.push(row(items[currentIndex]!, currentIndex));
  }
  return (
    <aside
      className={windowed ? 'item-list windowed' : 'item-list'}
      aria-label={label ?? intl.formatMessage({ id: 'shared.itemList.name' })}
      ref={listRef}
      onScroll={windowed ? onScroll : undefined}
    >
      <ol
        style={windowed ? { position: 'relative', height: 2 * LIST_PADDING_PX + items.length * rowPx, boxSizing: 'border-box' } : undefined}
      >
        {rows}
      </ol>
    </aside>
  );
});
