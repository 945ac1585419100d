/** A mistake in how the CLI was called or in a file it was given: exit 2 with one line. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** stderr is a terminal: long work may draw a progress line there */
  terminal?: boolean;
}

export interface CliCommand {
  name: string;
  /** the one-line summary is in the command table (core/node/cli/main.ts), so --help loads no command */
  usage: string;
  /** Returns the exit code. Throws UsageError for bad arguments or files. */
  run: (argv: string[], io: CliIo) => Promise<number>;
}

/** Runs node:util parseArgs (called strict by the command) with its errors turned into one-line UsageErrors. */
export function withUsageErrors<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0] ?? String(e));
  }
}

export function requireOption(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`missing required option ${flag}`);
  return value;
}

export function printJson(io: CliIo, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}
