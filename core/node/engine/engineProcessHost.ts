import { fork } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { EngineClient } from '../../common/engine/engineClient';
import { describeEngineExit, type EngineExit } from '../../common/engine/engineRestartPolicy';
import type { EngineInfo, TranscribeInput, TranscriptionEngine } from '../../common/engine/engineTypes';
import { isPartialRequestId } from '../../common/engine/transcriptionScheduler';
import { type EngineProcessHandle, type EngineSupervisorEvent, type HangBound, SupervisedEngine } from './engineSupervisor';
import { EngineRegistryEntry } from './engineRegistry';
import { enginePortFromChildProcess, enginePortFromUtilityProcess, type UtilityProcessLike } from './nodeEnginePort';
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

/** The last few KB a process wrote to stderr: its last line often says why it died (a GGML_ASSERT, an allocation failure). */
export class StderrTail {
  private text = '';
  constructor(private readonly keep = 4096) {}

  push(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-this.keep);
  }

  toString(): string {
    return this.text;
  }
}

/** Starts one engine process; the default forks it, the desktop app starts an Electron utility process instead. */
export type EngineLauncher = (options: WhisperEngineOptions) => EngineProcessHandle;

/**
 * The engine process's entry: the bundled engineProcess.js beside this file (packaged app, bench dist), else
 * engineProcess.ts through the tsx bootstrap (development, tests, CLI).
 */
export function engineEntry(): { script: string; args: string[] } {
  const compiled = fileURLToPath(new URL('./engineProcess.js', import.meta.url));
  if (existsSync(compiled)) return { script: compiled, args: [] };
  return {
    script: fileURLToPath(new URL('./engineSourceBootstrap.mjs', import.meta.url)),
    args: [new URL('./engineProcess.ts', import.meta.url).href],
  };
}

/** child_process.fork of the engine entry, PCM and replies as V8-serialized binary over the IPC channel. */
export function forkEngineProcess(options: WhisperEngineOptions, entry = engineEntry()): EngineProcessHandle {
  const child = fork(entry.script, [...entry.args, ...engineProcessArgs(options)], {
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    execArgv: [],
  });
  const tail = new StderrTail();
  child.stderr?.on('data', (chunk: Buffer) => {
    tail.push(chunk);
    process.stderr.write(chunk);
  });
  const exited = new Promise<EngineExit>((resolve) => {
    child.on('error', (e) => {
      if (child.pid === undefined) resolve(describeEngineExit(null, null, `could not start: ${e.message}`));
    });
    // after the exit, the rest of stderr is read to its end, so the last line is in the tail ('close' does not come
    // when the host ended the channel itself)
    child.once('exit', (code, signal) => {
      const done = (): void => resolve(describeEngineExit(code, signal, tail.toString()));
      const stderr = child.stderr;
      if (!stderr || stderr.readableEnded || stderr.destroyed) return done();
      stderr.once('close', done);
      setTimeout(done, 1000).unref();
    });
  });
  return {
    engine: new EngineClient(enginePortFromChildProcess(child, exited)),
    pid: child.pid ?? null,
    exited,
    kill: () => void child.kill('SIGKILL'),
  };
}

/** What Electron's app 'child-process-gone' event says about a utility process that ended. */
export interface ProcessGone {
  /** 'clean-exit', 'abnormal-exit', 'killed', 'crashed', 'oom', 'launch-failed', … */
  reason: string;
  /** the exit code, or for a process a signal ended, the signal's number */
  exitCode: number;
}

const SIGNAL_NAMES = new Map<number, string>(Object.entries(constants.signals).map(([name, number]) => [number, name]));

/** An engine utility process's end in the same words as a forked one's: Chromium reports a signal as the exit code. */
export function utilityProcessExit(code: number, gone: ProcessGone | null, stderrTail = ''): EngineExit {
  const signal =
    gone && (gone.reason === 'crashed' || gone.reason === 'killed' || gone.reason === 'oom')
      ? (SIGNAL_NAMES.get(gone.exitCode) ?? null)
      : null;
  return signal ? describeEngineExit(null, signal, stderrTail) : describeEngineExit(gone?.exitCode ?? code, null, stderrTail);
}

/**
 * An engine process started as an Electron utility process (the desktop app): messages structured-cloned by Electron
 * (binary, never JSON). `whyGone` answers Electron's 'child-process-gone' details for it, or null.
 */
export function engineHandleFromUtilityProcess(child: UtilityProcessLike, whyGone: () => Promise<ProcessGone | null>): EngineProcessHandle {
  const tail = new StderrTail();
  child.stderr?.on('data', (chunk: Buffer) => {
    tail.push(chunk);
    process.stderr.write(chunk);
  });
  const exited = new Promise<EngineExit>((resolve) => {
    child.on('exit', (code) => void whyGone().then((gone) => resolve(utilityProcessExit(code, gone, tail.toString()))));
  });
  // Electron's kill() is a SIGTERM, which a stopped (SIGSTOP) process never acts on: SIGKILL our own child first
  const kill = (): void => {
    if (child.pid !== undefined) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    child.kill();
  };
  return { engine: new EngineClient(enginePortFromUtilityProcess(child, exited)), pid: child.pid ?? null, exited, kill };
}

let launcher: EngineLauncher = (options) => forkEngineProcess(options);

/** The desktop shell sets its utility-process launcher once at start; everything else forks. */
export function setEngineLauncher(next: EngineLauncher): void {
  launcher = next;
}

export interface StartEngineProcessOptions extends WhisperEngineOptions {
  /** crashes, restarts and giving up, as they happen (the process is also listed for `aloud doctor`) */
  onEvent?: (event: EngineSupervisorEvent) => void;
  /** the model's name in messages (default: its path) */
  modelName?: string;
  /** tests: another launcher than the host's */
  launch?: EngineLauncher;
  /** when a silent process is taken as hung (default HANG_BOUND) */
  hangBound?: HangBound;
}

/** whisper.cpp in a supervised process of its own: restarted with its model when it dies (engineSupervisor.ts). */
export function startEngineProcess(options: StartEngineProcessOptions = {}): SupervisedEngine {
  const { onEvent, modelName, launch, hangBound, ...engineOptions } = options;
  const start = launch ?? launcher;
  const registry = new EngineRegistryEntry();
  return new SupervisedEngine(() => start(engineOptions), {
    ...(onEvent ? { onEvent } : {}),
    ...(modelName ? { modelName } : {}),
    ...(hangBound ? { hangBound } : {}),
    onSupervision: (supervision) => registry.update(supervision),
  });
}

/** `engine` with some of its methods replaced. */
function engineWith(engine: TranscriptionEngine, replaced: Partial<TranscriptionEngine>): TranscriptionEngine {
  return {
    load: (modelPath) => engine.load(modelPath),
    transcribe: (input) => engine.transcribe(input),
    encode: (pcm, audioCtx) => engine.encode(pcm, audioCtx),
    abort: () => engine.abort(),
    info: () => engine.info(),
    close: () => engine.close(),
    ...replaced,
  };
}

/** The engine process's own info, added to every load() and info() answer: pid, title and resident memory. */
export function withProcessInfo(engine: TranscriptionEngine): TranscriptionEngine {
  const withProcess = (info: EngineInfo): EngineInfo => ({
    ...info,
    process: { pid: process.pid, title: process.title, rss_bytes: process.memoryUsage.rss() },
  });
  return engineWith(engine, {
    load: async (modelPath) => withProcess(await engine.load(modelPath)),
    info: async () => withProcess(await engine.info()),
  });
}

/**
 * The crash test hook (ENGINE_CRASH_FILE_ENV) around an engine; without the variable the engine is returned as is.
 * The file names where the process raises SIGSEGV next: `load`, `transcribe` (any job) or `transcribe-final` (the next
 * job that is not a partial, so the job that dies is one the session waits for).
 */
export function withCrashHook(engine: TranscriptionEngine, env: NodeJS.ProcessEnv = process.env): TranscriptionEngine {
  const file = env[ENGINE_CRASH_FILE_ENV];
  if (!file) return engine;
  const crashAt = (point: 'load' | 'transcribe', input?: TranscribeInput): void => {
    let said: string;
    try {
      said = readFileSync(file, 'utf8').trim();
    } catch {
      return;
    }
    const final = point === 'transcribe' && !isPartialRequestId(input?.identity?.request_id ?? '');
    if (said !== point && !(said === 'transcribe-final' && final)) return;
    rmSync(file, { force: true });
    process.kill(process.pid, 'SIGSEGV');
  };
  return engineWith(engine, {
    load: (modelPath) => {
      crashAt('load');
      return engine.load(modelPath);
    },
    transcribe: (input) => {
      crashAt('transcribe', input);
      return engine.transcribe(input);
    },
  });
}
