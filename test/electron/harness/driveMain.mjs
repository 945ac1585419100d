// Runs the bundled main.js against fakeElectron.mjs and prints what Electron would have seen, as one JSON line.
//   node driveMain.mjs <main.js> <fake electron module> <scenario: run | unbuilt | engine>
// Environment: FAKE_ELECTRON_USER_DATA, PROJECT_B (a second project folder), NOT_A_PROJECT (a plain folder).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [mainFile, fakeFile, scenario] = process.argv.slice(2);
const { fake, app } = await import(pathToFileURL(fakeFile).href);
const recorded = fake.recorded;
const report = {};

async function until(condition, what, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

await import(pathToFileURL(mainFile).href);
report.beforeReady = {
  privilegedSchemes: recorded.privilegedSchemes,
  sandboxEnabled: recorded.sandboxEnabled,
  ipcChannels: Object.keys(recorded.ipcHandlers),
};
fake.ready();

if (scenario === 'unbuilt') {
  await until(() => recorded.exitCode !== null, 'exit');
  report.exitCode = recorded.exitCode;
  report.errorBoxes = recorded.errorBoxes;
  report.windows = recorded.windows.length;
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exit(0);
}

await until(() => recorded.windows.length === 1 && recorded.windows[0].loadedUrl, 'the window');
const window = recorded.windows[0];
const contents = window.webContents;

if (scenario === 'engine') {
  // never outlive a failed run (the driver's children end with it)
  process.on('unhandledRejection', (e) => {
    process.stderr.write(`driveMain: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
  // a model is installed: the session's engine runs in a utility process, which then dies of SIGSEGV
  const call = recorded.ipcHandlers['aloud:call'];
  const trusted = { sender: contents, senderFrame: { url: 'aloud://app/index.html', parent: null } };
  await call(trusted, 'openSession', ['ana']);
  await call(trusted, 'openItem', ['demo-01']);
  report.appInfo = (await call(trusted, 'appInfo', [])).result;
  const first = recorded.utilityProcesses[0];
  process.kill(first.pid, 'SIGSEGV');
  await until(() => contents.sent.some(([, event]) => event.type === 'engine' && event.state === 'restarted'), 'the restart', 60_000);
  report.engineEvents = contents.sent.filter(([, event]) => event.type === 'engine').map(([, event]) => event);
  report.utilityProcesses = recorded.utilityProcesses.map((p) => ({
    module: path.basename(p.modulePath),
    title: p.args[0],
    serviceName: p.serviceName,
    pid: p.pid,
  }));
  report.afterRestart = (await call(trusted, 'startRecording', [null])).ok;
  app.quit();
  await until(() => recorded.quitCompleted, 'the quit');
  report.secondAlive = (() => {
    try {
      process.kill(recorded.utilityProcesses[1].pid, 0);
      return true;
    } catch {
      return false;
    }
  })();
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exit(0);
}
report.window = { loadedUrl: window.loadedUrl, webPreferences: window.options.webPreferences };
report.messages = [...recorded.messages];

// The app protocol
const serve = recorded.protocolHandlers.aloud;
const page = await serve(new Request('aloud://app/index.html'));
report.page = { status: page.status, csp: page.headers.get('content-security-policy'), body: await page.text() };
report.traversal = (await serve(new Request('aloud://app/..%2f..%2fpackage.json'))).status;

// Permissions, the request filter, spell checking
const ask = (permission, details) => new Promise((resolve) => recorded.session.permissionRequest(contents, permission, resolve, details));
report.permissionRequests = {
  microphone: await ask('media', { requestingUrl: 'aloud://app/index.html', isMainFrame: true, mediaTypes: ['audio'] }),
  camera: await ask('media', { requestingUrl: 'aloud://app/index.html', isMainFrame: true, mediaTypes: ['video'] }),
  microphoneFromSubFrame: await ask('media', { requestingUrl: 'aloud://app/index.html', isMainFrame: false, mediaTypes: ['audio'] }),
  microphoneFromRemote: await ask('media', { requestingUrl: 'https://example.com/', isMainFrame: true, mediaTypes: ['audio'] }),
  notifications: await ask('notifications', { requestingUrl: 'aloud://app/index.html', isMainFrame: true }),
  geolocation: await ask('geolocation', { requestingUrl: 'aloud://app/index.html', isMainFrame: true }),
};
const check = (permission, origin, details) => recorded.session.permissionCheck(contents, permission, origin, details);
report.permissionChecks = {
  microphone: check('media', 'aloud://app', { mediaType: 'audio', isMainFrame: true }),
  camera: check('media', 'aloud://app', { mediaType: 'video', isMainFrame: true }),
  remote: check('media', 'https://example.com', { mediaType: 'audio', isMainFrame: true }),
  clipboard: check('clipboard-read', 'aloud://app', { isMainFrame: true }),
};
report.devicePermission = recorded.session.devicePermission({ deviceType: 'usb', origin: 'aloud://app' });
const filter = (url) => new Promise((resolve) => recorded.session.beforeRequest({ url }, (answer) => resolve(answer.cancel)));
report.cancelled = { remote: await filter('https://example.com/x.js'), app: await filter('aloud://app/assets/a.js') };
report.spellChecker = recorded.session.spellChecker;
report.download = (() => {
  let prevented = false;
  recorded.session.willDownload?.(
    { preventDefault: () => (prevented = true) },
    { getURL: () => 'https://example.com/x.exe', cancel: () => undefined },
  );
  return { handled: recorded.session.willDownload !== null, prevented };
})();

// Navigation and new windows
const navigate = (name, details) => {
  let prevented = false;
  contents.emit(name, { ...details, preventDefault: () => (prevented = true) });
  return prevented;
};
report.navigationPrevented = {
  remote: navigate('will-navigate', { url: 'https://example.com/', isMainFrame: true }),
  file: navigate('will-navigate', { url: 'file:///etc/passwd', isMainFrame: true }),
  reload: navigate('will-navigate', { url: 'aloud://app/index.html', isMainFrame: true }),
  subFrame: navigate('will-frame-navigate', { url: 'aloud://app/index.html', isMainFrame: false }),
  redirect: navigate('will-redirect', { url: 'https://example.com/', isMainFrame: true }),
  webview: navigate('will-attach-webview', {}),
};
report.windowOpen = contents.windowOpenHandler({ url: 'https://example.com/' });

// IPC: a trusted and an untrusted sender
const call = recorded.ipcHandlers['aloud:call'];
const trusted = { sender: contents, senderFrame: { url: 'aloud://app/index.html', parent: null } };
const subFrame = { sender: contents, senderFrame: { url: 'aloud://app/index.html', parent: {} } };
const stranger = { sender: { id: 999 }, senderFrame: { url: 'aloud://app/index.html', parent: null } };
report.ipc = {
  project: await call(trusted, 'project', []),
  fromSubFrame: await call(subFrame, 'project', []),
  fromStranger: await call(stranger, 'project', []),
  appInfo: await call(trusted, 'appInfo', []),
  openSession: await call(trusted, 'openSession', ['ana']),
  openItem: await call(trusted, 'openItem', ['demo-01']),
  commitLabel: await call(trusted, 'commitLabel', ['Polite', 'click']),
  exportSession: await call(trusted, 'exportSession', ['csv']),
};
report.events = contents.sent;

// File menu: reveal the export, open another project (and a folder that is not one)
const fileMenu = recorded.menu.find((entry) => entry.label === 'File').submenu;
const click = (label) => fileMenu.find((entry) => entry.label === label).click();
click('Reveal Last Export in Folder');
report.revealed = [...recorded.shown];
const projectA = path.dirname(path.dirname(report.ipc.exportSession.result.file));
report.lockA = { whileOpen: existsSync(path.join(projectA, 'sessions', 'ana', '.lock')) };

recorded.openDialogAnswer = { canceled: false, filePaths: [process.env.NOT_A_PROJECT] };
const messagesBefore = recorded.messages.length;
click('Open Project…');
await until(() => recorded.messages.length > messagesBefore, 'the refusal message');
report.notAProject = {
  message: recorded.messages.at(-1),
  reloads: contents.reloads,
  project: (await call(trusted, 'project', [])).result.name,
};

recorded.openDialogAnswer = { canceled: false, filePaths: [process.env.PROJECT_B] };
click('Open Project…');
await until(() => contents.reloads === 1, 'the reload');
report.switched = {
  project: (await call(trusted, 'project', [])).result.name,
  lockAReleased: !existsSync(path.join(projectA, 'sessions', 'ana', '.lock')),
  preferences: JSON.parse(await readFile(path.join(process.env.FAKE_ELECTRON_USER_DATA, 'preferences.json'), 'utf8')),
};

// Quit waits for the session to close (fsync, lock released)
await call(trusted, 'openSession', ['ben']);
const lockB = path.join(process.env.PROJECT_B, 'sessions', 'ben', '.lock');
report.quit = { lockBeforeQuit: existsSync(lockB) };
app.quit();
report.quit.completedImmediately = recorded.quitCompleted;
await until(() => recorded.quitCompleted, 'the quit');
report.quit.lockAfterQuit = existsSync(lockB);
report.quit.requests = recorded.quitRequests;

process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
