import { Refusal } from '../../common/contract/refusal';

/** A mistake in how the CLI was called or in a file it was given: exit 2 with one line. */
export class UsageError extends Refusal {
  override name = 'UsageError';
  constructor(message: string) {
    super('bad_request', message);
  }
}

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  /** Returns the exit code. Throws a Refusal (UsageError for bad arguments) for what a person can act on: cli/main maps its code to the exit. */
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
