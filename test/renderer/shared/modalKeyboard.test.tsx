// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import { Modal } from '../../../renderer/src/shared/Dialogs';
import { appCatalogs } from '../../../renderer/src/app/appCatalogs';

/** An opener button and the modal it opens (a memo field, a save button, the close ✕), as a screen has them. */
function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <IntlProvider locale="en" messages={appCatalogs.en}>
      <button onClick={() => setOpen(true)}>open</button>
      {open && (
        <Modal title="Memo on u0" onClose={() => setOpen(false)}>
          <textarea aria-label="Doubts" />
          <button type="submit">save</button>
          <button hidden>never a stop</button>
        </Modal>
      )}
    </IntlProvider>
  );
}

afterEach(cleanup);

describe('Modal by keyboard alone', () => {
  it('focus goes in, Tab and Shift+Tab stay inside, Escape closes and gives focus back to the opener', () => {
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'open' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Memo on u0' });
    const field = screen.getByRole('textbox', { name: 'Doubts' });
    expect(document.activeElement).toBe(field);
    // the dialog's stops in order: the close ✕ (head), the field, save; the hidden button is none
    const close = screen.getByRole('button', { name: /close/i });
    const save = screen.getByRole('button', { name: 'save' });
    save.focus();
    fireEvent.keyDown(save, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(save);
    // inside the stops, Tab is the browser's own (not prevented)
    field.focus();
    expect(fireEvent.keyDown(field, { key: 'Tab' })).toBe(true);
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(dialog.isConnected).toBe(false);
    expect(document.activeElement).toBe(opener);
  });
});
