// What the engine supervisor (core/node/engine/engineSupervisor.ts) decides when its process dies, kept pure.

/** How an engine process ended: the signal or exit code, in words, with the last line it wrote to stderr. */
export interface EngineExit {
  code: number | null;
  signal: string | null;
  description: string;
}

const SIGNAL_WORDS: Readonly<Record<string, string>> = {
  SIGSEGV: 'segmentation fault',
  SIGILL: 'illegal instruction',
  SIGABRT: 'aborted',
  SIGBUS: 'bus error',
  SIGFPE: 'arithmetic fault',
};

/** "killed by SIGSEGV (segmentation fault)" or "exited with code 3", plus the last line of what it wrote to stderr, if any. */
export function describeEngineExit(code: number | null, signal: string | null, stderrTail = ''): EngineExit {
  const how = signal
    ? `killed by ${signal}${SIGNAL_WORDS[signal] ? ` (${SIGNAL_WORDS[signal]})` : ''}`
    : `exited with code ${code ?? 'unknown'}`;
  const said =
    stderrTail
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .pop() ?? '';
  return { code, signal, description: said ? `${how}; its last words: ${said.slice(0, 300)}` : how };
}

/** Crashes within this window count towards giving up. */
export const CRASH_WINDOW_MS = 60_000;
/** The engine is not restarted after this many crashes within CRASH_WINDOW_MS. */
export const MAX_CRASHES_IN_WINDOW = 3;
/** Wait before restart n (1-based) within the window: 250 ms, then 1 s; longer waits never come (the third crash stops). */
export const RESTART_BACKOFF_MS: readonly number[] = [250, 1000, 4000];

export type RestartDecision = { action: 'restart'; delayMs: number; crashesInWindow: number } | { action: 'stop'; crashesInWindow: number };

/** After a crash at `now` (crash times include it): restart after a backoff, or stop at the third crash in a minute. */
export function decideAfterCrash(crashTimes: readonly number[], now: number): RestartDecision {
  const recent = crashTimes.filter((t) => now - t < CRASH_WINDOW_MS).length;
  if (recent >= MAX_CRASHES_IN_WINDOW) return { action: 'stop', crashesInWindow: recent };
  return { action: 'restart', delayMs: RESTART_BACKOFF_MS[Math.min(recent, RESTART_BACKOFF_MS.length) - 1] ?? 0, crashesInWindow: recent };
}
