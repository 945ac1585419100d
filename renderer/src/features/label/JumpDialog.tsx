import { FormattedMessage, useIntl } from 'react-intl';
import { useState } from 'react';
import type { Item } from '../../../../core/common/items/item';
import { Modal } from '../../shared/Dialogs';
import { searchItems } from './navigation';

/** Ctrl/Cmd+G: jump to an item by id, or search the item texts. */
export function JumpDialog({ items, onJump, onClose }: { items: readonly Item[]; onJump: (index: number) => void; onClose: () => void }) {
  const intl = useIntl();
  const [query, setQuery] = useState('');
  const found = searchItems(items, query);
  const jump = (item: Item | undefined) => {
    if (!item) return;
    onJump(items.indexOf(item));
    onClose();
  };
  return (
    <Modal title={intl.formatMessage({ id: 'label.jump.title' })} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          jump(items.find((i) => i.id === query.trim()) ?? found[0]);
        }}
      >
        <label htmlFor="jump-query">
          <FormattedMessage id="label.jump.query" />
        </label>
        <input
          id="jump-query"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoComplete="off"
          placeholder={intl.formatMessage({ id: 'label.jump.placeholder' })}
        />
      </form>
      {query.trim() !== '' && (
        <ul className="jump-results" aria-label={intl.formatMessage({ id: 'label.jump.results' })}>
          {found.length === 0 && (
            <li className="muted">
              <FormattedMessage id="label.jump.none" />
            </li>
          )}
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
