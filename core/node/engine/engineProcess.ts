// Entry of the engine process (title "aloud-engine"): whisper.cpp, away from the app, served over the fork channel
// (CLI and browser mode; engineProcessHost.ts starts it) or, in the desktop app, Electron's utility-process parentPort.
import { serveEngine } from '../../common/engine/engineService';
import { ENGINE_PROCESS_TITLE, engineOptionsFromArgv, withCrashHook, withProcessInfo } from './engineProcessHost';
import { enginePortFromForkParent, enginePortFromParentPort, type ParentPortLike } from './nodeEnginePort';
import { WhisperEngine } from './whisperEngine';

process.title = ENGINE_PROCESS_TITLE;
// a GGML_ASSERT ends the process at once: ggml would otherwise fork a debugger (gdb, when installed) to print a
// backtrace first, which takes seconds and can hang under load, and the supervisor would wait on a dying engine
process.env.GGML_NO_BACKTRACE ??= '1';
// the host's recording path is ours, not a neighbour: it ran in the engine's process when the engine was a thread
const engine = withProcessInfo(withCrashHook(new WhisperEngine({ ...engineOptionsFromArgv(process.argv), hostIsOwn: true })));
const utilityPort = (process as { parentPort?: ParentPortLike }).parentPort;

if (utilityPort) {
  const port = enginePortFromParentPort(utilityPort);
  // after answering 'close' the process ends itself (the reply is posted first)
  serveEngine({ ...port, close: () => void setImmediate(() => process.exit(0)) }, engine);
} else if (process.send) {
  // the host gone (closed the channel or died) ends the engine: it holds nothing of its own
  process.on('disconnect', () => process.exit(0));
  serveEngine(enginePortFromForkParent(), engine);
} else {
  process.stderr.write('aloud-engine is started by Aloud (a forked child or an Electron utility process), not by hand\n');
  process.exitCode = 2;
}
