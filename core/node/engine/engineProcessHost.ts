// The host side of the engine process (the parent): starts it through a launcher, supervises it (engineSupervisor.ts)
// and talks the engine protocol to it. The process side is engineProcessServer.ts; neither imports the other.
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { EngineClient } from '../../common/engine/engineClient';
import { describeEngineExit, type EngineExit } from '../../common/engine/engineRestartPolicy';
import { type EngineProcessHandle, type EngineSupervisorEvent, type HangBound, SupervisedEngine } from './engineSupervisor';
import { engineProcessArgs } from './engineProcessCommandLine';
import { EngineRegistryEntry } from './engineRegistry';
import { enginePortFromChildProcess, enginePortFromUtilityProcess, type UtilityProcessLike } from './nodeEnginePort';
import type { WhisperEngineOptions } from './whisperEngine';

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

/**
 * Starts one engine process. Whoever composes the app passes one in: the CLI and browser mode fork
 * (forkEngineLauncher), the desktop app starts an Electron utility process (electron/main/engineLauncher.ts).
 */
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

/** The launcher of the CLI, browser mode and tests: each engine process forked from the engine entry (engineEntry). */
export const forkEngineLauncher: EngineLauncher = (options) => forkEngineProcess(options);

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

export interface StartEngineProcessOptions extends WhisperEngineOptions {
  /** starts each engine process (the first and every restart): forkEngineLauncher, or the desktop app's utility process */
  launch: EngineLauncher;
  /** crashes, restarts and giving up, as they happen (the process is also listed for `aloud doctor`) */
  onEvent?: (event: EngineSupervisorEvent) => void;
  /** the model's name in messages (default: its path) */
  modelName?: string;
  /** when a silent process is taken as hung (default HANG_BOUND) */
  hangBound?: HangBound;
}

/** whisper.cpp in a supervised process of its own, started by `launch`: restarted with its model when it dies (engineSupervisor.ts). */
export function startEngineProcess(options: StartEngineProcessOptions): SupervisedEngine {
  const { onEvent, modelName, launch, hangBound, ...engineOptions } = options;
  const registry = new EngineRegistryEntry();
  return new SupervisedEngine(() => launch(engineOptions), {
    ...(onEvent ? { onEvent } : {}),
    ...(modelName ? { modelName } : {}),
    ...(hangBound ? { hangBound } : {}),
    onSupervision: (supervision) => registry.update(supervision),
  });
}
