import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeChunkFrame } from '../../../../core/common/audio/chunkFrame';
import { dispatchApiCall } from '../../../../core/node/app/apiDispatcher';
import { AppService } from '../../../../core/node/app/appService';
import { DEMO_PROJECT_DIR } from '../../../../core/node/project/projectFolder';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';

/** Why each recording of the session stopped, as its log records it. */
async function stopReasons(projectDir: string): Promise<Array<[string, string]>> {
  const { events } = await readSessionLog(sessionPaths(projectDir, 'ana').events);
  return events.flatMap((e) => (e.type === 'recording_stopped' ? [[e.data.item_id, e.data.reason] as [string, string]] : []));
}

describe('why a recording stopped, through the app API', () => {
  it('going to another item while recording logs item_changed (the annotator left the item), a stop logs user', async () => {
    const projectDir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-stop-reason-')), 'proj');
    await cp(DEMO_PROJECT_DIR, projectDir, { recursive: true });
    const app = await AppService.open({ projectDir, mode: 'browser', openEngine: null });
    const call = async (method: string, ...args: unknown[]) => {
      const outcome = await dispatchApiCall(app, method, args);
      expect(outcome, method).toMatchObject({ ok: true });
    };
    await call('openSession', 'ana');
    await call('openItem', 'demo-01');
    await call('startRecording', null);
    await call('appendAudio', encodeChunkFrame({ startSample: 0, pcm: new Float32Array(800).fill(0.1) }));
    await call('openItem', 'demo-02');
    await call('startRecording', null);
    await call('appendAudio', encodeChunkFrame({ startSample: 0, pcm: new Float32Array(800).fill(0.1) }));
    await call('stopRecording');
    await app.close();
    expect(await stopReasons(projectDir)).toEqual([
      ['demo-01', 'item_changed'],
      ['demo-02', 'user'],
    ]);
  });
});
