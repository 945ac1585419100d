import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fuseProblems, REQUIRED_FUSES } from '../../../electron/policy/fuses';

const REPO = path.resolve(import.meta.dirname, '../../..');

describe('Electron fuses in electron-builder.yml', () => {
  it('the packaging config sets every required fuse and keeps asar on', async () => {
    const config: unknown = parse(await readFile(path.join(REPO, 'electron-builder.yml'), 'utf8'));
    expect(fuseProblems(config)).toEqual([]);
    expect((config as { electronFuses: Record<string, boolean> }).electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('the shell never relies on ELECTRON_RUN_AS_NODE (runAsNode off would break child_process.fork in main)', async () => {
    for (const file of ['electron/main/main.ts', 'electron/main/ipcCalls.ts']) {
      expect(await readFile(path.join(REPO, file), 'utf8'), file).not.toMatch(/\bfork\(|ELECTRON_RUN_AS_NODE/);
    }
    // the desktop app's engine launcher starts a utility process, never a forked Node child
    const launcher = await readFile(path.join(REPO, 'electron/main/engineLauncher.ts'), 'utf8');
    expect(launcher).toMatch(/utilityProcess\.fork\(/);
    expect(launcher).not.toMatch(/child_process|ELECTRON_RUN_AS_NODE/);
  });

  it.each(Object.keys(REQUIRED_FUSES))('reports %s left at its default or flipped', (name) => {
    const good = Object.fromEntries(Object.entries(REQUIRED_FUSES).map(([k, v]) => [k, v.value]));
    const { [name]: _dropped, ...missing } = good;
    expect(fuseProblems({ electronFuses: missing })).toEqual([
      expect.stringContaining(`electronFuses.${name}: must be ${REQUIRED_FUSES[name]!.value}`),
    ]);
    expect(fuseProblems({ electronFuses: { ...good, [name]: !REQUIRED_FUSES[name]!.value } })).toHaveLength(1);
  });
});
