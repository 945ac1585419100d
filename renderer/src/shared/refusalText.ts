import type { IntlShape } from 'react-intl';
import { Refusal } from '../../../core/common/refusal/refusal';
import { formatRefusal, type SaidMessage } from '../../../core/common/refusal/refusalMessage';

/**
 * What a refusal says to this person: its catalog message in the interface language when it carries one the app
 * knows (a newer host may send an id this build lacks), else its English message as before.
 */
export function refusalText(intl: IntlShape, e: unknown): string {
  const said = e instanceof Refusal && e.say ? formatRefusal(intl, e.say) : null;
  return said ?? (e instanceof Error ? e.message : String(e));
}

/** A host's words that are not a refusal (a model's problem, a file's problem): the catalog message when the app knows it, else the English. */
export function saidText(intl: IntlShape, said: SaidMessage | null | undefined, english: string): string {
  return (said ? formatRefusal(intl, said) : null) ?? english;
}
