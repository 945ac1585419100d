/**
 * The pointer half of the one keyboard model: a click on a button, tab, link or checkbox does what it says and leaves
 * the keyboard focus with the screen, so the next Space records and the next Enter completes — never "press the last
 * clicked button again". (Browsers focus a clicked button, and Chromium shows it as :focus-visible once a key is
 * pressed, so the shortcut would be taken by the button.) A click also takes the focus out of a text field, as a
 * click anywhere else does. Inside a dialog nothing changes: the dialog keeps its own focus.
 */
/** Controls that Enter or Space press when they have the focus. */
export const PRESSABLE_CONTROLS =
  'button, [role="tab"], summary, input[type="checkbox"], input[type="radio"], input[type="button"], input[type="submit"]';
const POINTER_CONTROLS = `${PRESSABLE_CONTROLS}, a[href]`;

/** Installs the policy on a document; returns the function that removes it. */
export function installPointerFocusPolicy(doc: Document): () => void {
  /** a select the pointer opened: once a choice is made, the focus goes back to the screen */
  let pointerSelect: HTMLSelectElement | null = null;
  const onMouseDown = (e: MouseEvent) => {
    const target = e.target instanceof Element ? e.target : null;
    if (!target || target.closest('[role="dialog"]')) return;
    const select = target.closest('select');
    if (select) {
      pointerSelect = select;
      return;
    }
    if (!target.closest(POINTER_CONTROLS)) return;
    // no focus from the pointer (the click itself still happens); whatever had it gives it back to the page
    e.preventDefault();
    const active = doc.activeElement;
    if (active instanceof HTMLElement && active !== doc.body && !active.closest('[role="dialog"]')) active.blur();
  };
  const onChange = (e: Event) => {
    if (e.target === pointerSelect && pointerSelect !== null) {
      pointerSelect.blur();
      pointerSelect = null;
    }
  };
  const onKeyDown = () => {
    pointerSelect = null;
  };
  doc.addEventListener('mousedown', onMouseDown, true);
  doc.addEventListener('change', onChange, true);
  doc.addEventListener('keydown', onKeyDown, true);
  return () => {
    doc.removeEventListener('mousedown', onMouseDown, true);
    doc.removeEventListener('change', onChange, true);
    doc.removeEventListener('keydown', onKeyDown, true);
  };
}
