import { constants } from 'node:fs';
import { lstat, open, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ProjectError } from './projectError';
import { englishRefusal, say, type RefusalMessage } from '../../common/refusal/refusalMessage';

/** Whether `file` lies strictly inside `folder` (both absolute; compared as written, no file system access). */
export function isInsideFolder(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && !path.isAbsolute(relative) && relative.split(path.sep)[0] !== '..';
}

/**
 * A project path that may not be used: outside the folder, through a link that leads out, a link where a file is
 * written, or missing. The message names the file and says what to do; `status` is what an HTTP host answers.
 */
export class ProjectPathError extends ProjectError {
  override name = 'ProjectPathError';
  /** the reason in English */
  readonly reason: string;
  constructor(
    readonly file: string,
    readonly status: 403 | 404,
    /** what is wrong with the path, as a catalog message */
    readonly reasonSaid: RefusalMessage,
    /** a link: add the hint that Aloud reads and writes no project data through links */
    linkHint: boolean,
  ) {
    super(
      linkHint
        ? say('refusal.path.problemWithHint', { file, reason: reasonSaid, hint: say('refusal.path.linkHint') })
        : say('refusal.path.problem', { file, reason: reasonSaid }),
    );
    this.reason = englishRefusal(reasonSaid);
  }
}

/** O_NOFOLLOW where the platform has it (not on Windows, where the lstat check below stands alone). */
export const O_NOFOLLOW: number = constants.O_NOFOLLOW ?? 0;

/** Real path of the nearest existing ancestor of `p`, joined with the rest of `p`. */
export async function realOfNearest(p: string): Promise<string> {
  const missing: string[] = [];
  let at = p;
  for (;;) {
    try {
      return path.join(await realpath(at), ...missing.reverse());
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && (e as NodeJS.ErrnoException).code !== 'ENOTDIR') throw e;
      const parent = path.dirname(at);
      if (parent === at) throw e;
      missing.push(path.basename(at));
      at = parent;
    }
  }
}

/**
 * THE check for every read and write of project files: `candidate` (relative to `folder`, or absolute) must lie inside
 * `folder` by name and, after realpath, inside the folder's real path, so a symlink that leads out is refused like a
 * "..". For `write`, the file itself must not be a link (symbolic, or a hard link shared with another name), so a
 * planted link never redirects a write. Returns the real path to use.
 */
export async function resolveInside(folder: string, candidate: string, mode: 'read' | 'write'): Promise<string> {
  const lexical = path.resolve(folder, candidate);
  if (!isInsideFolder(path.resolve(folder), lexical))
    throw new ProjectPathError(lexical, 403, say('refusal.path.outside', { folder }), false);
  const realFolder = await realpath(folder).catch(() => {
    throw new ProjectPathError(folder, 404, say('refusal.path.folderNotFound'), false);
  });
  if (mode === 'read') {
    let real: string;
    try {
      real = await realpath(lexical);
    } catch {
      throw new ProjectPathError(lexical, 404, say('refusal.path.notFound'), false);
    }
    if (!isInsideFolder(realFolder, real))
      throw new ProjectPathError(lexical, 403, say('refusal.path.linkOutside', { target: real }), true);
    return real;
  }
  const realParent = await realOfNearest(path.dirname(lexical));
  if (realParent !== realFolder && !isInsideFolder(realFolder, realParent)) {
    throw new ProjectPathError(lexical, 403, say('refusal.path.inLinkedFolder', { target: realParent }), true);
  }
  return writableTarget(realParent, path.basename(lexical), lexical);
}

/**
 * A file name in a folder already resolved to its real path (by resolveInside): the path to write, refused when the
 * name is a symbolic or hard link. For many files in one folder, resolve the folder once and call this per file.
 */
export async function writableTarget(realFolder: string, name: string, shownAs: string = path.join(realFolder, name)): Promise<string> {
  const target = path.join(realFolder, name);
  const info = await lstat(target).catch(() => null);
  if (info?.isSymbolicLink()) throw new ProjectPathError(shownAs, 403, say('refusal.path.symlinkWrite'), true);
  if (info?.isFile() && info.nlink > 1)
    throw new ProjectPathError(shownAs, 403, say('refusal.path.hardLink', { names: String(info.nlink) }), true);
  return target;
}

export type FileLookup = { ok: true; file: string; size: number } | { ok: false; status: 403 | 404; reason: string };

/** resolveInside for serving: a regular file inside the folder, or the HTTP status and reason to refuse with. */
export async function resolveFileInside(folder: string, candidate: string): Promise<FileLookup> {
  try {
    const file = await resolveInside(folder, candidate, 'read');
    const info = await stat(file);
    if (!info.isFile()) return { ok: false, status: 404, reason: 'not a file' };
    return { ok: true, file, size: info.size };
  } catch (e) {
    // The reason, not the message: a refusal sent to a page does not spell out the real path.
    if (e instanceof ProjectPathError)
      return { ok: false, status: e.status, reason: e.status === 404 ? 'not found' : 'leads outside the folder' };
    return { ok: false, status: 404, reason: 'not found' };
  }
}

const FLAGS = {
  r: constants.O_RDONLY,
  'r+': constants.O_RDWR,
  'w+': constants.O_RDWR | constants.O_CREAT | constants.O_TRUNC,
  wx: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
  'wx+': constants.O_RDWR | constants.O_CREAT | constants.O_EXCL,
  'a+': constants.O_RDWR | constants.O_CREAT | constants.O_APPEND,
} as const;

/**
 * Opens a file without following a symbolic link in its last component (O_NOFOLLOW), and refuses a hard-linked
 * file opened for writing. A link found here is a ProjectPathError naming the file.
 */
export async function openNoFollow(file: string, flags: keyof typeof FLAGS): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(file, FLAGS[flags] | O_NOFOLLOW, 0o666);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new ProjectPathError(file, 403, say('refusal.path.symlinkOpen'), true);
    throw e;
  }
  if (O_NOFOLLOW === 0 || flags !== 'r') {
    const info = await handle.stat().catch(() => null);
    const linked =
      O_NOFOLLOW === 0
        ? await lstat(file).then(
            (l) => l.isSymbolicLink(),
            () => false,
          )
        : false;
    if (linked || (flags !== 'r' && info !== null && info.nlink > 1)) {
      await handle.close();
      throw new ProjectPathError(
        file,
        403,
        linked ? say('refusal.path.symlinkOpen') : say('refusal.path.hardLink', { names: String(info!.nlink) }),
        true,
      );
    }
  }
  return handle;
}
