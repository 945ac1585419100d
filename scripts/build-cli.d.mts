/** out/cli/aloud.mjs: the compiled CLI. */
export declare const CLI_BUNDLE: string;
export declare const CLI_OUT_DIR: string;
/** Whether the bundle in outDir (default out/cli) is missing or older than a source it was built from. */
export declare function cliBundleIsStale(options?: { outDir?: string }): boolean;
/** Builds aloud.mjs (split by command into chunks) and engineProcess.js into outDir, then their stamp. */
export declare function buildCliBundle(options?: {
  outDir?: string;
  logLevel?: 'silent' | 'error' | 'warning' | 'info';
}): Promise<{ bundle: string; engineProcess: string; inputs: number }>;
/** out/cli/aloud.mjs, compiled first when stale. */
export declare function ensureCliBundle(options?: { quiet?: boolean }): Promise<string>;
