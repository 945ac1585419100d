import { renderToStaticMarkup } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import type { LabelDef } from '../../../core/common/parser/parseTypes';
import { examplePhrase, shortcutList } from '../../../renderer/src/features/label/labelKeys';
import { ShortcutTable } from '../../../renderer/src/shared/Dialogs';
import { appCatalogs } from '../../../renderer/src/app/appCatalogs';

const labels: LabelDef[] = [{ name: 'Polite', key: '1', synonyms: {} }];
const render = (locale: 'en' | 'de') =>
  renderToStaticMarkup(
    <IntlProvider locale={locale} messages={appCatalogs[locale]}>
      <ShortcutTable shortcuts={[...shortcutList(labels), { keys: ['Shift+R'], what: 'An older list in words' }]} />
    </IntlProvider>,
  );

describe('the shortcut help in the interface language', () => {
  it('English: the keys as the keyboard names them and what they do', () => {
    const html = render('en');
    expect(html).toContain('<kbd>Space</kbd>');
    expect(html).toContain('<kbd>Ctrl+G</kbd>');
    expect(html).toContain('Start or stop recording');
    expect(html).toContain('Label “Polite”');
  });

  it('German: key names of a German keyboard, descriptions from the catalog; a list in words stays as written', () => {
    const html = render('de');
    expect(html).toContain('<kbd>Leertaste</kbd>');
    expect(html).toContain('<kbd>Strg+G</kbd>');
    expect(html).toContain('<kbd>Umschalt+R</kbd>');
    expect(html).toContain('Aufnahme starten oder beenden');
    expect(html).toContain('Label „Polite“ vergeben');
    expect(html).not.toContain('Start or stop recording');
    expect(html).toContain('An older list in words');
  });
});

describe('the spoken example follows the language the project listens to, not the interface', () => {
  it('English when the project listens to English (also beside German), German when only to German', () => {
    expect(examplePhrase(['en'], 'polite')).toBe('I label this polite');
    expect(examplePhrase(['en', 'de'], 'polite')).toBe('I label this polite');
    expect(examplePhrase(['de'], 'höflich')).toBe('Ich wähle höflich');
  });
});
