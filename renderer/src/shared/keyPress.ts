/** The parts of a KeyboardEvent the rules look at (so they can be tested without a DOM). */
export interface KeyPress {
  key: string;
  repeat: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** Shift held, and the physical key (`Digit1`…): Shift+digit is read by position, since Shift changes the character by layout */
  shiftKey?: boolean;
  code?: string;
  /** the press went to a text field, select or editable element */
  inField: boolean;
  /**
   * the press went to a link (Enter follows it) or to a button the user reached with Tab (Enter and Space press it).
   * A click never leaves a control focused (focusPolicy), so a focused control is always one reached by keyboard.
   */
  onControl?: 'link' | 'button' | null;
}
