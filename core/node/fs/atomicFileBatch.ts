import { randomBytes } from 'node:crypto';
import { closeSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { syncFolder } from './atomicFile';

/** How many fsyncs run at once: the file system commits them together, so a batch costs about one commit. */
const PARALLEL_SYNCS = 16;
const BATCH_FILES = 256;

/**
 * Many small files written as writeFileAtomic writes one (a temporary name, fsync, rename, fsync of the folder),
 * but in batches: the files of a batch are written, then synced together, then renamed, then each folder synced once.
 * Thousands of transcript files cost seconds instead of a minute of one fsync after another. Every file is whole or
 * absent after a crash; a file is in place only once `flush` (or the add that filled a batch) has resolved.
 */
export class AtomicFileBatch {
  private pending: Array<{ temp: string; target: string }> = [];
  /** temporary names: random once per batch, then counted ('wx' refuses a name that exists all the same) */
  private readonly tempTag = `${process.pid}.${randomBytes(4).toString('hex')}`;
  private added = 0;

  async add(target: string, data: string | Uint8Array): Promise<void> {
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.${this.tempTag}.${this.added++}.tmp`);
    // a small file in one blocking write: a round trip through the thread pool per call costs more than the write
    const fd = openSync(temp, 'wx');
    try {
      writeFileSync(fd, data);
    } catch (e) {
      closeSync(fd);
      await unlink(temp).catch(() => undefined);
      throw e;
    }
    closeSync(fd);
    this.pending.push({ temp, target });
    if (this.pending.length >= BATCH_FILES) await this.flush();
  }

  /** Syncs, renames into place and makes durable every file added so far. */
  async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(PARALLEL_SYNCS, batch.length) }, async () => {
          while (next < batch.length) {
            const { temp } = batch[next++]!;
            const handle = await open(temp, 'r+');
            try {
              await handle.sync();
            } finally {
              await handle.close();
            }
          }
        }),
      );
      for (const { temp, target } of batch) renameSync(temp, target);
    } catch (e) {
      for (const { temp } of batch) await unlink(temp).catch(() => undefined);
      throw e;
    }
    for (const folder of new Set(batch.map((f) => path.dirname(f.target)))) await syncFolder(folder);
  }

  /** Removes what was added but not flushed (the export failed). */
  async abandon(): Promise<void> {
    for (const { temp } of this.pending) await unlink(temp).catch(() => undefined);
    this.pending = [];
  }
}
