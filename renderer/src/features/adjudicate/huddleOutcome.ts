import type { IntlShape } from 'react-intl';
import type { HuddleOutcomeView } from '../../../../core/common/adjudication/adjudicationApi';
import { Refusal } from '../../../../core/common/refusal/refusal';
import { refusalText } from '../../shared/refusalText';

/** Why a huddle's item was not decided, in the interface's language (a host without `why` sent only its English). */
export function undecidedWords(outcome: HuddleOutcomeView['outcomes'][number], intl: IntlShape): string {
  if (outcome.why === 'no_majority') return intl.formatMessage({ id: 'adjudicate.huddle.why.noMajority' });
  if (outcome.why === 'not_revealed') return intl.formatMessage({ id: 'adjudicate.huddle.why.notRevealed' });
  return refusalText(intl, new Refusal('conflict', outcome.reason ?? '', outcome.say));
}
