import type { IntlShape } from 'react-intl';
import { Refusal } from '../../../core/common/refusal/refusal';
import { formatRefusal } from '../../../core/common/refusal/refusalMessage';

/**
 * What a refusal says to this person: its catalog message in the interface language when it carries one the app
 * knows (a newer host may send an id this build lacks), else its English message as before.
 */
export function refusalText(intl: IntlShape, e: unknown): string {
  const said = e instanceof Refusal && e.say ? formatRefusal(intl, e.say) : null;
  return said ?? (e instanceof Error ? e.message : String(e));
}
