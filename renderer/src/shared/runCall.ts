import type { IntlShape } from 'react-intl';
import { refusalText } from './refusalText';

/** A call of the app API run for a screen: its result, or undefined when it was refused (the refusal has been shown). */
export type RunCall = <T>(task: () => Promise<T>) => Promise<T | undefined>;

/**
 * The one wrapper around calls of the app API: a refusal's words in the interface language (refusalText) go to `show`
 * (the app's banner, or a panel's own line), and the caller gets undefined instead of an exception. `intl` may be a
 * ref, for a wrapper kept stable across renders that must still speak the language chosen since.
 */
export function reportRefusalsTo(show: (message: string) => void, intl: IntlShape | { readonly current: IntlShape }): RunCall {
  return async (task) => {
    try {
      return await task();
    } catch (e) {
      show(refusalText('current' in intl ? intl.current : intl, e));
      return undefined;
    }
  };
}
