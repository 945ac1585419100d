// The engine process's side (title "aloud-engine"): loads whisper.cpp's native addon and answers the host's jobs over
// the channel it was started with. It imports nothing of the host side (engineProcessHost.ts): no launcher, no supervisor.
import { readFileSync, rmSync } from 'node:fs';
import type { EngineInfo, TranscribeInput, TranscriptionEngine } from '../../common/engine/engineTypes';
import { serveEngine } from '../../common/engine/engineService';
import { isPartialRequestId } from '../../common/engine/transcriptionScheduler';
import { ENGINE_CRASH_FILE_ENV, ENGINE_PROCESS_TITLE, engineOptionsFromArgv } from './engineProcessCommandLine';
import { enginePortFromForkParent, enginePortFromParentPort, type ParentPortLike } from './nodeEnginePort';
import { WhisperEngine } from './whisperEngine';

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

/**
 * Serves whisper.cpp from this process: over Electron's utility-process parentPort (the desktop app) or the fork
 * channel (CLI and browser mode). Started by hand, with neither, it says so and sets exit code 2.
 */
export function serveEngineProcess(): void {
  process.title = ENGINE_PROCESS_TITLE;
  // a GGML_ASSERT ends the process at once: ggml would otherwise fork a debugger (gdb, when installed) to print a
  // backtrace first, which takes seconds and can hang under load, and the supervisor would wait on a dying engine
  process.env.GGML_NO_BACKTRACE ??= '1';
  const utilityPort = (process as { parentPort?: ParentPortLike }).parentPort;
  if (!utilityPort && !process.send) {
    process.stderr.write('aloud-engine is started by Aloud (a forked child or an Electron utility process), not by hand\n');
    process.exitCode = 2;
    return;
  }
  // the host's recording path is ours, not a neighbour: it ran in the engine's process when the engine was a thread
  const engine = withProcessInfo(withCrashHook(new WhisperEngine({ ...engineOptionsFromArgv(process.argv), hostIsOwn: true })));
  if (utilityPort) {
    const port = enginePortFromParentPort(utilityPort);
    // after answering 'close' the process ends itself (the reply is posted first)
    serveEngine({ ...port, close: () => void setImmediate(() => process.exit(0)) }, engine);
  } else {
    // the host gone (closed the channel or died) ends the engine: it holds nothing of its own
    process.on('disconnect', () => process.exit(0));
    serveEngine(enginePortFromForkParent(), engine);
  }
}
