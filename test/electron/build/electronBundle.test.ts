import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkEngineProcess } from '../../../core/node/engine/engineProcessHost';
import { whisperAddonPath } from '../../../core/node/engine/whisperAddon';
import { FOR_TESTS_MODEL } from '../../../bench/benchAssets';
import { initProject } from '../../../core/node/project/projectFolder';
import { buildElectron } from '../../../scripts/build-electron.mjs';
import { CONTENT_SECURITY_POLICY } from '../../../core/common/contract/securityHeaders';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../../..');
const HARNESS = path.join(REPO, 'test/electron/harness');

let work: string;
let outDir: string;
let built: Awaited<ReturnType<typeof buildElectron>>;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'aloud-electron-build-'));
  outDir = path.join(work, 'out', 'electron');
  built = await buildElectron({ outDir });
});
afterAll(() => rm(work, { recursive: true, force: true }));

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => path.join(e.parentPath, e.name));
}

const isBuiltin = (name: string) => name.startsWith('node:') || builtinModules.includes(name);

describe('scripts/build-electron.mjs', () => {
  it('writes main.js, preload.cjs and engineProcess.js', () => {
    expect(built.outputs).toEqual({
      main: path.join(outDir, 'main.js'),
      preload: path.join(outDir, 'preload.cjs'),
      engineProcess: path.join(outDir, 'engineProcess.js'),
    });
    for (const file of Object.values(built.outputs)) expect(existsSync(file), file).toBe(true);
    expect(built.inputs.main).toEqual(
      expect.arrayContaining(['electron/main/main.ts', 'electron/policy/permissions.ts', 'core/node/app/appService.ts']),
    );
    expect(built.inputs.engineProcess).toContain('core/node/engine/engineProcess.ts');
    expect(built.inputs.main).toContain('electron/main/engineLauncher.ts');
    // the process side imports nothing of the host side (no launcher, supervisor or client in aloud-engine), and the
    // benches' worker-thread engine is in neither bundle
    expect(built.inputs.engineProcess.filter((file) => /engineProcessHost|engineSupervisor|engineClient/.test(file))).toEqual([]);
    expect([...built.inputs.main, ...built.inputs.engineProcess].filter((file) => /engineWorker|^bench\//.test(file))).toEqual([]);
  });

  it('runs as a command that lists what it wrote', async () => {
    const cliOut = path.join(work, 'cli-out');
    const { stdout } = await run(process.execPath, [path.join(REPO, 'scripts/build-electron.mjs'), '--out', cliOut], { cwd: work });
    for (const name of ['main.js', 'preload.cjs', 'engineProcess.js']) {
      expect(stdout).toContain(name);
      expect(existsSync(path.join(cliOut, name)), name).toBe(true);
    }
  });

  it('main and the engine process load nothing at run time but electron and Node built-ins', () => {
    expect(built.externals.main).toContain('electron');
    expect(built.externals.main.filter((name) => name !== 'electron' && !isBuiltin(name))).toEqual([]);
    expect(built.externals.engineProcess.filter((name) => !isBuiltin(name))).toEqual([]);
  });

  it('the preload is one CommonJS script that requires electron only and exposes one object', async () => {
    const preload = await readFile(path.join(outDir, 'preload.cjs'), 'utf8');
    expect(built.externals.preload).toEqual(['electron']);
    expect(
      built.inputs.preload.filter((file) => !file.startsWith('electron/preload/') && !file.startsWith('core/common/contract/')),
    ).toEqual([]);
    expect(preload).not.toMatch(/^\s*(import|export)\s/m);
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    expect(preload).toMatch(/exposeInMainWorld\(\s*["']aloudBridge["']/);
  });

  it('core modules keep finding repo files from the bundle (import.meta.url rewritten to their source location)', async () => {
    const main = await readFile(path.join(outDir, 'main.js'), 'utf8');
    const relative = path.relative(outDir, path.join(REPO, 'core/node/exportFiles/appVersion.ts')).split(path.sep).join('/');
    expect(main).toContain(`new URL(${JSON.stringify(relative)}, import.meta.url)`);
    // engineProcessHost keeps the bundle's own URL: it finds the engineProcess.js written beside main.js.
    expect(main).toContain('new URL("./engineProcess.js", import.meta.url)');
  });
});

describe('secure defaults (static check of the shell sources and bundles)', () => {
  const loosened = [
    /nodeIntegration\w*["']?\s*:\s*true/,
    /sandbox["']?\s*:\s*false/,
    /contextIsolation["']?\s*:\s*false/,
    /webSecurity["']?\s*:\s*false/,
    /allowRunningInsecureContent["']?\s*:\s*true/,
    /webviewTag["']?\s*:\s*true/,
    /experimentalFeatures["']?\s*:\s*true/,
    /enableBlinkFeatures/,
    /bypassCSP["']?\s*:\s*true/,
    // ipcRenderer itself handed to the page, alone or inside an object
    /exposeInMainWorld\(\s*["'][^"']*["']\s*,\s*(\{[^}]*\bipcRenderer\b[^}]*\}|ipcRenderer\b)/,
    /'unsafe-eval'|'unsafe-inline'/,
    // the page comes from the app protocol, never from a file
    /\.loadFile\(|loadURL\(\s*[`'"]file:/,
  ];

  it('no shell source or bundle turns a protection off', async () => {
    const files = [...(await sourceFiles(path.join(REPO, 'electron'))), path.join(outDir, 'main.js'), path.join(outDir, 'preload.cjs')];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const code = await readFile(file, 'utf8');
      for (const pattern of loosened) expect(pattern.test(code), `${path.relative(REPO, file)} matches ${pattern}`).toBe(false);
    }
  });

  it('the policy modules and the testable main modules never import electron', async () => {
    const pure = [
      ...(await sourceFiles(path.join(REPO, 'electron/policy'))),
      ...['appRequests', 'ipcCalls', 'startupProject'].map((name) => path.join(REPO, 'electron/main', `${name}.ts`)),
    ];
    for (const file of pure) {
      expect(await readFile(file, 'utf8'), path.relative(REPO, file)).not.toMatch(/from\s+['"]electron['"]/);
    }
  });

  it('every window is created with the secure webPreferences', async () => {
    const main = await readFile(path.join(REPO, 'electron/main/main.ts'), 'utf8');
    expect(main.match(/new BrowserWindow\(/g)).toHaveLength(1);
    expect(main).toMatch(/new BrowserWindow\(\{[^}]*webPreferences: secureWebPreferences\(/);
  });
});

describe('main.js wired to a stand-in Electron (no binary needed)', () => {
  let userData: string;
  let projectA: string;
  let projectB: string;
  let notAProject: string;
  let fakeElectron: string;

  beforeAll(async () => {
    // The bundle sits outside the repo here; it needs the repo's "type": "module" and an 'electron' to import.
    await writeFile(path.join(work, 'package.json'), JSON.stringify({ type: 'module' }));
    const fakeDir = path.join(work, 'node_modules', 'electron');
    await mkdir(fakeDir, { recursive: true });
    await writeFile(path.join(fakeDir, 'package.json'), JSON.stringify({ name: 'electron', type: 'module', main: 'index.mjs' }));
    fakeElectron = path.join(fakeDir, 'index.mjs');
    await copyFile(path.join(HARNESS, 'fakeElectron.mjs'), fakeElectron);
    await mkdir(path.join(work, 'out', 'renderer'), { recursive: true });
    await writeFile(path.join(work, 'out', 'renderer', 'index.html'), '<!doctype html><title>Aloud</title>');

    projectA = path.join(work, 'projects', 'a');
    projectB = path.join(work, 'projects', 'project-b');
    notAProject = path.join(work, 'projects', 'holiday-photos');
    await initProject(projectA, { demo: true });
    await initProject(projectB, { demo: false });
    await mkdir(notAProject, { recursive: true });
    userData = path.join(work, 'user-data');
    await mkdir(userData);
    await writeFile(path.join(userData, 'preferences.json'), JSON.stringify({ last_project: projectA }));
    await mkdir(path.join(work, 'no-models'));
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function drive(scenario: 'run' | 'unbuilt' | 'engine', env: Record<string, string> = {}): Promise<Record<string, any>> {
    const { stdout } = await run(
      process.execPath,
      [path.join(HARNESS, 'driveMain.mjs'), path.join(outDir, 'main.js'), fakeElectron, scenario],
      {
        cwd: work,
        env: {
          ...process.env,
          FAKE_ELECTRON_USER_DATA: userData,
          PROJECT_B: projectB,
          NOT_A_PROJECT: notAProject,
          ALOUD_MODELS_DIR: path.join(work, 'no-models'),
          ...env,
        },
        timeout: 120_000,
      },
    );
    return JSON.parse(stdout.trim().split('\n').at(-1)!);
  }

  it('registers the scheme, the sandbox and IPC before ready; loads the page with every guard in place; quits after closing the session', async () => {
    const report = await drive('run');

    expect(report.beforeReady).toEqual({
      privilegedSchemes: [{ scheme: 'aloud', privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }],
      sandboxEnabled: true,
      ipcChannels: ['aloud:call'],
    });
    expect(report.window.loadedUrl).toBe('aloud://app/index.html');
    expect(report.window.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    });
    expect(report.window.webPreferences.preload).toBe(path.join(outDir, 'preload.cjs'));
    expect(report.messages).toEqual([]);

    expect(report.page).toEqual({ status: 200, csp: CONTENT_SECURITY_POLICY, body: '<!doctype html><title>Aloud</title>' });
    expect(report.traversal).toBe(403);

    expect(report.permissionRequests).toEqual({
      microphone: true,
      camera: false,
      microphoneFromSubFrame: false,
      microphoneFromRemote: false,
      notifications: false,
      geolocation: false,
    });
    expect(report.permissionChecks).toEqual({ microphone: true, camera: false, remote: false, clipboard: false });
    expect(report.devicePermission).toBe(false);
    expect(report.cancelled).toEqual({ remote: true, app: false });
    expect(report.spellChecker).toBe(false);
    expect(report.download).toEqual({ handled: true, prevented: true });
    expect(report.navigationPrevented).toEqual({ remote: true, file: true, reload: false, subFrame: true, redirect: true, webview: true });
    expect(report.windowOpen).toEqual({ action: 'deny' });

    // The last project from preferences, over IPC; untrusted senders refused.
    expect(report.ipc.project).toMatchObject({ ok: true, result: { name: 'politeness-demo' } });
    expect(report.ipc.fromSubFrame).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(report.ipc.fromStranger).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(report.ipc.appInfo).toMatchObject({ ok: true, result: { mode: 'electron' } });
    expect(report.ipc.commitLabel).toMatchObject({ ok: true });
    expect(report.ipc.exportSession).toMatchObject({ ok: true, result: { records: 20 } });
    expect(path.dirname(report.ipc.exportSession.result.file)).toBe(path.join(projectA, 'exports'));
    expect(report.events.every(([channel]: [string]) => channel === 'aloud:event')).toBe(true);
    expect(report.events.some(([, event]: [string, { type: string }]) => event.type === 'item')).toBe(true);

    expect(report.revealed).toEqual([report.ipc.exportSession.result.file]);
    expect(report.lockA.whileOpen).toBe(true);
    expect(report.notAProject.message).toMatchObject({ type: 'error' });
    expect(report.notAProject.message.detail).toContain(path.join(notAProject, 'aloud.yaml'));
    expect(report.notAProject).toMatchObject({ reloads: 0, project: 'politeness-demo' });
    expect(report.switched).toEqual({
      project: 'project-b',
      lockAReleased: true,
      preferences: expect.objectContaining({ last_project: projectB }),
    });

    expect(report.quit).toEqual({ lockBeforeQuit: true, completedImmediately: false, lockAfterQuit: false, requests: 2 });
  });

  it.skipIf(!existsSync(whisperAddonPath()) || !existsSync(FOR_TESTS_MODEL))(
    'runs whisper.cpp in a utility process titled aloud-engine; a SIGSEGV there restarts it and tells the page, and the app records on',
    { timeout: 180_000 },
    async () => {
      const engineUserData = path.join(work, 'user-data-engine');
      const engineProject = path.join(work, 'projects', 'engine');
      const models = path.join(work, 'models-engine');
      await initProject(engineProject, { demo: true });
      await mkdir(engineUserData, { recursive: true });
      await writeFile(path.join(engineUserData, 'preferences.json'), JSON.stringify({ last_project: engineProject }));
      await mkdir(models, { recursive: true });
      // the demo project's model is tiny.en: the vocab-only test model under that name (unverified, loadable)
      await copyFile(FOR_TESTS_MODEL, path.join(models, 'ggml-tiny.en.bin'));

      const report = await drive('engine', { FAKE_ELECTRON_USER_DATA: engineUserData, ALOUD_MODELS_DIR: models });

      expect(report.appInfo.engine).toMatchObject({ available: true, problem: null });
      expect(report.utilityProcesses).toHaveLength(2);
      for (const p of report.utilityProcesses)
        expect(p).toMatchObject({ module: 'engineProcess.js', title: 'aloud-engine', serviceName: 'aloud-engine' });
      const [first, second] = report.utilityProcesses;
      expect(report.engineEvents).toEqual([
        {
          type: 'engine',
          state: 'crashed',
          message: `the engine process ${first.pid} stopped: killed by SIGSEGV (segmentation fault); restarting it with tiny.en`,
        },
        { type: 'engine', state: 'restarted', message: `transcription restarted (process ${second.pid}, restart 1) with tiny.en` },
      ]);
      expect(report.afterRestart).toBe(true);
      // quitting closed the session and with it the engine process
      expect(report.secondAlive).toBe(false);
    },
  );

  it('without a built renderer it says how to build and exits', async () => {
    await rename(path.join(work, 'out', 'renderer'), path.join(work, 'out', 'renderer-away'));
    try {
      const report = await drive('unbuilt');
      expect(report.exitCode).toBe(1);
      expect(report.windows).toBe(0);
      expect(report.errorBoxes).toHaveLength(1);
      expect(report.errorBoxes[0].content).toContain('npm run build');
      expect(report.errorBoxes[0].content).toContain(path.join(work, 'out', 'renderer', 'index.html'));
    } finally {
      await rename(path.join(work, 'out', 'renderer-away'), path.join(work, 'out', 'renderer'));
    }
  });
});

describe.skipIf(!existsSync(whisperAddonPath()))('the bundled engine process', () => {
  it('starts as its own process titled aloud-engine, loads the whisper binding from the bundle and refuses a file that is not a model', async () => {
    const handle = forkEngineProcess({ warmUp: false }, { script: path.join(outDir, 'engineProcess.js'), args: [] });
    try {
      const info = await handle.engine.info();
      expect(info.whisper_cpp).toMatch(/\d/);
      expect(info.model).toBeNull();
      expect(info.process).toMatchObject({ pid: handle.pid, title: 'aloud-engine' });
      await expect(handle.engine.load(path.join(REPO, 'package.json'))).rejects.toMatchObject({ code: 'model_invalid' });
    } finally {
      await handle.engine.close();
    }
    expect((await handle.exited).description).toBe('exited with code 0');
  });
});
