import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeChunkFrame } from '../../../core/common/audio/chunkFrame';
import type { AloudApi } from '../../../core/common/contract/aloudApi';
import type { SessionPatch, SessionView } from '../../../core/common/session/sessionApi';
import type { CallOutcome } from '../../../core/common/refusal/callOutcome';
import { AppService } from '../../../core/node/app/appService';
import { initProject } from '../../../core/node/project/projectFolder';
import { createAppRequestHandler } from '../../../electron/main/appRequests';
import { handleIpcCall, type IpcCallSender } from '../../../electron/main/ipcCalls';
import { APP_ORIGIN } from '../../../electron/policy/appOrigin';

let work: string;
const apps: AppService[] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'aloud-ipc-'));
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
afterAll(() => rm(work, { recursive: true, force: true }));

let projects = 0;
async function demoService(): Promise<AppService> {
  const projectDir = path.join(work, `project-${++projects}`);
  await initProject(projectDir, { demo: true });
  const app = await AppService.open({ projectDir, mode: 'electron', openEngine: null });
  apps.push(app);
  return app;
}

const WINDOW_ID = 7;
const trusted: IpcCallSender = {
  senderFrameUrl: 'aloud://app/index.html',
  isMainFrame: true,
  senderId: WINDOW_ID,
  mainWindowId: WINDOW_ID,
  appOrigin: APP_ORIGIN,
};

async function ok(outcome: Promise<CallOutcome>): Promise<unknown> {
  const settled = await outcome;
  if (!settled.ok) throw new Error(`expected success, got ${settled.error.code}: ${settled.error.message}`);
  return settled.result;
}

async function refused(outcome: Promise<CallOutcome>): Promise<{ code: string; message: string }> {
  const settled = await outcome;
  if (settled.ok) throw new Error('expected the call to be refused');
  return settled.error;
}

describe('handleIpcCall against a real AppService', () => {
  it('opens a session, opens an item, commits a label and shows it in the session view', async () => {
    const app = await demoService();
    const opened = (await ok(handleIpcCall(trusted, 'openSession', ['ana'], app))) as SessionView;
    expect(opened).toMatchObject({ annotator: 'ana', current_item: null, recording_item: null });
    expect(((await ok(handleIpcCall(trusted, 'openItem', ['demo-04'], app))) as SessionPatch).current_item).toBe('demo-04');
    await ok(handleIpcCall(trusted, 'commitLabel', ['Neutral', 'click'], app));
    const view = (await ok(handleIpcCall(trusted, 'session', [], app))) as SessionView;
    expect(view.items.find((item) => item.item_id === 'demo-04')).toMatchObject({ final_label: 'Neutral', label_source: 'click' });
    // the open item in full, and any item of the session through sessionItem
    expect(view.item_states['demo-04']).toMatchObject({ final_label: 'Neutral', label_source: 'click', blind_label: 'Neutral' });
    expect(await ok(handleIpcCall(trusted, 'sessionItem', ['demo-04'], app))).toEqual(view.item_states['demo-04']);
  });

  it.each<[string, Partial<IpcCallSender>]>([
    ['another webContents', { senderId: WINDOW_ID + 1 }],
    ['a sub-frame of our window', { isMainFrame: false }],
    ['our window showing a remote page', { senderFrameUrl: 'https://example.com/' }],
    ['our window showing a file:// page', { senderFrameUrl: 'file:///tmp/evil.html' }],
    ['a look-alike origin', { senderFrameUrl: 'aloud://app.evil.com/index.html' }],
    ['a frame that is gone', { senderFrameUrl: null }],
    ['a call before the window exists', { mainWindowId: null }],
  ])('refuses %s before touching the service', async (_who, change) => {
    const app = await demoService();
    const error = await refused(handleIpcCall({ ...trusted, ...change }, 'openSession', ['mallory'], app));
    expect(error.code).toBe('bad_request');
    expect(error.message).toMatch(/did not come from the top frame of the Aloud window/);
    // Nothing happened: no session was opened.
    expect((await refused(handleIpcCall(trusted, 'session', [], app))).code).toBe('conflict');
  });

  it.each<[string, unknown, unknown, RegExp]>([
    ['an unknown method', 'deleteEverything', [], /unknown method "deleteEverything"/],
    ['a method name that is not a string', { toString: 'openSession' }, [], /unknown method/],
    ['an inherited property as method', 'constructor', [], /unknown method "constructor"/],
    ['arguments that are not a list', 'openSession', 'ana', /arguments must be a list/],
    ['too many arguments', 'openSession', ['ana', 'extra'], /expected 1 argument/],
    ['a wrong type', 'openSession', [42], /annotator must be a non-empty string/],
    ['a bad enum value', 'commitLabel', ['Polite', 'voice'], /source must be one of click, key/],
    ['audio that is not binary', 'appendAudio', [[1, 2, 3]], /frame must be binary audio/],
    ['an export format it does not write', 'exportSession', ['../../etc/passwd'], /format must be one of jsonl, json, csv/],
  ])('refuses %s with bad_request', async (_what, method, args, message) => {
    const app = await demoService();
    const error = await refused(handleIpcCall(trusted, method, args, app));
    expect(error.code).toBe('bad_request');
    expect(error.message).toMatch(message);
  });

  it('accepts audio as a Node Buffer at any offset (what IPC delivers), and serves the recording with ranges', async () => {
    const app = await demoService();
    await ok(handleIpcCall(trusted, 'openSession', ['ana'], app));
    await ok(handleIpcCall(trusted, 'openItem', ['demo-05'], app));
    await ok(handleIpcCall(trusted, 'startRecording', [null], app));
    for (let start = 0; start < 16_000; start += 3200) {
      const pcm = Float32Array.from({ length: 3200 }, (_, i) => 0.2 * Math.sin((start + i) / 10));
      const frame = encodeChunkFrame({ startSample: start, pcm });
      const pooled = Buffer.alloc(frame.byteLength + 5);
      pooled.set(frame, 5);
      expect(await ok(handleIpcCall(trusted, 'appendAudio', [pooled.subarray(5)], app))).toBeNull();
    }
    const patch = (await ok(handleIpcCall(trusted, 'stopRecording', [], app))) as SessionPatch;
    expect(patch.changed_items.find((item) => item.item_id === 'demo-05')?.audio_ms).toBe(1000);

    const wavFile = app.itemAudioFile('demo-05')!;
    const wav = new Uint8Array(await readFile(wavFile));
    const handle = createAppRequestHandler({
      appOrigin: APP_ORIGIN,
      rendererRoot: path.join(work, 'no-renderer'),
      itemAudio: (itemId) => {
        const file = app.itemAudioFile(itemId);
        return file ? { file, projectDir: app.projectFolder.dir } : null;
      },
      protocolAudio: (itemId, protocol) => app.protocolAudioFile(itemId, protocol),
    });
    const whole = await handle(new Request('aloud://app/item-audio/demo-05'));
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(wav);
    const tail = await handle(new Request('aloud://app/item-audio/demo-05', { headers: { Range: 'bytes=-100' } }));
    expect(tail.status).toBe(206);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(wav.slice(-100));
    expect((await handle(new Request('aloud://app/item-audio/demo-06'))).status).toBe(404);
  });

  it('answers conflict while no project is open', async () => {
    const error = await refused(handleIpcCall(trusted, 'appInfo', [], null));
    expect(error).toMatchObject({ code: 'conflict' });
  });

  it('never throws across IPC: a failure of any kind becomes an error outcome', async () => {
    const failing = new Proxy({} as AloudApi, {
      get: () => () => Promise.reject('a thrown string'),
    });
    expect(await handleIpcCall(trusted, 'appInfo', [], failing)).toEqual({
      ok: false,
      error: { code: 'internal', message: 'a thrown string' },
    });
    const synchronous = new Proxy({} as AloudApi, {
      get: () => () => {
        throw new TypeError('boom');
      },
    });
    expect(await handleIpcCall(trusted, 'project', [], synchronous)).toEqual({ ok: false, error: { code: 'internal', message: 'boom' } });
  });
});
