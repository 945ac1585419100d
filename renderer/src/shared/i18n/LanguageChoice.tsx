import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { INTERFACE_LOCALES, type InterfaceLanguageChoice } from '../../../../core/common/i18n/interfaceLocale';
import { useInterfaceLanguage } from './InterfaceLanguage';

/** The interface language select (Settings, and the start screen before any project is open). */
/** headingId: a heading that names the select already (no second visible label) */
export function LanguageChoice({ headingId }: { headingId?: string }) {
  const intl = useIntl();
  const { choice, systemLocale, choose } = useInterfaceLanguage();
  const id = useId();
  const hint = `${id}-hint`;
  return (
    <div className="language-choice">
      {headingId ? null : (
        <>
          <label htmlFor={id}>
            <FormattedMessage id="app.settings.language" />
          </label>{' '}
        </>
      )}
      <select
        id={id}
        aria-labelledby={headingId}
        aria-describedby={hint}
        value={choice}
        onChange={(e) => choose(e.target.value as InterfaceLanguageChoice)}
      >
        <option value="system">
          {intl.formatMessage(
            { id: 'common.language.system' },
            { language: intl.formatMessage({ id: `common.language.${systemLocale}` }) },
          )}
        </option>
        {INTERFACE_LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {intl.formatMessage({ id: `common.language.${locale}` })}
          </option>
        ))}
      </select>
      <p id={hint} className="hint">
        <FormattedMessage id="app.settings.language.hint" />
      </p>
    </div>
  );
}
