import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

it("a test's temporary folders are under this run's own folder (removed when the run ends)", () => {
  expect(path.basename(tmpdir())).toMatch(/^aloud-test-run-/);
});
