/**
 * Threads for the next whisper.cpp job from how busy the machine is *without us*. ggml's threads meet at a
 * barrier after every operation, so one thread that the OS parks behind another process stalls them all:
 * on 2 cores beside one CPU-bound process, 2 threads run several times slower than 1.
 */
export interface CpuSample {
  /** cumulative busy and total CPU time over all cores (ms) */
  busyMs: number;
  totalMs: number;
  /** cumulative CPU time of this process (ms), engine threads included */
  ownMs: number;
}

export interface ThreadChoiceOptions {
  cores: number;
  /** the most threads worth using (whisper.cpp gains little beyond 4 for tiny/base) */
  maxThreads: number;
}

/** Cores that other processes kept busy between two samples (0 … cores). */
export function othersBusyCores(before: CpuSample, after: CpuSample, cores: number): number {
  const total = after.totalMs - before.totalMs;
  if (!(total > 0)) return 0;
  const wallPerCore = total / cores;
  const others = after.busyMs - before.busyMs - (after.ownMs - before.ownMs);
  return Math.min(cores, Math.max(0, others / wallPerCore));
}

/** Threads to use: the cores left free by other work (a core counts as free when under 70 % busy), at least 1. */
export function threadsForFreeCores(othersBusy: number, options: ThreadChoiceOptions): number {
  const free = options.cores - othersBusy;
  return Math.max(1, Math.min(options.maxThreads, Math.floor(free + 0.3)));
}
