import { describe, expect, it } from 'vitest';
import type { LabelDef } from '../../../../core/common/parser/parseTypes';
import { shortcutAction, shortcutList } from '../../../../renderer/src/features/label/labelKeys';
import { reviewShortcut, stepRate } from '../../../../renderer/src/features/review/reviewKeys';
import type { KeyPress } from '../../../../renderer/src/shared/keyPress';

const labels: LabelDef[] = [
  { name: 'Polite', key: '1', synonyms: {} },
  { name: 'Impolite', key: '2', synonyms: {} },
  { name: 'Neutral', synonyms: {} },
];
const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key,
  repeat: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  inField: false,
  ...more,
});

describe('label screen shortcuts', () => {
  it('Space and r toggle recording once; a held Space (key repeat) does nothing', () => {
    expect(shortcutAction(press(' '), labels)).toEqual({ kind: 'toggle-recording' });
    expect(shortcutAction(press('r'), labels)).toEqual({ kind: 'toggle-recording' });
    expect(shortcutAction(press(' ', { repeat: true }), labels)).toBeNull();
  });
  it('label keys commit their label, once per press', () => {
    expect(shortcutAction(press('2'), labels)).toEqual({ kind: 'label', label: 'Impolite' });
    expect(shortcutAction(press('1', { repeat: true }), labels)).toBeNull();
    expect(shortcutAction(press('3'), labels)).toBeNull();
  });
  it('held arrows keep moving; Enter completes', () => {
    expect(shortcutAction(press('ArrowRight', { repeat: true }), labels)).toEqual({ kind: 'move', delta: 1 });
    expect(shortcutAction(press('ArrowLeft'), labels)).toEqual({ kind: 'move', delta: -1 });
    expect(shortcutAction(press('Enter'), labels)).toEqual({ kind: 'complete' });
  });
  it('in a text field only Esc (leave the field) and Ctrl/Cmd+G act; the typed "1" stays text', () => {
    expect(shortcutAction(press('1', { inField: true }), labels)).toBeNull();
    expect(shortcutAction(press(' ', { inField: true }), labels)).toBeNull();
    expect(shortcutAction(press('Escape', { inField: true }), labels)).toEqual({ kind: 'leave-field' });
    expect(shortcutAction(press('g', { inField: true, ctrlKey: true }), labels)).toEqual({ kind: 'jump' });
    expect(shortcutAction(press('G', { metaKey: true }), labels)).toEqual({ kind: 'jump' });
  });
  it('Enter and Space on a button reached by keyboard press it; Enter on a link follows it', () => {
    expect(shortcutAction(press('Enter', { onControl: 'button' }), labels)).toBeNull();
    expect(shortcutAction(press(' ', { onControl: 'button' }), labels)).toBeNull();
    expect(shortcutAction(press('1', { onControl: 'button' }), labels)).toEqual({ kind: 'label', label: 'Polite' });
    expect(shortcutAction(press('Enter', { onControl: 'link' }), labels)).toBeNull();
    expect(shortcutAction(press(' ', { onControl: 'link' }), labels)).toEqual({ kind: 'toggle-recording' });
    expect(reviewShortcut(press(' ', { onControl: 'button' }))).toBeNull();
  });
  it('Esc gives the keys back from a text field or a control reached with Tab; on the page itself it does nothing', () => {
    expect(shortcutAction(press('Escape', { onControl: 'button' }), labels)).toEqual({ kind: 'leave-field' });
    expect(shortcutAction(press('Escape', { onControl: 'link' }), labels)).toEqual({ kind: 'leave-field' });
    expect(shortcutAction(press('Escape'), labels)).toBeNull();
    expect(reviewShortcut(press('Escape', { inField: true }))).toEqual({ kind: 'leave-field' });
    expect(reviewShortcut(press('Escape', { onControl: 'button' }))).toEqual({ kind: 'leave-field' });
    expect(reviewShortcut(press('Escape'))).toBeNull();
  });
  it('modifier combinations other than Ctrl/Cmd+G are left to the browser', () => {
    expect(shortcutAction(press('1', { ctrlKey: true }), labels)).toBeNull();
    expect(shortcutAction(press('r', { metaKey: true }), labels)).toBeNull();
    expect(shortcutAction(press('?'), labels)).toEqual({ kind: 'help' });
  });
  it('the overlay lists every shortcut, including r and each label key', () => {
    const all = shortcutList(labels).flatMap((s) => s.keys);
    expect(all).toEqual(expect.arrayContaining(['Space', 'R', '1', '2', 'Enter', '←', '→', 'Ctrl+G', 'Esc', '?']));
    expect(shortcutList(labels).some((s) => JSON.stringify(s.what).includes('Neutral'))).toBe(false);
  });
});

describe('review shortcuts', () => {
  it('Space plays/pauses, J/L skip 5 s, [ ] change speed', () => {
    expect(reviewShortcut(press(' '))).toEqual({ kind: 'play-pause' });
    expect(reviewShortcut(press('j'))).toEqual({ kind: 'skip', seconds: -5 });
    expect(reviewShortcut(press('L'))).toEqual({ kind: 'skip', seconds: 5 });
    expect(reviewShortcut(press('['))).toEqual({ kind: 'speed', step: -1 });
    expect(reviewShortcut(press(']', { inField: true }))).toBeNull();
  });
  it("↓ and ↑ go to the next and the previous segment; Enter on a control reached with Tab stays the control's", () => {
    expect(reviewShortcut(press('ArrowDown'))).toEqual({ kind: 'segment', delta: 1 });
    expect(reviewShortcut(press('ArrowUp', { repeat: true }))).toEqual({ kind: 'segment', delta: -1 });
    expect(reviewShortcut(press('ArrowDown', { inField: true }))).toBeNull();
    expect(reviewShortcut(press('Enter', { onControl: 'button' }))).toBeNull();
  });
  it('speed steps stay within 0.5–2×', () => {
    expect(stepRate(1, 1)).toBe(1.25);
    expect(stepRate(2, 1)).toBe(2);
    expect(stepRate(0.5, -1)).toBe(0.5);
    expect(stepRate(0.75, -1)).toBe(0.5);
    expect(stepRate(3, -1)).toBe(0.75);
  });
});
