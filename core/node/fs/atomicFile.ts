import { randomBytes } from 'node:crypto';
import { type FileHandle, link, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes a file so that readers see either the old content or the complete new one: a temporary name in the
 * same folder, fsync, rename over the target, fsync of the folder. On any failure the temporary file is removed
 * and the target is untouched.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  await writeFileAtomicStreamed(target, (handle) => handle.writeFile(data));
}

/** A temporary name beside `target` (same folder, so the rename stays on one file system), hidden and unique. */
function tempNameFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * writeFileAtomic for content written piece by piece (an archive, a zip): `write` fills the temporary file through
 * its handle; then fsync, rename over the target, fsync of the folder. On any failure the temporary file is removed
 * and the target is untouched.
 */
export async function writeFileAtomicStreamed<T>(target: string, write: (handle: FileHandle) => Promise<T>): Promise<T> {
  const temp = tempNameFor(target);
  const handle = await open(temp, 'wx');
  let result: T;
  try {
    try {
      result = await write(handle);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (e) {
    await unlink(temp).catch(() => undefined);
    throw e;
  }
  await syncFolder(path.dirname(target));
  return result;
}

/** fsync of a file written by someone else (a download, a copy) before it is moved into place. */
export async function fsyncFile(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Moves finished files (each beside its target, on the same file system) over their targets: every file fsynced,
 * renamed, then each folder fsynced once; readers see the old file or the whole new one.
 */
export async function moveAllIntoPlace(moves: ReadonlyArray<{ from: string; to: string }>): Promise<void> {
  for (const { from } of moves) await fsyncFile(from);
  for (const { from, to } of moves) await rename(from, to);
  for (const dir of new Set(moves.map(({ to }) => path.dirname(to)))) await syncFolder(dir);
}

/** moveAllIntoPlace for one file. */
export async function moveIntoPlace(from: string, to: string): Promise<void> {
  await moveAllIntoPlace([{ from, to }]);
}

/** Moves a finished folder (already synced inside) to a name that does not exist yet, durably. */
export async function moveFolderIntoPlace(from: string, to: string): Promise<void> {
  await rename(from, to);
  await syncFolder(path.dirname(to));
}

/**
 * Puts a finished file at `target` without ever replacing an existing one: a hard link fails when the target exists;
 * where links are unsupported, a rename after checking the target is absent. 'exists' leaves both files as they are.
 */
export async function placeWithoutReplacing(from: string, target: string): Promise<'placed' | 'exists'> {
  await fsyncFile(from);
  try {
    await link(from, target);
    await unlink(from);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return 'exists';
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw e;
    if (await stat(target).catch(() => null)) return 'exists';
    await rename(from, target);
  }
  await syncFolder(path.dirname(target));
  return 'placed';
}

/** Makes a rename durable; some platforms cannot fsync a folder, which is not an error there. */
export async function syncFolder(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw e;
  } finally {
    await handle?.close();
  }
}
