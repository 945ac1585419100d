import { defaultRecentFile } from '../../core/node/projects/projectsPanel';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, protocol, shell } from 'electron';
import type { ExportSummary } from '../../core/common/export/exportApi';
import type { PathKind } from '../../core/common/project/projectApi';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../core/common/contract/transportNames';
import { AppService } from '../../core/node/app/appService';
import type { PreferencesStore } from '../../core/node/preferences/preferences';
import { DEMO_PROJECT_DIR } from '../../core/node/project/projectFolder';
import { APP_ORIGIN, APP_SCHEME } from '../policy/appOrigin';
import { CHOOSE_PATH_DIALOGS } from '../policy/pathDialogs';
import { secureWebPreferences } from '../policy/windowOptions';
import { installAppMenu } from './appMenu';
import { createAppRequestHandler } from './appRequests';
import { handleIpcCall } from './ipcCalls';
import { openAppPreferences } from './preferencesStore';
import { guardSession, guardWebContents } from './sessionGuards';
import { utilityProcessEngineLauncher } from './engineLauncher';
import { openStartupProject } from './startupProject';

// Layout of the bundle (scripts/build-electron.mjs): out/electron/{main.js,preload.cjs,engineProcess.js}, out/renderer/.
const BUNDLE_DIR = path.dirname(fileURLToPath(import.meta.url));
const RENDERER_ROOT = path.resolve(BUNDLE_DIR, '../renderer');
const PRELOAD_FILE = path.join(BUNDLE_DIR, 'preload.cjs');
const ENGINE_PROCESS_FILE = path.join(BUNDLE_DIR, 'engineProcess.js');
const APP_PAGE = `${APP_ORIGIN}/index.html`;
const DEV_TOOLS = !app.isPackaged;

// Both must happen before 'ready'.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
]);
app.enableSandbox();

let mainWindow: BrowserWindow | null = null;
let service: AppService | null = null;
let stopForwarding: (() => void) | null = null;
let lastExport: string | null = null;
let shutdown: 'running' | 'closing' | 'closed' = 'running';
let preferences: PreferencesStore | null = null;

function useService(next: AppService): void {
  stopForwarding?.();
  service = next;
  stopForwarding = next.subscribe((event) => {
    if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(IPC_EVENT_CHANNEL, event);
  });
}

/** The Project screen's native dialogs: main shows them, the host validates what was picked like a typed path. */
async function choosePath(kind: PathKind): Promise<string | null> {
  if (!mainWindow) return null;
  const picked = await dialog.showOpenDialog(mainWindow, { ...CHOOSE_PATH_DIALOGS[kind] });
  return picked.canceled ? null : (picked.filePaths[0] ?? null);
}

// whisper.cpp runs in a utility process: a native fault there restarts the engine, never the window
const engineLauncher = utilityProcessEngineLauncher(ENGINE_PROCESS_FILE);

const openService = (projectDir: string): Promise<AppService> =>
  AppService.open({ projectDir, mode: 'electron', recentFile: defaultRecentFile(), choosePath, engineLauncher });

function tell(type: 'warning' | 'error', message: string, detail: string): void {
  if (mainWindow) void dialog.showMessageBox(mainWindow, { type, message, detail });
}

async function openProjectFromDialog(): Promise<void> {
  if (!mainWindow) return;
  const picked = await dialog.showOpenDialog(mainWindow, { title: 'Open an Aloud project folder', properties: ['openDirectory'] });
  const projectDir = picked.filePaths[0];
  if (picked.canceled || !projectDir) return;
  // one way to open another project: the API's openProject, as the Project screen does (the session and rooms close)
  try {
    if (service) await service.openProject(projectDir);
    else useService(await openService(projectDir));
  } catch (e) {
    return tell('error', 'This folder cannot be opened as an Aloud project', (e as Error).message);
  }
  projectOpened(projectDir);
  mainWindow?.webContents.reload();
}

/** Another project is open (from the menu or the Project screen): the next start opens it, the last export is forgotten. */
function projectOpened(projectDir: string): void {
  lastExport = null;
  try {
    preferences?.update({ last_project: projectDir });
  } catch (e) {
    tell('warning', 'Aloud could not remember this project for next time', (e as Error).message);
  }
}

function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 860,
    show: false,
    title: 'Aloud',
    webPreferences: secureWebPreferences({ preload: PRELOAD_FILE, devTools: DEV_TOOLS }),
  });
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    mainWindow = null;
  });
  void window.loadURL(APP_PAGE);
  return window;
}

async function start(): Promise<void> {
  if (!existsSync(path.join(RENDERER_ROOT, 'index.html'))) {
    throw new Error(`${path.join(RENDERER_ROOT, 'index.html')} is missing: build the app first (npm run build)`);
  }
  guardSession(APP_ORIGIN);
  protocol.handle(
    APP_SCHEME,
    createAppRequestHandler({
      appOrigin: APP_ORIGIN,
      rendererRoot: RENDERER_ROOT,
      itemAudio: (itemId) => {
        const file = service?.itemAudioFile(itemId);
        return service && file ? { file, projectDir: service.projectFolder.dir } : null;
      },
      protocolAudio: (itemId, protocol) =>
        service?.protocolAudioFile(itemId, protocol) ?? Promise.resolve({ ok: false, status: 404, reason: 'no project is open' }),
    }),
  );
  const opened = openAppPreferences();
  preferences = opened.preferences;
  const startup = await openStartupProject({
    lastProject: preferences.get().last_project,
    demoSource: DEMO_PROJECT_DIR,
    demoWorkingCopy: path.join(app.getPath('userData'), 'demo-project'),
    open: openService,
  });
  useService(startup.service);
  installAppMenu(
    { openProject: () => void openProjectFromDialog(), lastExport: () => lastExport, revealExport: (file) => shell.showItemInFolder(file) },
    DEV_TOOLS,
  );
  mainWindow = createMainWindow();
  for (const notice of [opened.problem, startup.problem]) if (notice) tell('warning', 'Aloud', notice);
}

ipcMain.handle(IPC_CALL_CHANNEL, async (event, method: unknown, args: unknown) => {
  const frame = event.senderFrame;
  const outcome = await handleIpcCall(
    {
      senderFrameUrl: frame?.url,
      isMainFrame: frame !== null && frame.parent === null,
      senderId: event.sender.id,
      mainWindowId: mainWindow?.webContents.id ?? null,
      appOrigin: APP_ORIGIN,
    },
    method,
    args,
    service,
  );
  if (method === 'exportSession' && outcome.ok) lastExport = (outcome.result as ExportSummary).file;
  if ((method === 'openProject' || method === 'createProject') && outcome.ok && service) projectOpened(service.projectFolder.dir);
  return outcome;
});

app.on('web-contents-created', (_event, contents) => guardWebContents(contents, APP_ORIGIN));

// The session store fsyncs and releases its lock in close(); quitting waits for it.
app.on('before-quit', (event) => {
  if (shutdown === 'closed' || !service) return;
  event.preventDefault();
  if (shutdown === 'closing') return;
  shutdown = 'closing';
  stopForwarding?.();
  void service
    .close()
    .catch((e: unknown) => console.error(`Aloud: the session did not close cleanly: ${(e as Error).message}`))
    .finally(() => {
      shutdown = 'closed';
      app.quit();
    });
});
app.on('window-all-closed', () => app.quit());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      dialog.showErrorBox('Aloud cannot start', (e as Error).message);
      app.exit(1);
    });
}
