import type { IntlShape } from 'react-intl';
import { Refusal } from '../../../core/common/refusal/refusal';
import type { AppMessageId } from './i18n/catalogs';

/**
 * What a refusal says to this person: its catalog message in the interface language when it carries one the app
 * knows (a newer host may send an id this build lacks), else its English message as before.
 */
export function refusalText(intl: IntlShape, e: unknown): string {
  if (e instanceof Refusal && e.say && Object.hasOwn(intl.messages, e.say.id)) {
    return intl.formatMessage({ id: e.say.id as AppMessageId }, e.say.values);
  }
  return e instanceof Error ? e.message : String(e);
}
