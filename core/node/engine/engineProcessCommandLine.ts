// What both sides of the engine process agree on before any message: its title, its command line and the crash test
// hook's variable. The host (engineProcessHost.ts) writes them, the process (engineProcessServer.ts) reads them.
import type { WhisperEngineOptions } from './whisperEngine';

/** The engine process's title, so that users and scripts find it (`pgrep -f aloud-engine`). */
export const ENGINE_PROCESS_TITLE = 'aloud-engine';

/**
 * Test hook: a file holding "load" or "transcribe". An engine process started with this variable set deletes the
 * file at the next request of that kind and raises SIGSEGV, as a native fault would (the crash tests).
 */
export const ENGINE_CRASH_FILE_ENV = 'ALOUD_ENGINE_TEST_CRASH_FILE';

/** The engine process's command line: its title first (visible before the process renames itself), then its options. */
export function engineProcessArgs(options: WhisperEngineOptions): string[] {
  return [ENGINE_PROCESS_TITLE, JSON.stringify(options)];
}

/** The options an engine process was started with (the argument after its title); none when absent or unreadable. */
export function engineOptionsFromArgv(argv: readonly string[]): WhisperEngineOptions {
  const at = argv.indexOf(ENGINE_PROCESS_TITLE);
  const raw = at >= 0 ? argv[at + 1] : undefined;
  if (!raw) return {};
  const parsed = JSON.parse(raw) as unknown;
  return typeof parsed === 'object' && parsed !== null ? (parsed as WhisperEngineOptions) : {};
}
