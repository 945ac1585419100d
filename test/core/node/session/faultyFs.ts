import { nodeDurableFs, type DurableFile, type DurableFs } from '../../../../core/node/fs/durableFile';

/**
 * A DurableFs that behaves like a disk with `budget` bytes of free space left (counted over writes that grow
 * files matching `affects`): the write that would exceed it writes what fits and then fails with ENOSPC.
 * `failOpen` makes opening matching files fail with the given code (a read-only folder: EROFS).
 */
export function faultyFs(options: {
  budget?: number;
  affects?: (path: string) => boolean;
  failOpen?: string;
}): DurableFs & { setBudget(bytes: number): void } {
  let budget = options.budget ?? Infinity;
  const affects = options.affects ?? (() => true);
  const fail = (code: string): Error => Object.assign(new Error(`${code}: injected`), { code });
  return {
    setBudget(bytes: number) {
      budget = bytes;
    },
    async open(path, flags) {
      if (options.failOpen && affects(path) && flags !== 'r') throw fail(options.failOpen);
      const file = await nodeDurableFs.open(path, flags);
      if (!affects(path)) return file;
      const wrapped: DurableFile = {
        read: (b, o, l, p) => file.read(b, o, l, p),
        sync: () => file.sync(),
        truncate: (l) => file.truncate(l),
        stat: () => file.stat(),
        close: () => file.close(),
        async write(buffer, offset, length, position) {
          const { size } = await file.stat();
          const growth = Math.max(0, position + length - size);
          if (growth <= budget) {
            budget -= growth;
            return file.write(buffer, offset, length, position);
          }
          const fits = Math.max(0, length - (growth - budget));
          if (fits > 0) await file.write(buffer, offset, fits, position);
          budget = 0;
          throw fail('ENOSPC');
        },
      };
      return wrapped;
    },
  };
}
