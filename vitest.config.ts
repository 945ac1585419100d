import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Pure and Node tests run in the node environment; browser behaviour is tested in real Chromium.
    environment: 'node',
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // generated models and clips are made once before the suites, never inside a test's timeout
    // every temporary folder under one folder of this run, removed at its end (test/setup/runTempFolder.ts)
    globalSetup: ['test/setup/runTempFolder.ts', 'test/setup/testAssets.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
