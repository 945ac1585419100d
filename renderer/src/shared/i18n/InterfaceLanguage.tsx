/**
 * The interface language: the person's choice (kept in this profile's localStorage, like her microphone) or the
 * system's (navigator.languages, which Electron fills from the OS). Everything below reads messages from react-intl.
 */
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import {
  pickInterfaceLocale,
  isInterfaceLocale,
  type InterfaceLanguageChoice,
  type InterfaceLocale,
} from '../../../../core/common/i18n/interfaceLocale';

export const LANGUAGE_KEY = 'aloud.interfaceLanguage';

interface LanguageContext {
  locale: InterfaceLocale;
  choice: InterfaceLanguageChoice;
  /** the language the system alone would give */
  systemLocale: InterfaceLocale;
  choose(choice: InterfaceLanguageChoice): void;
}

const Language = createContext<LanguageContext | null>(null);

function storedChoice(): InterfaceLanguageChoice {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  return isInterfaceLocale(stored) ? stored : 'system';
}

/** catalogs: every message by language (the shell composes them: app/appCatalogs.ts) */
export function InterfaceLanguageProvider({
  catalogs,
  children,
}: {
  catalogs: Readonly<Record<InterfaceLocale, Record<string, string>>>;
  children: ReactNode;
}) {
  const [choice, setChoice] = useState<InterfaceLanguageChoice>(storedChoice);
  const systemLocale = pickInterfaceLocale(null, navigator.languages ?? [navigator.language]);
  const locale = choice === 'system' ? systemLocale : choice;
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const value = useMemo<LanguageContext>(
    () => ({
      locale,
      choice,
      systemLocale,
      choose(next) {
        if (next === 'system') localStorage.removeItem(LANGUAGE_KEY);
        else localStorage.setItem(LANGUAGE_KEY, next);
        setChoice(next);
      },
    }),
    [locale, choice, systemLocale],
  );
  return (
    <Language.Provider value={value}>
      <IntlProvider locale={locale} defaultLocale="en" messages={catalogs[locale]}>
        {children}
      </IntlProvider>
    </Language.Provider>
  );
}

export function useInterfaceLanguage(): LanguageContext {
  const context = useContext(Language);
  // i18n-ignore: a developer's mistake, never shown to a person
  if (!context) throw new Error('useInterfaceLanguage outside InterfaceLanguageProvider');
  return context;
}
