/**
 * Vitest global setup: every temporary folder the tests make (os.tmpdir(), mkdtemp, Chromium's profiles) goes under one
 * folder of this run, removed when the run ends, so no run leaves its projects, sessions and recordings behind in /tmp
 * and no test can find what an earlier run left there (the E2E screenshots excepted). Workers start after this and inherit
 * TMPDIR.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const before = process.env.TMPDIR;
  const runDir = mkdtempSync(path.join(tmpdir(), 'aloud-test-run-'));
  // the E2E screenshots are for a person to look at after the run: they stay where they always were
  process.env.ALOUD_SCREENSHOTS ??= path.join(tmpdir(), 'aloud-e2e-screenshots');
  process.env.TMPDIR = runDir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    // keep it for a look when asked (ALOUD_KEEP_TEST_TMP=1)
    if (!process.env.ALOUD_KEEP_TEST_TMP) rmSync(runDir, { recursive: true, force: true });
  };
}
