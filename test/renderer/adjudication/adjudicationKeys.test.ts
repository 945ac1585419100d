import { describe, expect, it } from 'vitest';
import { adjudicationKey, EMPTY_DRAFT, type DecisionDraft } from '../../../renderer/src/adjudication/adjudicationKeys';
import type { KeyPress } from '../../../renderer/src/app/shortcuts';

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({ key, repeat: false, ctrlKey: false, metaKey: false, altKey: false, inField: false, onControl: null, ...more });
const context = { shownLabels: ['Polite', 'Impolite', 'Neutral'], labels: ['Polite', 'Impolite', 'Neutral'], causes: ['ambiguous text', 'guideline gap', 'annotator error'] };

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
  it('adopt annotator n, pick another label, confidence, causes toggled', () => {
    expect(typed(['2', 'm', 's', 'a', 's'])).toEqual({ ...EMPTY_DRAFT, label: 'Impolite', confidence: 'medium', causes: ['ambiguous text'] });
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
});
