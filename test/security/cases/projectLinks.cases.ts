import { link, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { AppService } from '../../../core/node/app/appService';
import { startHttpHost } from '../../../core/node/app/httpHost';
import { encodeWavPcm16 } from '../../../core/node/audio/wavFile';
import { isInsideFolder, ProjectPathError, resolveInside } from '../../../core/node/fs/resolveInside';
import { SessionStore } from '../../../core/node/session/sessionStore';
import { createAppRequestHandler } from '../../../electron/main/appRequests';
import { APP_ORIGIN } from '../../../electron/policy/appOrigin';
import { freshProject, recordedProject, rejection, unchanged } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';

const OUTSIDE_TEXT = 'precious bytes outside the project\n';
const OUTSIDE_WAV = encodeWavPcm16(
  Float32Array.from({ length: 800 }, (_, i) => Math.sin(i / 5) * 0.1),
  16_000,
);

/** Plants `link` → a new file outside the project holding `bytes`; returns that file. */
async function plant(
  root: string,
  linkPath: string,
  bytes: Uint8Array | string,
  kind: 'symlink' | 'hardlink' = 'symlink',
): Promise<string> {
  const target = path.join(root, 'outside', `victim-${path.basename(linkPath)}`);
  await writeFile(target, bytes);
  await rm(linkPath, { force: true });
  await mkdir(path.dirname(linkPath), { recursive: true });
  if (kind === 'symlink') await symlink(target, linkPath);
  else await link(target, linkPath);
  return target;
}

/** Reopening ana's session must refuse, name `named`, and leave `victim` as it was. */
async function reopenRefused(
  project: Awaited<ReturnType<typeof recordedProject>>['project'],
  named: string,
  victim: string,
  bytes: Uint8Array | string,
): Promise<void> {
  const error = await rejection(SessionStore.open({ project, annotator: 'ana' }));
  expect(error).toBeInstanceOf(ProjectPathError);
  expect(error.message).toContain(path.basename(named));
  expect(error.message.split('\n')).toHaveLength(1);
  await unchanged(victim, bytes);
}

/**
 * A planted WAV link: reopening reads no WAV (only a take that may be torn), so it succeeds and touches nothing; the
 * first write, recording the item again, is refused naming the file, and `victim` stays as it was.
 */
async function recordAgainRefused(
  project: Awaited<ReturnType<typeof recordedProject>>['project'],
  named: string,
  victim: string,
  bytes: Uint8Array | string,
): Promise<void> {
  const store = await SessionStore.open({ project, annotator: 'ana' });
  try {
    await unchanged(victim, bytes);
    const error = await rejection(store.audioWriter('demo-01'));
    expect(error).toBeInstanceOf(ProjectPathError);
    expect(error.message).toContain(path.basename(named));
    expect(error.message.split('\n')).toHaveLength(1);
  } finally {
    await store.close();
  }
  await unchanged(victim, bytes);
}

/** Moves a session folder out of the project, links it back, and expects reopening to refuse and leave `file` in it as it was. */
async function folderMovedOutAndLinked(
  project: Awaited<ReturnType<typeof recordedProject>>['project'],
  root: string,
  folder: string,
  file: string,
): Promise<void> {
  const elsewhere = path.join(root, 'outside', path.basename(folder));
  await rename(folder, elsewhere);
  await symlink(elsewhere, folder);
  await reopenRefused(project, folder, path.join(elsewhere, file), await readFile(path.join(elsewhere, file)));
}

const sessionCases: Array<HostileCase<null>> = [
  {
    name: 'a session whose WAV is a symlink to a small file outside: reopening reads nothing, recording the item again is refused, the file is not overwritten with a WAV header',
    async run() {
      const { project, root, wav } = await recordedProject();
      const victim = await plant(root, wav, OUTSIDE_TEXT);
      await recordAgainRefused(project, wav, victim, OUTSIDE_TEXT);
    },
  },
  {
    name: 'a session whose WAV is a symlink to a WAV outside: recording the item again is refused, no audio appended or header patched',
    async run() {
      const { project, root, wav } = await recordedProject();
      const victim = await plant(root, wav, OUTSIDE_WAV);
      await recordAgainRefused(project, wav, victim, OUTSIDE_WAV);
    },
  },
  {
    name: 'a WAV that is a hard link to a file outside: recording the item again is refused (a write would land in both names)',
    async run() {
      const { project, root, wav } = await recordedProject();
      const victim = await plant(root, wav, OUTSIDE_WAV, 'hardlink');
      await recordAgainRefused(project, wav, victim, OUTSIDE_WAV);
    },
  },
  {
    name: 'a WAV that is a symlink to another WAV inside the project: still refused for writing when the item records again',
    async run() {
      const { project, wav } = await recordedProject();
      const other = path.join(project.dir, 'other.wav');
      await rename(wav, other);
      await symlink(other, wav);
      const before = await readFile(other);
      await recordAgainRefused(project, wav, other, before);
    },
  },
  {
    name: 'the audio folder is a symlink to a folder outside: refused before any write',
    async run() {
      const { project, root, wav } = await recordedProject();
      await folderMovedOutAndLinked(project, root, path.dirname(wav), 'demo-01.wav');
    },
  },
  {
    name: "the annotator's session folder is a symlink to a folder outside: refused, its log untouched",
    async run() {
      const { project, root } = await recordedProject();
      await folderMovedOutAndLinked(project, root, path.join(project.dir, 'sessions', 'ana'), 'events.jsonl');
    },
  },
  {
    name: 'the sessions folder is a symlink to a folder outside: a new session is refused and nothing is created there',
    async run() {
      const { project, root } = await freshProject();
      const elsewhere = path.join(root, 'outside', 'sessions');
      await mkdir(elsewhere);
      await symlink(elsewhere, path.join(project.dir, 'sessions'));
      const error = await rejection(SessionStore.open({ project, annotator: 'ben' }));
      expect(error).toBeInstanceOf(ProjectPathError);
      expect(error.message).toContain('sessions');
      expect(await import('node:fs/promises').then((fs) => fs.readdir(elsewhere))).toEqual([]);
    },
  },
  {
    name: 'events.jsonl is a symlink to a file outside: refused (O_NOFOLLOW), the file is not appended to',
    async run() {
      const { project, root } = await recordedProject();
      const events = path.join(project.dir, 'sessions', 'ana', 'events.jsonl');
      const victim = await plant(root, events, await readFile(events));
      const bytes = await readFile(victim);
      await reopenRefused(project, events, victim, bytes);
    },
  },
  {
    name: 'a WAV planted as a symlink before the first recording of an item: the recording refuses, the target is untouched',
    async run() {
      const { project, root } = await freshProject();
      const planted = path.join(project.dir, 'sessions', 'ana', 'audio', 'demo-02.wav');
      const victim = await plant(root, planted, OUTSIDE_TEXT);
      const store = await SessionStore.open({ project, annotator: 'ana' });
      try {
        const error = await rejection(store.audioWriter('demo-02'));
        expect(error.message).toContain('demo-02.wav');
        await unchanged(victim, OUTSIDE_TEXT);
      } finally {
        await store.close();
      }
    },
  },
  {
    name: 'the exports folder of the app is a symlink outside: the export is refused, nothing is written there',
    async run() {
      const { project, root } = await freshProject();
      const elsewhere = path.join(root, 'outside', 'exports');
      await mkdir(elsewhere);
      await symlink(elsewhere, path.join(project.dir, 'exports'));
      const app = await AppService.open({ projectDir: project.dir, mode: 'browser', openEngine: null });
      try {
        await app.openSession('ana');
        const error = await rejection(app.exportSession('csv'));
        expect(error.message).toContain('exports');
        expect(await import('node:fs/promises').then((fs) => fs.readdir(elsewhere))).toEqual([]);
      } finally {
        await app.close();
      }
    },
  },
];

const serveCases: Array<HostileCase<null>> = [
  {
    name: "browser mode's /api/item-audio does not serve a session WAV that is a symlink to a file outside (403)",
    async run() {
      const { project, root, wav } = await recordedProject();
      const app = await AppService.open({ projectDir: project.dir, mode: 'browser', openEngine: null });
      await app.openSession('ana');
      await plant(root, wav, OUTSIDE_TEXT);
      const rendererDir = path.join(root, 'renderer');
      await mkdir(rendererDir);
      await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html>');
      const host = await startHttpHost({ app, rendererDir });
      try {
        const res = await fetch(`${host.origin}/api/item-audio/demo-01`, { headers: { cookie: `aloud_token_${host.port}=${host.token}` } });
        expect(res.status).toBe(403);
        expect(await res.text()).not.toContain('precious');
      } finally {
        await host.close();
        await app.close();
      }
    },
  },
  {
    name: "the desktop app's aloud://app/item-audio does not serve a WAV linked from outside (403)",
    async run() {
      const { project, root, wav } = await recordedProject();
      await plant(root, wav, OUTSIDE_TEXT);
      const handle = createAppRequestHandler({
        appOrigin: APP_ORIGIN,
        rendererRoot: path.join(root, 'none'),
        itemAudio: () => ({ file: wav, projectDir: project.dir }),
        protocolAudio: async () => ({ ok: false, status: 404, reason: 'no recording' }),
      });
      const res = await handle(new Request(`${APP_ORIGIN}/item-audio/demo-01`));
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain('precious');
    },
  },
];

const HELPER_CASES: Array<[string, (root: string, project: string) => Promise<[string, 'read' | 'write']>, number]> = [
  ['"../" out of the project', async () => ['../outside/x', 'read'], 403],
  ['an absolute path elsewhere', async () => ['/etc/passwd', 'read'], 403],
  ['the project folder itself', async () => ['.', 'write'], 403],
  ['a sibling folder sharing the prefix (project-evil)', async (root) => [path.join(root, 'project-evil', 'x'), 'read'], 403],
  ['a missing file (read)', async () => ['nothing-here.wav', 'read'], 404],
  [
    'a symlink inside pointing out (read)',
    async (root, project) => {
      await writeFile(path.join(root, 'outside', 'secret'), 's');
      await symlink(path.join(root, 'outside', 'secret'), path.join(project, 'link-out'));
      return ['link-out', 'read'];
    },
    403,
  ],
  [
    'a symlink inside pointing inside (write)',
    async (_root, project) => {
      await writeFile(path.join(project, 'real.txt'), 'x');
      await symlink(path.join(project, 'real.txt'), path.join(project, 'link-in'));
      return ['link-in', 'write'];
    },
    403,
  ],
  [
    'a dangling symlink (write)',
    async (_root, project) => {
      await symlink('/nonexistent/aloud-target', path.join(project, 'dangling'));
      return ['dangling', 'write'];
    },
    403,
  ],
  [
    'a new file below a linked folder (write)',
    async (root, project) => {
      await mkdir(path.join(root, 'outside', 'dir'));
      await symlink(path.join(root, 'outside', 'dir'), path.join(project, 'linked-dir'));
      return [path.join('linked-dir', 'deeper', 'new.wav'), 'write'];
    },
    403,
  ],
];

const helperCases: Array<HostileCase<null>> = HELPER_CASES.map(([what, arrange, status]) => ({
  name: `resolveInside refuses ${what} with ${status}, naming the file`,
  async run() {
    const { project, root } = await freshProject();
    const [candidate, mode] = await arrange(root, project.dir);
    const error = await rejection(resolveInside(project.dir, candidate, mode));
    expect(error).toBeInstanceOf(ProjectPathError);
    expect((error as ProjectPathError).status).toBe(status);
    expect(error.message).toContain(candidate === '.' ? 'project' : path.basename(candidate));
  },
}));

helperCases.push({
  name: 'isInsideFolder: prefix look-alikes and the folder itself are not inside',
  run() {
    expect(isInsideFolder('/p/project', '/p/project-evil/x')).toBe(false);
    expect(isInsideFolder('/p/project', '/p/project')).toBe(false);
    expect(isInsideFolder('/p/project', '/p/project/a/../../x')).toBe(false);
    expect(isInsideFolder('/p/project', '/p/project/a')).toBe(true);
  },
});

export const projectLinkGroup = hostileGroup<null>({
  surface: 'files',
  area: 'links planted in a project (symlinks, hard links, linked folders)',
  setup: () => null,
  cases: [...sessionCases, ...serveCases, ...helperCases],
});
