import { access, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CONFIG_FILE } from '../../core/node/project/projectFolder';

/**
 * The demo project as a working copy in a writable folder (the shipped one may sit read-only inside the app
 * archive). Copied with plain reads and writes, which Electron's archive support covers; the config is written
 * last, so a copy interrupted half-way is finished on the next start and an existing copy keeps its sessions.
 */
export async function ensureDemoCopy(demoSource: string, workingCopy: string): Promise<string> {
  const configCopy = path.join(workingCopy, CONFIG_FILE);
  if (
    await access(configCopy).then(
      () => true,
      () => false,
    )
  )
    return workingCopy;
  await mkdir(workingCopy, { recursive: true });
  const entries = await readdir(demoSource, { withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || entry.name === CONFIG_FILE) continue;
    const target = path.join(workingCopy, entry.name);
    if (
      await access(target).then(
        () => true,
        () => false,
      )
    )
      continue;
    await writeFile(target, await readFile(path.join(demoSource, entry.name)));
  }
  await writeFile(configCopy, await readFile(path.join(demoSource, CONFIG_FILE)), { flag: 'wx' });
  return workingCopy;
}

export interface StartupChoice<Service> {
  service: Service;
  projectDir: string;
  /** why the last project could not be opened (the demo was opened instead), for a message to the user */
  problem: string | null;
}

/** The last project the user opened, else the demo's working copy. A last project that fails to open is reported, not forgotten. */
export async function openStartupProject<Service>(options: {
  lastProject: string | null;
  demoSource: string;
  demoWorkingCopy: string;
  open: (projectDir: string) => Promise<Service>;
}): Promise<StartupChoice<Service>> {
  let problem: string | null = null;
  if (options.lastProject) {
    try {
      return { service: await options.open(options.lastProject), projectDir: options.lastProject, problem: null };
    } catch (e) {
      problem = `The last project (${options.lastProject}) could not be opened: ${(e as Error).message}. The demo project is open instead.`;
    }
  }
  const demoDir = await ensureDemoCopy(options.demoSource, options.demoWorkingCopy);
  return { service: await options.open(demoDir), projectDir: demoDir, problem };
}
