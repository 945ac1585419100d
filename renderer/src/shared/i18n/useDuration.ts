import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import { formatDuration } from '../../../../core/common/i18n/duration';

/** A duration in the interface's locale ("12,4 s" in German). */
export function useFormatDuration(): (ms: number) => string {
  const { locale } = useIntl();
  return useCallback((ms: number) => formatDuration(ms, locale), [locale]);
}
