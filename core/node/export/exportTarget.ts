import { existsSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInsideFolder } from '../fs/resolveInside';
import { ProjectError } from '../project/projectError';
import { itemsPath, type OpenProject } from '../project/projectFolder';

async function realOrResolved(p: string): Promise<string> {
  const resolved = path.resolve(p);
  // The file may not exist yet: resolve its folder's real path (symlinks) and keep the name.
  const dir = await realpath(path.dirname(resolved)).catch(() => path.dirname(resolved));
  return path.join(dir, path.basename(resolved));
}

const inside = (folder: string, file: string): boolean => file === folder || isInsideFolder(folder, file);

/**
 * Where an export may be written: never over the project's own data (aloud.yaml, the items file, recorded
 * sessions, import records), never over a folder, and over an existing file only when it is an earlier
 * export (its receipt is beside it) or the caller said --force.
 */
export async function checkExportTarget(project: OpenProject, out: string, kind: 'file' | 'folder', options: { force: boolean }): Promise<void> {
  const target = await realOrResolved(out);
  const projectDir = await realpath(project.dir).catch(() => path.resolve(project.dir));
  const protectedFiles = [path.join(projectDir, 'aloud.yaml'), await realOrResolved(itemsPath(project))];
  const protectedFolders = ['sessions', 'imports'].map((f) => path.join(projectDir, f));
  if (protectedFiles.includes(target) || protectedFolders.some((f) => inside(f, target) || (kind === 'folder' && inside(target, f)))) {
    throw new ProjectError(`--out ${out}: that is the project's own data (aloud.yaml, items, sessions or imports); choose another path, e.g. ${path.join(project.dir, 'exports')}`);
  }
  const existing = await stat(target).catch(() => null);
  if (!existing) return;
  if (kind === 'file' && existing.isDirectory()) throw new ProjectError(`--out ${out}: is a folder; give a file name for the export`);
  if (kind === 'folder' && !existing.isDirectory()) throw new ProjectError(`--out ${out}: is a file; transcripts go into a folder`);
  if (kind === 'file' && !options.force && !existsSync(`${target}.receipt.json`)) {
    throw new ProjectError(`--out ${out}: file exists and is not an earlier Aloud export (no receipt beside it); choose another name or pass --force to replace it`);
  }
}
