import { app, utilityProcess } from 'electron';
import { ENGINE_PROCESS_TITLE, engineProcessArgs } from '../../core/node/engine/engineProcessCommandLine';
import { type EngineLauncher, engineHandleFromUtilityProcess, type ProcessGone } from '../../core/node/engine/engineProcessHost';

/** How long after a utility process's 'exit' Electron's 'child-process-gone' (which names the signal) may still come. */
const GONE_GRACE_MS = 500;

/**
 * The desktop app's engine launcher, passed to the app it composes (main.ts): whisper.cpp in an Electron utility
 * process named aloud-engine (entry: the bundled engineProcess.js), so a native fault there ends that process, never the window. Electron reports how a
 * utility process ended in app 'child-process-gone'; each exit takes the report that came with it.
 */
export function utilityProcessEngineLauncher(entry: string): EngineLauncher {
  const reports: Array<{ at: number; gone: ProcessGone }> = [];
  const waiting: Array<(gone: ProcessGone) => void> = [];
  app.on('child-process-gone', (_event, details) => {
    if (details.type !== 'Utility' || details.serviceName !== ENGINE_PROCESS_TITLE) return;
    const gone = { reason: details.reason, exitCode: details.exitCode };
    const next = waiting.shift();
    if (next) next(gone);
    else reports.push({ at: Date.now(), gone });
  });
  const whyGone = (): Promise<ProcessGone | null> => {
    const recent = reports.find((r) => Date.now() - r.at < GONE_GRACE_MS)?.gone ?? null;
    reports.length = 0;
    if (recent) return Promise.resolve(recent);
    return new Promise((resolve) => {
      const take = (gone: ProcessGone | null): void => {
        const at = waiting.indexOf(take);
        if (at >= 0) waiting.splice(at, 1);
        resolve(gone);
      };
      waiting.push(take);
      setTimeout(() => take(null), GONE_GRACE_MS);
    });
  };
  return (options) => {
    const child = utilityProcess.fork(entry, engineProcessArgs(options), {
      serviceName: ENGINE_PROCESS_TITLE,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return engineHandleFromUtilityProcess(child, whyGone);
  };
}
