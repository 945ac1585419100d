import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { syncFolder } from '../fs/atomicFile';

/** Hidden folders an export fills inside its target folder; a crashed export's is cleared by the next export there. */
const STAGING_PREFIX = '.aloud-export-staging-';

const thisHost = (): string => hostname().replace(/[^A-Za-z0-9-]/g, '_');

/** Whether a process of this host with that id is still running (EPERM: it runs as someone else). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Staging folders in `outDir` left by exports of this host that are no longer running (a crash, a kill). */
async function clearStaleStagings(outDir: string): Promise<void> {
  const prefix = `${STAGING_PREFIX}${thisHost()}-`;
  for (const name of await readdir(outDir)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && !isRunning(pid))
      await rm(path.join(outDir, name), { recursive: true, force: true });
  }
}

/**
 * An export folder's files made one document at a time without any reaching the folder before all are made and
 * checked: each is written (and fsynced) into a hidden folder inside `outDir`; `commit` renames them into place
 * (same file system, each folder fsynced once); `discard` removes them, and `outDir` too when the export made it.
 */
export class ExportStaging {
  private constructor(
    readonly outDir: string,
    readonly dir: string,
    private readonly madeOutDir: boolean,
  ) {}

  static async open(outDir: string): Promise<ExportStaging> {
    const existed = await stat(outDir).then(
      () => true,
      () => false,
    );
    await mkdir(outDir, { recursive: true });
    await clearStaleStagings(outDir);
    const dir = path.join(outDir, `${STAGING_PREFIX}${thisHost()}-${process.pid}-${randomBytes(4).toString('hex')}`);
    await mkdir(dir);
    return new ExportStaging(outDir, dir, !existed);
  }

  /** Where the file at `relative` (slash-separated, as a receipt names it) waits to be committed. */
  stagedPath(relative: string): string {
    return path.join(this.dir, ...relative.split('/'));
  }

  /** Writes a file of the export through its handle, fsynced before it counts as made. */
  async writeStreamed<T>(relative: string, write: (handle: FileHandle) => Promise<T>): Promise<T> {
    const target = this.stagedPath(relative);
    await mkdir(path.dirname(target), { recursive: true });
    const handle = await open(target, 'wx');
    try {
      const result = await write(handle);
      await handle.sync();
      return result;
    } finally {
      await handle.close();
    }
  }

  async write(relative: string, bytes: Uint8Array): Promise<void> {
    await this.writeStreamed(relative, (handle) => handle.writeFile(bytes));
  }

  /** Every staged file renamed over its place in `outDir`, in the order given; then the staging folder removed. */
  async commit(relatives: readonly string[]): Promise<void> {
    const folders = new Set<string>();
    for (const relative of relatives) {
      const target = path.join(this.outDir, ...relative.split('/'));
      const folder = path.dirname(target);
      if (!folders.has(folder)) await mkdir(folder, { recursive: true });
      folders.add(folder);
      await rename(this.stagedPath(relative), target);
    }
    for (const folder of folders) await syncFolder(folder);
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Nothing of the export stays: its staged files, and the folder itself when the export made it (and it is empty). */
  async discard(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    if (this.madeOutDir) await rmdir(this.outDir).catch(() => undefined);
  }
}

/**
 * `fn` over every element, at most `limit` at once (fsyncs overlap so the disk can batch them), results in order. After a
 * failure no element is started and every running one is waited for, so nothing writes after the caller cleans up.
 */
export async function mapConcurrently<T, R>(elements: readonly T[], limit: number, fn: (element: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(elements.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < elements.length) {
      const index = next++;
      try {
        results[index] = await fn(elements[index]!);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, elements.length) }, worker));
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  return results;
}
