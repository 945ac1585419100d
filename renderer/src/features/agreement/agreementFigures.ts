import type { IntlShape } from 'react-intl';
import type { ModelFitComparison } from '../../../../core/common/labelModels/heldOutFit';

/** A coefficient or probability as the figures are printed (three decimals), in the interface's locale. */
export const figure = (intl: IntlShape, x: number, digits = 3): string =>
  intl.formatNumber(x, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });

/** A 95% interval "[0.712, 0.891]" ("[0,712; 0,891]" where the comma is the decimal sign). */
export const intervalText = (intl: IntlShape, ci: readonly [number, number]): string =>
  intl.formatMessage({ id: 'agreement.interval' }, { low: figure(intl, ci[0]), high: figure(intl, ci[1]) });

/** "95%" ("95 %" in German): the intervals' level. */
export const levelText = (intl: IntlShape, level = 0.95): string => intl.formatNumber(level, { style: 'percent' });

/**
 * The model comparison in one sentence, in the interface's language: the same sentence as describeModelFit (which the
 * CLI and the report print in English), built from the same scores.
 */
export function modelFitWords(intl: IntlShape, fit: ModelFitComparison): string {
  const ranked = [...fit.scores].sort((a, b) => b.log_likelihood - a.log_likelihood);
  const [best, next] = ranked;
  if (!best) return intl.formatMessage({ id: 'agreement.gold.noFit' });
  const lead = (s: (typeof ranked)[number]): string =>
    s.behind_best_ci95
      ? intl.formatMessage(
          { id: 'agreement.gold.fitLeadInterval' },
          { model: s.model, behind: figure(intl, s.behind_best), level: levelText(intl), interval: intervalText(intl, s.behind_best_ci95) },
        )
      : intl.formatMessage({ id: 'agreement.gold.fitLead' }, { model: s.model, behind: figure(intl, s.behind_best) });
  const majority = ranked.find((s) => s.model === 'majority');
  const values = { best: best.model, perAnnotation: figure(intl, best.per_annotation), folds: fit.folds };
  if (!next) return intl.formatMessage({ id: 'agreement.gold.fit' }, values);
  if (majority && majority !== best && majority !== next)
    return intl.formatMessage({ id: 'agreement.gold.fitBeatsBoth' }, { ...values, next: lead(next), majority: lead(majority) });
  return intl.formatMessage({ id: 'agreement.gold.fitBeats' }, { ...values, next: lead(next) });
}
