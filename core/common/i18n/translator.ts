/**
 * Catalog messages outside React (room pages, the HTML agreement report): FormatJS's own formatter, so plurals,
 * numbers and dates follow the same ICU rules as the app's react-intl.
 */
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import type { InterfaceLocale } from './interfaceLocale';

export type Translator = IntlShape<string>;

const cache = createIntlCache();

/** A missing key throws: a string without a catalog entry is a bug the tests must see, never silent English. */
export function createTranslator(locale: InterfaceLocale, messages: Readonly<Record<string, string>>): Translator {
  return createIntl(
    {
      locale,
      messages,
      onError: (e) => {
        throw e;
      },
    },
    cache,
  );
}
