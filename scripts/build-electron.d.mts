export declare const REPO_ROOT: string;
export declare const DEFAULT_OUT_DIR: string;

type Bundles<T> = { main: T; preload: T; engineProcess: T };

/** Bundles main, preload and the engine process into outDir (default out/electron). */
export declare function buildElectron(options?: { outDir?: string; logLevel?: 'silent' | 'error' | 'warning' | 'info' }): Promise<{
  outputs: Bundles<string>;
  /** source files in each bundle, relative to the repo */
  inputs: Bundles<string[]>;
  /** modules each bundle still imports at run time */
  externals: Bundles<string[]>;
}>;

/** esbuild plugin: each core module's import.meta.url becomes its source file's location, relative to a bundle in outDir. */
export declare function sourceLocationPlugin(outDir: string): { name: string; setup: (builder: unknown) => void };
/** Banner of an ES module bundle whose CommonJS dependencies call require(). */
export declare const ESM_REQUIRE_BANNER: string;
