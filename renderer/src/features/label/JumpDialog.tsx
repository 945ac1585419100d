import { useState } from 'react';
import type { Item } from '../../../../core/common/items/item';
import { Modal } from '../../shared/Dialogs';
import { searchItems } from './navigation';

/** Ctrl/Cmd+G: jump to an item by id, or search the item texts. */
export function JumpDialog({ items, onJump, onClose }: { items: readonly Item[]; onJump: (index: number) => void; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const found = searchItems(items, query);
  const jump = (item: Item | undefined) => {
    if (!item) return;
    onJump(items.indexOf(item));
    onClose();
  };
  return (
    <Modal title="Go to item" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          jump(items.find((i) => i.id === query.trim()) ?? found[0]);
        }}
      >
        <label htmlFor="jump-query">Item id or words from its text</label>
        <input
          id="jump-query"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoComplete="off"
          placeholder="e.g. demo-07 or “manual”"
        />
      </form>
      {query.trim() !== '' && (
        <ul className="jump-results" aria-label="matching items">
          {found.length === 0 && <li className="muted">No item matches.</li>}
          {found.map((item) => (
            <li key={item.id}>
              <button className="link" onClick={() => jump(item)}>
                <code>{item.id}</code> <span className="muted">{item.text.slice(0, 80)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
