import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import {
  adjudicationKey,
  adjudicationShortcutList,
  CAUSE_KEYS,
  EMPTY_DRAFT,
  type DecisionDraft,
} from '../../../../renderer/src/features/adjudicate/adjudicationKeys';
import type { KeyPress } from '../../../../renderer/src/shared/keyPress';
import { appCatalogs } from '../../../../renderer/src/app/appCatalogs';

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
const english = createIntl({ locale: 'en', messages: appCatalogs.en });
const german = createIntl({ locale: 'de', messages: appCatalogs.de });
const context = {
  shownLabels: ['Polite', 'Impolite', 'Neutral'],
  labels: ['Polite', 'Impolite', 'Neutral'],
  causes: ['ambiguous text', 'guideline gap', 'annotator error'],
};

/** Presses keys one after another from an empty draft, as the screen does. */
function typed(keys: string[]): DecisionDraft {
  let draft = EMPTY_DRAFT;
  for (const key of keys) {
    const action = adjudicationKey(press(key), draft, context);
    if (action?.kind === 'draft') draft = action.draft;
  }
  return draft;
}

describe('Adjudicate keys', () => {
  it('Shift+M marks, Shift+H sends to a huddle, Shift+O takes its outcome, by place; h, m and o alone keep their meaning', () => {
    const shifted = (code: string, key: string) => adjudicationKey(press(key, { shiftKey: true, code }), EMPTY_DRAFT, context);
    expect(shifted('KeyM', 'M')).toEqual({ kind: 'mark' });
    expect(shifted('KeyH', 'H')).toEqual({ kind: 'huddle' });
    expect(shifted('KeyO', 'O')).toEqual({ kind: 'huddle-outcome' });
    // another layout types something else with Shift: the key's place decides
    expect(shifted('KeyH', 'Ĥ')).toEqual({ kind: 'huddle' });
    expect(adjudicationKey(press('H', { shiftKey: true, code: 'KeyH', repeat: true }), EMPTY_DRAFT, context)).toBeNull();
    expect(adjudicationKey(press('H', { shiftKey: true, code: 'KeyH', inField: true }), EMPTY_DRAFT, context)).toBeNull();
    expect(typed(['h', 'm'])).toEqual({ ...EMPTY_DRAFT, confidence: 'medium' });
    expect(adjudicationKey(press('o', { code: 'KeyO' }), EMPTY_DRAFT, context)).toEqual({ kind: 'to-commit' });
    const listed = adjudicationShortcutList(context.causes, english).flatMap((s) => s.keys);
    expect(listed).toEqual(expect.arrayContaining(['Shift+M', 'Shift+H', 'Shift+O']));
  });

  it('adopt annotator n, pick another label, confidence, causes toggled', () => {
    expect(typed(['2', 'm', 's', 'a', 's'])).toEqual({
      ...EMPTY_DRAFT,
      label: 'Impolite',
      confidence: 'medium',
      causes: ['ambiguous text'],
    });
    expect(typed(['3', 'p']).label).toBe('Polite');
    expect(typed(['p', 'p']).label).toBe('Impolite');
    expect(typed(['9']).label).toBeNull(); // no ninth annotator
    expect(typed(['g']).causes).toEqual([]); // no fifth cause configured
  });

  it('moves, decides, focuses fields; leaves typing and modified keys alone', () => {
    expect(adjudicationKey(press('j'), EMPTY_DRAFT, context)).toEqual({ kind: 'move', delta: 1 });
    expect(adjudicationKey(press('ArrowUp'), EMPTY_DRAFT, context)).toEqual({ kind: 'move', delta: -1 });
    expect(adjudicationKey(press('Enter'), EMPTY_DRAFT, context)).toEqual({ kind: 'decide' });
    expect(adjudicationKey(press('Enter', { onControl: 'button' }), EMPTY_DRAFT, context)).toBeNull();
    expect(adjudicationKey(press('r'), EMPTY_DRAFT, context)).toEqual({ kind: 'focus', field: 'rationale' });
    expect(adjudicationKey(press('h', { inField: true }), EMPTY_DRAFT, context)).toBeNull();
    expect(adjudicationKey(press('1', { ctrlKey: true }), EMPTY_DRAFT, context)).toBeNull();
  });

  it("Shift+digit plays annotator n by the key's place (whatever Shift types), Space the last one, o its commit phrase", () => {
    // US layout types "@" for Shift+2, AZERTY types "2": both are annotator 2, never an adoption
    expect(adjudicationKey(press('@', { shiftKey: true, code: 'Digit2' }), EMPTY_DRAFT, context)).toEqual({ kind: 'play', protocol: 2 });
    expect(adjudicationKey(press('2', { shiftKey: true, code: 'Digit2' }), EMPTY_DRAFT, context)).toEqual({ kind: 'play', protocol: 2 });
    expect(adjudicationKey(press('2', { code: 'Digit2' }), EMPTY_DRAFT, context)).toEqual({
      kind: 'draft',
      draft: { ...EMPTY_DRAFT, label: 'Impolite' },
    });
    expect(adjudicationKey(press('$', { shiftKey: true, code: 'Digit4' }), EMPTY_DRAFT, context)).toBeNull(); // no fourth protocol
    expect(adjudicationKey(press(' '), EMPTY_DRAFT, context)).toEqual({ kind: 'play', protocol: 'current' });
    expect(adjudicationKey(press(' ', { onControl: 'button' }), EMPTY_DRAFT, context)).toBeNull();
    expect(adjudicationKey(press(' ', { repeat: true }), EMPTY_DRAFT, context)).toBeNull();
    expect(adjudicationKey(press('o'), EMPTY_DRAFT, context)).toEqual({ kind: 'to-commit' });
    expect(adjudicationKey(press('o', { inField: true }), EMPTY_DRAFT, context)).toBeNull();
  });

  it('the "?" list names a key no other rule of the screen takes for itself', () => {
    const list = adjudicationShortcutList(context.causes, english);
    const single = list.flatMap((s) => s.keys).filter((k) => k.length === 1 && k !== '…');
    expect(new Set(single).size).toBe(single.length);
    expect(single).not.toContain(CAUSE_KEYS[3]); // three causes configured: the fourth key is not listed
    expect(list.map((s) => s.what)).toContain('Play or pause annotator n’s spoken protocol');
  });

  it('the "?" list speaks the interface language, with the same keys', () => {
    const de = adjudicationShortcutList(context.causes, german);
    expect(de.map((s) => s.what)).toContain('Gesprochenes Protokoll von Annotator n abspielen oder pausieren');
    expect(de.map((s) => s.what)).toContain('Ursache „guideline gap“ an oder aus');
    expect(de.flatMap((s) => s.keys)).toEqual(
      adjudicationShortcutList(context.causes, english).flatMap((s) => (s.keys[0] === 'Space' ? ['Leertaste'] : s.keys)),
    );
  });
});
