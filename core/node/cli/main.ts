import { asRefusal, type Refusal } from '../../common/refusal/refusal';
import type { CliCommand, CliIo } from './cliSupport';

/** A command by name and summary; its module is loaded only when it runs, so `--help` and each command load only what they use. */
export interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<CliCommand>;
}

/** Every CLI command; names and output fields are a contract with pipelines: keep them stable. docs/cli.md is rendered from it (npm run docs:cli). */
export const commands: readonly CommandEntry[] = [
  {
    name: 'init',
    summary: 'Create a project folder (with --demo, a copy of the demo project).',
    load: async () => (await import('./commands/init')).initCommand,
  },
  {
    name: 'items',
    summary: "List a project's items (the demo project when --project is not given).",
    load: async () => (await import('./commands/items')).itemsCommand,
  },
  {
    name: 'analyze',
    summary: 'Commit phrases and hesitation signals of one transcript (and its audio).',
    load: async () => (await import('./commands/analyze')).analyzeCommand,
  },
  {
    name: 'models',
    summary: 'Whisper models: list what is known and installed, download (checksummed, resumable), import a local file, verify.',
    load: async () => (await import('./commands/models')).modelsCommand,
  },
  {
    name: 'import',
    summary: 'Import items or a conversation export into a project, all or nothing (conversation gaps go to imports/); or a QDA codebook.',
    load: async () => (await import('./commands/import')).importCommand,
  },
  {
    name: 'export',
    summary: 'Export labelled sessions (jsonl|json|csv, validated, with a receipt) or transcripts (txt|srt|vtt).',
    load: async () => (await import('./commands/export')).exportCommand,
  },
  {
    name: 'validate',
    summary: 'Check an export and its receipt through every stage; prints a JSON list of problems.',
    load: async () => (await import('./commands/validate')).validateCommand,
  },
  {
    name: 'session',
    summary:
      "Feed a WAV through the recorder's pipeline (ingest), print an annotator's folded session (show), re-derive labels with the current config (reparse), transcribe recorded audio later (transcribe), carry a session between laptops (pack, unpack), list the units of coding (units).",
    load: async () => (await import('./commands/session')).sessionCommand,
  },
  {
    name: 'doctor',
    summary:
      'Check the whisper.cpp engine: binding, version, SIMD features and what this machine does not allow, the engine process (pid, memory, restarts), threads, and the models present and verified; with --project, a synced project folder.',
    load: async () => (await import('./commands/doctor')).doctorCommand,
  },
  {
    name: 'transcribe',
    summary: 'Transcribe a WAV file with whisper.cpp (verbatim: the disfluent prompt keeps fillers; text exactly as returned).',
    load: async () => (await import('./commands/transcribe')).transcribeCommand,
  },
  {
    name: 'bench',
    summary: 'Measure the engine: per-utterance latency (model loaded once, in the engine process), 30 s encode, real-time factor, memory.',
    load: async () => (await import('./commands/bench')).benchCommand,
  },
  {
    name: 'agreement',
    summary: "Krippendorff's alpha between annotators on first (blind) and final labels, with bootstrap intervals.",
    load: async () => (await import('./commands/agreement')).agreementCommand,
  },
  {
    name: 'gold',
    summary:
      "Labels with error bars: each item's label and probability (95% interval), annotator competence and confusion, confused label pairs, and which label model (majority, Dawid–Skene, MACE, difficulty) fits best on held-out labels.",
    load: async () => (await import('./commands/gold')).goldCommand,
  },
  {
    name: 'adjudicate',
    summary:
      "Settle disagreements into gold labels: the queue, decisions in the adjudicator's own log (revisable), assigning an item to a third annotator, huddles.",
    load: async () => (await import('./commands/adjudicate')).adjudicateCommand,
  },
  {
    name: 'guidelines',
    summary:
      "The guideline history: every version of the labels' and codes' definitions, examples and counter-examples the logs recorded, what changed, and the adjudication flags against each; export it as JSON.",
    load: async () => (await import('./commands/guidelines')).guidelinesCommand,
  },
  {
    name: 'room',
    summary:
      'Norming rooms (blind votes, reveal, discussion, live agreement) and shadow rooms (trainees watch an expert live and practise); members join from a browser.',
    load: async () => (await import('./commands/room')).roomCommand,
  },
  {
    name: 'serve',
    summary:
      'Browser mode: the app on http://127.0.0.1 (same API as the desktop app), until Ctrl-C. Without --project: your own copy of the demo.',
    load: async () => (await import('./commands/serve')).serveCommand,
  },
];

/** What `aloud --help` prints. */
export function helpText(): string {
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
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.err(`aloud: unknown command "${name}" (try --help)\n`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(commandHelpText(entry, command));
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    // A failed file operation (disk full, read-only, permissions) is the machine's state, not a bug: one line.
    const errno = e as NodeJS.ErrnoException;
    if (errno instanceof Error && typeof errno.code === 'string' && typeof errno.syscall === 'string') {
      io.err(
        `aloud ${name}: ${errno.message}${errno.code === 'ENOSPC' ? ' (the disk is full; files written before are unchanged)' : ''}\n`,
      );
      return 1;
    }
    const refusal = asRefusal(e);
    if (refusal.code === 'internal') throw e;
    io.err(`aloud ${name}: ${refusal.message.split('\n').join('; ')}\n`);
    return exitOf(refusal);
  }
}

/** What `aloud <command> --help` prints. */
export function commandHelpText(entry: CommandEntry, command: CliCommand): string {
  return `Usage: aloud ${command.usage}\n\n${entry.summary}\n`;
}

/** The exit status of a refusal: storage that failed (the machine's state) exits 1, anything else a person can act on 2. */
function exitOf(refusal: Refusal): number {
  return refusal.code === 'storage' ? 1 : 2;
}
