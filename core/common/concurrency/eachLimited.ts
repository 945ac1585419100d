/**
 * Runs `work` on every value with at most `limit` at a time, in order of start; rejects with the first failure after
 * the started ones settle (none is left running behind the caller's back).
 */
export async function eachLimited<T>(values: Iterable<T>, limit: number, work: (value: T) => Promise<void>): Promise<void> {
  const queue = [...values];
  let failure: { error: unknown } | null = null;
  const lane = async (): Promise<void> => {
    while (failure === null && queue.length > 0) {
      const value = queue.shift()!;
      try {
        await work(value);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, queue.length)) }, lane));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
