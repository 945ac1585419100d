import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import type { KeyPress } from '../../../../renderer/src/shared/keyPress';
import { codingShortcut, codingShortcutList } from '../../../../renderer/src/features/coding/codingKeys';
import { appCatalogs } from '../../../../renderer/src/app/appCatalogs';

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

describe("the coding view's shortcut list", () => {
  const list = (locale: 'en' | 'de') =>
    codingShortcutList(
      codes,
      createIntl({
        locale,
        messages: appCatalogs[locale],
        onError: (e) => {
          throw e;
        },
      }),
    );

  it("names every key the view answers to, the codebook's keys included", () => {
    const keys = list('en').flatMap((s) => s.keys);
    expect(keys).toEqual(['↓', '↑', 'd', '1', 'Enter', 'Ctrl+Z', '⌘Z', 'm', 'n', 'PgDn', 'PgUp', '?', 'Esc']);
    for (const key of ['d', '1', 'Enter', 'm', 'n', '?']) expect(codingShortcut(press(key), codes), key).not.toBeNull();
  });

  it('is in German for a German interface, with the key names German keyboards print', () => {
    const en = list('en');
    const de = list('de');
    expect(de.map((s) => s.keys.length)).toEqual(en.map((s) => s.keys.length));
    expect(de.flatMap((s) => s.keys)).toEqual(expect.arrayContaining(['Strg+Z', 'Bild↓', 'Bild↑']));
    expect(de.find((s) => s.keys.includes('Enter'))?.what).toBe(
      'Das Item abschließen (jede Einheit hat die Codes, die sie haben soll) und zum nächsten gehen',
    );
    // every line is translated: none is the English one
    de.forEach((line, n) => expect(line.what).not.toBe(en[n]!.what));
  });
});
