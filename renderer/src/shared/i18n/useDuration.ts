import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import { formatDuration } from '../../../../core/common/i18n/duration';

/** A duration in the interface's locale ("12,4 s" in German). */
export function useFormatDuration(): (ms: number) => string {
  const { locale } = useIntl();
  return useCallback((ms: number) => formatDuration(ms, locale), [locale]);
}

/** A position in a recording as a clock, "1:03.2" ("1:03,2" in German): minutes, then seconds to a tenth. */
export function useFormatClock(): (ms: number) => string {
  const intl = useIntl();
  return useCallback(
    (ms: number) => {
      const totalTenths = Math.max(0, Math.floor(ms / 100));
      const seconds = intl.formatNumber((totalTenths % 600) / 10, {
        minimumIntegerDigits: 2,
        minimumFractionDigits: 1,
        maximumFractionDigits: 1,
      });
      return `${Math.floor(totalTenths / 600)}:${seconds}`;
    },
    [intl],
  );
}
