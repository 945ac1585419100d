import { spawn } from 'node:child_process';
import { cp, mkdtemp } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');

const portOpen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/** Whether any process of the group is alive (signal 0 only checks). */
const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (await condition()) return true;
  return condition();
}

describe.skipIf(process.platform === 'win32')('npm run aloud -- serve under a supervisor', () => {
  // SIGTERM to npm alone, as a supervisor sends it; SIGINT to the whole group, as Ctrl-C in a terminal sends it (a
  // shell that gets SIGINT alone waits for its child, as POSIX shells do, so npm alone is no test of ours)
  it.each([
    ['SIGTERM', 'npm'],
    ['SIGINT', 'group'],
  ] as const)(
    '%s to the %s stops the server with it: the port closes and no process of its group is left',
    async (signal, target) => {
      const project = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-launcher-')), 'p');
      await cp(path.join(REPO, 'demo-project'), project, { recursive: true });
      // its own process group, as a supervisor starts it: npm, the shell npm starts, and node all in it
      const npm = spawn('npm', ['run', '-s', 'aloud', '--', 'serve', '--project', project, '--port', '0'], {
        cwd: REPO,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const pgid = npm.pid!;
      try {
        let out = '';
        npm.stdout.on('data', (d: Buffer) => (out += d.toString()));
        npm.stderr.resume();
        expect(await until(() => /Open: http:\/\/127\.0\.0\.1:\d+\//.test(out), 120_000), out).toBe(true);
        const port = Number(/Open: http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)![1]);
        expect(await portOpen(port)).toBe(true);
        process.kill(target === 'npm' ? npm.pid! : -pgid, signal);
        expect(await until(async () => !(await portOpen(port)), 15_000), 'the port still answers').toBe(true);
        expect(await until(() => !groupAlive(pgid), 15_000), "a process of the launcher's group is left").toBe(true);
      } finally {
        if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
      }
    },
    180_000,
  );
});

describe('npm start without the Electron binary', () => {
  it('says in one line that the download was skipped and how to run the app in a browser, and exits non-zero', async () => {
    const { execFile } = await import('node:child_process');
    // a binary that is not there, wherever this runs (the electron package honours the override)
    const env = { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: path.join(tmpdir(), 'no-electron-here') };
    const result = await new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
      execFile(process.execPath, [path.join(REPO, 'scripts/electron-check.mjs')], { cwd: REPO, env }, (error, stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
      );
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^aloud: the Electron binary is not installed \(its download was skipped\).*`npm run -s aloud -- serve` runs the app in a browser/,
      ),
    ]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
