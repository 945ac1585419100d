#!/usr/bin/env node
// `npm run aloud -- …`: the compiled CLI (out/cli/aloud.mjs), compiled again first when a source changed since it
// was built (a stamp of sizes and times, checked in milliseconds), so development never runs stale code.
import { pathToFileURL } from 'node:url';
import { ensureCliBundle } from './build-cli.mjs';

// Under `npm run aloud`, npm forwards SIGTERM/SIGINT to the shell it started, and a shell that does not exec us dies
// without passing them on: when our launcher is gone, stop as if signalled (serve closes its session and port).
if (process.env.npm_lifecycle_event === 'aloud') {
  const launcher = process.ppid;
  setInterval(() => {
    if (process.ppid !== launcher) process.kill(process.pid, 'SIGTERM');
  }, 250).unref();
}

let bundle;
try {
  bundle = await ensureCliBundle();
} catch (e) {
  // no compiler at hand (an install without scripts): the same CLI from source, slower to start
  process.stderr.write(
    `aloud: the compiled CLI could not be built (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); running from source\n`,
  );
  const { register } = await import('tsx/esm/api');
  register();
  await import('../core/node/cli/bin.ts');
}
if (bundle) await import(pathToFileURL(bundle).href);
