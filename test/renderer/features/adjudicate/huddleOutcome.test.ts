import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { englishRefusal, say } from '../../../../core/common/refusal/refusalMessage';
import { appCatalogs } from '../../../../renderer/src/app/appCatalogs';
import { undecidedWords } from '../../../../renderer/src/features/adjudicate/huddleOutcome';

const en = createIntl({ locale: 'en', messages: appCatalogs.en });
const de = createIntl({ locale: 'de', messages: appCatalogs.de });

describe("why a huddle's item was not decided", () => {
  it('says the English the host wrote, in English', () => {
    expect(
      undecidedWords({ item_id: 'a', label: null, decided: false, reason: 'the room has no majority on it', why: 'no_majority' }, en),
    ).toBe('the room has no majority on it');
    expect(undecidedWords({ item_id: 'a', label: null, decided: false, reason: 'not revealed in the room', why: 'not_revealed' }, en)).toBe(
      'not revealed in the room',
    );
  });

  it('says it in German in German, a refused decision by its refusal message, and falls back to the English reason', () => {
    expect(undecidedWords({ item_id: 'a', label: null, decided: false, reason: 'x', why: 'no_majority' }, de)).toBe(
      'der Raum hat dazu keine Mehrheit',
    );
    expect(undecidedWords({ item_id: 'a', label: null, decided: false, reason: 'x', why: 'not_revealed' }, de)).toBe(
      'im Raum nicht aufgedeckt',
    );
    const refused = say('refusal.rooms.chooseAtLeastOneItem');
    const o = { item_id: 'a', label: 'X', decided: false, reason: englishRefusal(refused), why: 'refused' as const, say: refused };
    expect(undecidedWords(o, en)).toBe(englishRefusal(refused));
    expect(undecidedWords(o, de)).toBe('Wählen Sie mindestens ein Item');
    expect(undecidedWords({ item_id: 'a', label: null, decided: false, reason: 'an older host’s words' }, de)).toBe(
      'an older host’s words',
    );
  });
});
