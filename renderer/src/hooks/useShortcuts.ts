import { useLayoutEffect, useRef } from 'react';
import type { KeyPress } from '../app/shortcuts';

/** A key press went to something the user types into: then single keys are text, not shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/**
 * A link, or a button focused from the keyboard: Enter (and for buttons Space) activate it. After a mouse click a button
 * keeps focus but is not :focus-visible, so Space still records rather than pressing the last label button again; tabs
 * never take the keys (activating the open tab does nothing).
 */
export function controlKind(target: EventTarget | null): 'link' | 'button' | null {
  if (!(target instanceof HTMLElement)) return null;
  if (target.matches('a[href]')) return 'link';
  if (target.matches('button:not([role="tab"])') && target.matches(':focus-visible')) return 'button';
  return null;
}

export function keyPressOf(e: KeyboardEvent): KeyPress {
  return { key: e.key, repeat: e.repeat, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, inField: isTypingTarget(e.target), onControl: controlKind(e.target) };
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
