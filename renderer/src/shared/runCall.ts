/** A call of the app API run for a screen: its result, or undefined when it was refused (the refusal has been shown). */
export type RunCall = <T>(task: () => Promise<T>) => Promise<T | undefined>;

/**
 * The one wrapper around calls of the app API: a refusal's message goes to `show` (the app's banner, or a panel's own
 * line), and the caller gets undefined instead of an exception.
 */
export function reportRefusalsTo(show: (message: string) => void): RunCall {
  return async (task) => {
    try {
      return await task();
    } catch (e) {
      show((e as Error).message);
      return undefined;
    }
  };
}
