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
