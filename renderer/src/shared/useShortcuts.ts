import { useLayoutEffect, useRef } from 'react';
import { PRESSABLE_CONTROLS } from './focusPolicy';
import type { KeyPress } from './keyPress';

/** A key press went to something the user types into: then single keys are text, not shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || ['TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  return target instanceof HTMLInputElement && !NOT_TYPED_INPUTS.has(target.type);
}

const NOT_TYPED_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/**
 * A link, or a control that has the focus: Enter (and for controls Space) activate it. A click never leaves a control
 * focused (focusPolicy), so a focused control is one the user reached with Tab, and its keys are its own; a press on
 * the page itself (body) is the screen's.
 */
export function controlKind(target: EventTarget | null): 'link' | 'button' | null {
  if (!(target instanceof HTMLElement)) return null;
  if (target.matches('a[href]')) return 'link';
  if (target.matches(PRESSABLE_CONTROLS)) return 'button';
  return null;
}

export function keyPressOf(e: KeyboardEvent): KeyPress {
  return {
    key: e.key,
    repeat: e.repeat,
    ctrlKey: e.ctrlKey,
    metaKey: e.metaKey,
    altKey: e.altKey,
    shiftKey: e.shiftKey,
    code: e.code,
    inField: isTypingTarget(e.target),
    onControl: controlKind(e.target),
  };
}

/**
 * Window key presses to a handler; the handler returns true when it used the press (then the browser's default
 * is prevented). Subscribed before paint, so a key pressed as soon as a screen shows is heard.
 */
export function useShortcuts(handler: (press: KeyPress, event: KeyboardEvent) => boolean, enabled = true): void {
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  useLayoutEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      if (handlerRef.current(keyPressOf(e), e)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
