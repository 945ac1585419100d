import { parseArgs } from 'node:util';
import { Refusal } from '../../common/refusal/refusal';

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
  /** stderr is a terminal: long work may draw a progress line there */
  terminal?: boolean;
}

export interface CliCommand {
  name: string;
  /** the one-line summary is in the command table (core/node/cli/main.ts), so --help loads no command */
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

/**
 * A command's options, in short: 'string' (a value, or undefined), 'strings' (repeatable), `{ default: '5' }` (a value
 * with a default), `false` (a flag, off unless given).
 */
export type OptionSpec = Readonly<Record<string, 'string' | 'strings' | { readonly default: string } | false>>;

type OptionValues<S extends OptionSpec> = {
  [K in keyof S]: S[K] extends 'string'
    ? string | undefined
    : S[K] extends 'strings'
      ? string[] | undefined
      : S[K] extends false
        ? boolean
        : string;
};

/** Parses a command's arguments strictly (node:util parseArgs); a mistake in them is a one-line UsageError. */
export function parseOptions<const S extends OptionSpec>(
  argv: string[],
  spec: S,
  config: { positionals?: boolean } = {},
): { values: OptionValues<S>; positionals: string[] } {
  const options = Object.fromEntries(
    Object.entries(spec).map(([name, kind]) => [
      name,
      kind === 'string'
        ? { type: 'string' as const }
        : kind === 'strings'
          ? { type: 'string' as const, multiple: true }
          : kind === false
            ? { type: 'boolean' as const, default: false }
            : { type: 'string' as const, default: kind.default },
    ]),
  );
  const { values, positionals } = withUsageErrors(() =>
    parseArgs({ args: argv, strict: true, allowPositionals: config.positionals ?? false, options }),
  );
  return { values: values as OptionValues<S>, positionals };
}

export function requireOption(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`missing required option ${flag}`);
  return value;
}

export function printJson(io: CliIo, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}
