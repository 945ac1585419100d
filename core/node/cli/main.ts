import { asRefusal, type Refusal } from '../../common/contract/refusal';
import type { CliCommand, CliIo } from './cliSupport';
import { agreementCommand } from './commands/agreement';
import { analyzeCommand } from './commands/analyze';
import { exportCommand } from './commands/export';
import { importCommand } from './commands/import';
import { initCommand } from './commands/init';
import { serveCommand } from './commands/serve';
import { itemsCommand } from './commands/items';
import { validateCommand } from './commands/validate';
import { modelsCommand } from './commands/models';
import { sessionCommand } from './commands/session';
import { doctorCommand } from './commands/doctor';
import { transcribeCommand } from './commands/transcribe';
import { benchCommand } from './commands/bench';
import { roomCommand } from './commands/room';

/** Every CLI command; names and output fields are a contract with pipelines: keep them stable. */
const commands: CliCommand[] = [initCommand, itemsCommand, analyzeCommand, modelsCommand, importCommand, exportCommand, validateCommand, sessionCommand, doctorCommand, transcribeCommand, benchCommand, agreementCommand, roomCommand, serveCommand];

function helpText(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Aloud — think-aloud annotation, offline.',
    '',
    'Usage: npm run -s aloud -- <command> [options]',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run a command with --help for its options.',
    '',
  ].join('\n');
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(helpText());
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`aloud: unknown command "${name}" (try --help)\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`Usage: aloud ${command.usage}\n\n${command.summary}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    // A failed file operation (disk full, read-only, permissions) is the machine's state, not a bug: one line.
    const errno = e as NodeJS.ErrnoException;
    if (errno instanceof Error && typeof errno.code === 'string' && typeof errno.syscall === 'string') {
      io.err(`aloud ${name}: ${errno.message}${errno.code === 'ENOSPC' ? ' (the disk is full; files written before are unchanged)' : ''}\n`);
      return 1;
    }
    const refusal = asRefusal(e);
    if (refusal.code === 'internal') throw e;
    io.err(`aloud ${name}: ${refusal.message.split('\n').join('; ')}\n`);
    return exitOf(refusal);
  }
}

/** The exit status of a refusal: storage that failed (the machine's state) exits 1, anything else a person can act on 2. */
function exitOf(refusal: Refusal): number {
  return refusal.code === 'storage' ? 1 : 2;
}
