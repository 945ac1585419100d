import { describe, expect, it } from 'vitest';
import { spokenFormsOf } from '../../../../core/common/parser/spokenForms';
import { LabelMatcher } from '../../../../core/common/parser/labelMatch';
import type { LabelDef } from '../../../../core/common/parser/parseTypes';
import { politeness } from './parserTestSupport';

const texts = (labels: readonly LabelDef[], languages: string[], label: string, source?: string) =>
  spokenFormsOf(labels, languages)
    .find((l) => l.label === label)!
    .forms.filter((f) => source === undefined || f.source === source)
    .map((f) => f.text);

describe('spokenFormsOf', () => {
  it('lists the name, the synonyms of the active languages and the derived forms, each with its rule', () => {
    const [polite, impolite] = spokenFormsOf(politeness, ['en']);
    expect(polite!.forms).toEqual([
      { text: 'polite', source: 'name', language: null },
      { text: 'courteous', source: 'synonym', language: 'en' },
    ]);
    expect(impolite!.forms).toEqual([
      { text: 'impolite', source: 'name', language: null },
      { text: 'rude', source: 'synonym', language: 'en' },
      { text: 'im polite', source: 'derived', language: null, rule: 'split prefix', from: 'impolite' },
      { text: 'im-polite', source: 'derived', language: null, rule: 'split prefix', from: 'impolite' },
      { text: 'in polite', source: 'derived', language: null, rule: 'split prefix', from: 'impolite' },
      { text: 'in-polite', source: 'derived', language: null, rule: 'split prefix', from: 'impolite' },
    ]);
    expect(texts(politeness, ['de'], 'Impolite', 'derived')).toEqual([
      'im polite',
      'im-polite',
      'in polite',
      'in-polite',
      'un höflich',
      'un-höflich',
    ]);
  });

  it('compounds and spellings', () => {
    const labels: LabelDef[] = [
      { name: 'Not toxic', synonyms: {} },
      { name: 'Well-mannered', synonyms: {} },
      { name: 'Humour', synonyms: {} },
      { name: 'Organized', synonyms: {} },
      { name: 'Gemäß', synonyms: {} },
    ];
    expect(texts(labels, ['en'], 'Not toxic', 'derived')).toEqual(['not-toxic', 'nottoxic']);
    expect(texts(labels, ['en'], 'Well-mannered', 'derived')).toEqual(['well mannered', 'wellmannered']);
    expect(texts(labels, ['en'], 'Humour', 'derived')).toEqual(['humor']);
    expect(texts(labels, ['en'], 'Organized', 'derived')).toEqual(['organised']);
    expect(texts(labels, ['de'], 'Gemäß', 'derived')).toEqual(['gemäss']);
  });

  it('a derived form another label also has is dropped from both, and said so', () => {
    const labels: LabelDef[] = [
      { name: 'Impolite', synonyms: {} },
      { name: 'Inpolite', synonyms: {} },
      { name: 'Unfair', synonyms: { en: ['un fair'] } },
      { name: 'Biased', synonyms: { en: ['un-fair'] } },
    ];
    const forms = spokenFormsOf(labels, ['en']);
    expect(forms[0]!.forms.map((f) => f.text)).not.toContain('in polite');
    expect(forms[0]!.dropped).toContainEqual({ text: 'in polite', rule: 'split prefix', reason: 'also a form of "Inpolite"' });
    // "un fair" is Unfair's own synonym: kept; "un-fair" is Biased's synonym: Unfair's derived "un-fair" is dropped
    expect(forms[2]!.forms.map((f) => f.text)).toEqual(['unfair', 'un fair']);
    expect(forms[2]!.dropped).toContainEqual({ text: 'un-fair', rule: 'split prefix', reason: 'also a form of "Biased"' });
  });

  it('the matcher uses derived forms only when asked (heard speech), and names come first', () => {
    expect(new LabelMatcher(politeness, ['en']).exact(['in', 'polite'], 0)).toBeNull();
    expect(new LabelMatcher(politeness, ['en'], { derivedForms: true }).exact(['in', 'polite'], 0)).toEqual({
      kind: 'label',
      label: 1,
      end: 2,
      via: 'derived',
    });
    expect(new LabelMatcher(politeness, ['en'], { derivedForms: true }).exact(['polite'], 0)).toEqual({
      kind: 'label',
      label: 0,
      end: 1,
      via: 'name',
    });
  });
});
