import { describe, expect, it } from 'vitest';
import type { KeyPress } from '../../../../renderer/src/shared/keyPress';
import { codingShortcut } from '../../../../renderer/src/features/coding/codingKeys';

const codes = [
  { name: 'Doubts', definition: 'unsure', key: 'd' },
  { name: 'Rereads', definition: 'again', key: '1' },
  { name: 'No key', definition: 'x' },
];
const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key,
  repeat: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  inField: false,
  onControl: null,
  ...more,
});

describe("the coding view's keys", () => {
  it("arrows move, a code's key toggles it, Enter finishes, Ctrl/⌘+Z undoes, m, n and ? are the view's own", () => {
    expect(codingShortcut(press('ArrowDown'), codes)).toEqual({ kind: 'unit', delta: 1 });
    expect(codingShortcut(press('ArrowUp', { repeat: true }), codes)).toEqual({ kind: 'unit', delta: -1 });
    expect(codingShortcut(press('PageDown'), codes)).toEqual({ kind: 'protocol', delta: 1 });
    expect(codingShortcut(press('d'), codes)).toEqual({ kind: 'code', code: 'Doubts' });
    expect(codingShortcut(press('1'), codes)).toEqual({ kind: 'code', code: 'Rereads' });
    expect(codingShortcut(press('Enter'), codes)).toEqual({ kind: 'finish' });
    expect(codingShortcut(press('z', { ctrlKey: true }), codes)).toEqual({ kind: 'undo' });
    expect(codingShortcut(press('Z', { metaKey: true }), codes)).toEqual({ kind: 'undo' });
    expect(codingShortcut(press('m'), codes)).toEqual({ kind: 'memo' });
    expect(codingShortcut(press('n'), codes)).toEqual({ kind: 'propose' });
    expect(codingShortcut(press('?'), codes)).toEqual({ kind: 'help' });
  });

  it('a held code key toggles once; keys typed into a field, or Enter on a focused button, are not shortcuts', () => {
    expect(codingShortcut(press('d', { repeat: true }), codes)).toBeNull();
    expect(codingShortcut(press('d', { inField: true }), codes)).toBeNull();
    expect(codingShortcut(press('Enter', { inField: true }), codes)).toBeNull();
    expect(codingShortcut(press('Enter', { onControl: 'button' }), codes)).toBeNull();
    expect(codingShortcut(press('d', { ctrlKey: true }), codes)).toBeNull();
    expect(codingShortcut(press('x'), codes)).toBeNull();
  });
});
