import type { IntlShape } from 'react-intl';

/** A coefficient or probability as the figures are printed (three decimals), in the interface's locale. */
export const figure = (intl: IntlShape, x: number, digits = 3): string =>
  intl.formatNumber(x, { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A 95% interval "[0.712, 0.891]" ("[0,712; 0,891]" where the comma is the decimal sign). */
export const intervalText = (intl: IntlShape, ci: readonly [number, number]): string =>
  intl.formatMessage({ id: 'agreement.interval' }, { low: figure(intl, ci[0]), high: figure(intl, ci[1]) });

/** "95%" ("95 %" in German): the intervals' level. */
export const levelText = (intl: IntlShape, level = 0.95): string => intl.formatNumber(level, { style: 'percent' });
