// A stand-in for the 'electron' module (the binary is not available in tests): records what main.js asks of
// Electron and lets a driver play Electron's part (ready, IPC calls, protocol requests, permission prompts, quit).
import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';

const recorded = {
  privilegedSchemes: null,
  sandboxEnabled: false,
  protocolHandlers: {},
  ipcHandlers: {},
  windows: [],
  menu: null,
  messages: [],
  errorBoxes: [],
  exitCode: null,
  quitRequests: 0,
  quitCompleted: false,
  shown: [],
  openDialogAnswer: { canceled: true, filePaths: [] },
  session: {
    permissionRequest: null,
    permissionCheck: null,
    devicePermission: null,
    beforeRequest: null,
    spellChecker: null,
    willDownload: null,
  },
  utilityProcesses: [],
};

let resolveReady;
const readyPromise = new Promise((resolve) => (resolveReady = resolve));
let isReady = false;
let nextId = 1;

class FakeWebContents extends EventEmitter {
  constructor() {
    super();
    this.id = nextId++;
    this.sent = [];
    this.reloads = 0;
    this.windowOpenHandler = null;
  }
  send(channel, payload) {
    this.sent.push([channel, structuredClone(payload)]);
  }
  reload() {
    this.reloads++;
  }
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler;
  }
  isDestroyed() {
    return false;
  }
}

class FakeApp extends EventEmitter {
  isPackaged = false;
  enableSandbox() {
    recorded.sandboxEnabled = true;
  }
  whenReady() {
    return readyPromise;
  }
  isReady() {
    return isReady;
  }
  requestSingleInstanceLock() {
    return true;
  }
  getPath(name) {
    if (name !== 'userData') throw new Error(`fake electron: getPath(${name}) not expected`);
    return process.env.FAKE_ELECTRON_USER_DATA;
  }
  getVersion() {
    return '0.0.0-test';
  }
  getName() {
    return 'aloud';
  }
  /** Like Electron: 'before-quit' first; the app quits unless a listener prevented it. */
  quit() {
    recorded.quitRequests++;
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) recorded.quitCompleted = true;
  }
  exit(code) {
    recorded.exitCode = code;
  }
}

export const app = new FakeApp();

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.webContents = new FakeWebContents();
    this.loadedUrl = null;
    recorded.windows.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }
  loadURL(url) {
    this.loadedUrl = url;
    return Promise.resolve();
  }
  show() {}
  focus() {}
  restore() {}
  isMinimized() {
    return false;
  }
  isDestroyed() {
    return false;
  }
}

export const protocol = {
  registerSchemesAsPrivileged(schemes) {
    if (isReady) throw new Error('registerSchemesAsPrivileged after ready');
    recorded.privilegedSchemes = schemes;
  },
  handle(scheme, handler) {
    recorded.protocolHandlers[scheme] = handler;
  },
};

export const ipcMain = {
  handle(channel, handler) {
    recorded.ipcHandlers[channel] = handler;
  },
  on() {},
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (handler) => (recorded.session.permissionRequest = handler),
    setPermissionCheckHandler: (handler) => (recorded.session.permissionCheck = handler),
    setDevicePermissionHandler: (handler) => (recorded.session.devicePermission = handler),
    setSpellCheckerEnabled: (on) => (recorded.session.spellChecker = on),
    on: (name, handler) => {
      if (name === 'will-download') recorded.session.willDownload = handler;
    },
    webRequest: { onBeforeRequest: (handler) => (recorded.session.beforeRequest = handler) },
  },
};

export const Menu = {
  buildFromTemplate: (template) => template,
  setApplicationMenu: (menu) => (recorded.menu = menu),
};

export const dialog = {
  showMessageBox: (_window, options) => {
    recorded.messages.push(options);
    return Promise.resolve({ response: 0 });
  },
  showErrorBox: (title, content) => recorded.errorBoxes.push({ title, content }),
  showOpenDialog: () => Promise.resolve(recorded.openDialogAnswer),
};

export const shell = {
  showItemInFolder: (file) => recorded.shown.push(file),
  openPath: () => Promise.resolve(''),
};

/**
 * In a utility process Electron gives the child a `process.parentPort`: messages arrive as `{ data }`, queued until
 * the child listens (as Node's own channel queues them until process.on('message')).
 */
const PARENT_PORT = `import { EventEmitter } from 'node:events';
const port = new EventEmitter();
port.postMessage = (message) => process.send(message);
let listening = false;
port.on('newListener', (event) => {
  if (event !== 'message' || listening) return;
  listening = true;
  process.on('message', (message) => port.emit('message', { data: message }));
});
process.parentPort = port;
// Electron ends a utility process with its app: here, with the driver that forked it
process.on('disconnect', () => process.exit(0));`;

/**
 * Electron's utility process, played by a forked Node process with a parentPort; when it ends, app
 * 'child-process-gone' reports it as Chromium does (the signal's number as the exit code), after the 'exit' event.
 */
class FakeUtilityProcess extends EventEmitter {
  constructor(modulePath, args, options) {
    super();
    const child = fork(modulePath, args, {
      execArgv: ['--import', `data:text/javascript,${encodeURIComponent(PARENT_PORT)}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child = child;
    this.pid = child.pid;
    this.stderr = child.stderr;
    recorded.utilityProcesses.push({ modulePath, args, serviceName: options?.serviceName ?? null, pid: child.pid });
    child.on('message', (message) => this.emit('message', message));
    child.on('exit', (code, signal) => {
      const number = signal ? constants.signals[signal] : null;
      this.emit('exit', number ?? code);
      if (number)
        app.emit(
          'child-process-gone',
          {},
          {
            type: 'Utility',
            reason: signal === 'SIGKILL' ? 'killed' : 'crashed',
            exitCode: number,
            serviceName: options?.serviceName,
            name: options?.serviceName,
          },
        );
    });
  }
  postMessage(message) {
    this.child.send(message);
  }
  kill() {
    return this.child.kill();
  }
}

export const utilityProcess = {
  fork: (modulePath, args, options) => new FakeUtilityProcess(modulePath, args, options),
};

/** The driver's handle: fire 'ready' and read what was recorded. */
export const fake = {
  recorded,
  ready() {
    isReady = true;
    app.emit('ready');
    resolveReady();
  },
};

export default { app, BrowserWindow, protocol, ipcMain, session, Menu, dialog, shell, utilityProcess, fake };
