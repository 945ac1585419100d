import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeWav, encodeWavPcm16 } from '../../../../core/node/audio/wavFile';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { SessionLockedError } from '../../../../core/node/session/sessionLock';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { SessionStore } from '../../../../core/node/session/sessionStore';
import { nodeDurableFs, type DurableFs } from '../../../../core/node/fs/durableFile';
import { faultyFs } from './faultyFs';

async function demoProject() {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-store-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  return loadProjectConfig(dir);
}

function speech(samples: number): Float32Array {
  const pcm = new Float32Array(samples);
  for (let i = 0; i < samples; i++) pcm[i] = 0.3 * Math.sin((2 * Math.PI * 200 * i) / 16000);
  return pcm;
}

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

const line = (seq: number, type: string, data: unknown) =>
  JSON.stringify({ v: 1, seq, ts: new Date(Date.UTC(2024, 4, 1, 10, 0, seq)).toISOString(), type, data });

describe('SessionStore', () => {
  it('starts a new session, holds the lock while open, and resumes it after a clean close', async () => {
    const project = await demoProject();
    const store = await SessionStore.open({ project, annotator: 'Ana' });
    expect(store.report).toMatchObject({ created: true, tookOverLock: null, torn: null, interruptedRecording: null, recoveredAudio: [] });
    const paths = sessionPaths(project.dir, 'Ana');
    expect(JSON.parse(await readFile(paths.lock, 'utf8')).pid).toBe(process.pid);
    const refused = await SessionStore.open({ project, annotator: 'Ana' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(SessionLockedError);
    expect((refused as Error).message).toContain(
      `the session of "Ana" in ${project.dir} is already open for writing by process ${process.pid}`,
    );
    await store.append('item_opened', { item_id: 'demo-03', text_sha256: null });
    await store.close();
    await expect(stat(paths.lock)).rejects.toThrow();

    const resumed = await SessionStore.open({ project, annotator: 'Ana' });
    expect(resumed.report.created).toBe(false);
    expect(resumed.state()).toMatchObject({ annotator: 'Ana', current_item: 'demo-03' });
    await resumed.close();
    const { events } = await readSessionLog(paths.events);
    expect(events.map((e) => e.type)).toEqual(['session_started', 'item_opened', 'session_resumed']);
  });

  it('recovers what a kill -9 leaves: stale lock, torn line, WAV longer than the log with a stale header, open recording', async () => {
    const project = await demoProject();
    const paths = sessionPaths(project.dir, 'ana');
    await mkdir(paths.audioDir, { recursive: true });
    const audioPath = 'sessions/ana/audio/demo-01.wav';
    const torn = line(6, 'audio_appended', { item_id: 'demo-01', offset_samples: 16000, samples: 16000 }).slice(0, 40);
    await writeFile(
      paths.events,
      [
        line(1, 'session_started', {
          annotator: 'ana',
          project_name: 'politeness-demo',
          sample_rate: 16000,
          config_sha256: null,
          parser_version: null,
        }),
        line(2, 'item_opened', { item_id: 'demo-01', text_sha256: null }),
        line(3, 'recording_started', { item_id: 'demo-01', audio_path: audioPath, offset_samples: 0, device: null }),
        line(4, 'audio_appended', { item_id: 'demo-01', offset_samples: 0, samples: 8000 }),
        line(5, 'audio_appended', { item_id: 'demo-01', offset_samples: 8000, samples: 8000 }),
        torn,
      ].join('\n'),
    );
    // 1.5 s of audio on disk, header still saying 1 s (the crash came before the next patch)
    const wav = Buffer.from(encodeWavPcm16(speech(24000), 16000));
    wav.writeUInt32LE(36 + 32000, 4);
    wav.writeUInt32LE(32000, 40);
    await writeFile(path.join(project.dir, audioPath), wav);
    const dead = { pid: deadPid(), host: hostname(), started_at: '2024-05-01T10:00:00.000Z' };
    await writeFile(paths.lock, JSON.stringify(dead));

    const store = await SessionStore.open({ project, annotator: 'ana' });
    expect(store.report.tookOverLock).toEqual(dead);
    expect(store.report.torn).toMatchObject({ line: 6, bytes: torn.length });
    expect(await readFile(store.report.torn!.tornFile, 'utf8')).toBe(torn);
    expect(store.report.interruptedRecording).toBe('demo-01');
    expect(store.report.recoveredAudio).toEqual([
      { item_id: 'demo-01', samples_logged: 16000, samples_total: 24000, header_repaired: true },
    ]);
    const state = store.state();
    expect(state.current_item).toBe('demo-01');
    expect(state.recording).toBeNull();
    expect(state.items[0]).toMatchObject({ audio_path: audioPath, audio_ms: 1500 });
    expect(state.items[0]!.signals).toMatchObject({ total_chunks: 2, silent_chunks: 0, time_to_first_speech_ms: 0 });
    await store.close();

    const decoded = decodeWav(await readFile(path.join(project.dir, audioPath)), audioPath);
    expect(decoded.truncatedHeader).toBe(false);
    expect(decoded.samples.length).toBe(24000);
    const { events, torn: tornAfter } = await readSessionLog(paths.events);
    expect(tornAfter).toBeNull();
    expect(events.slice(5).map((e) => e.type)).toEqual([
      'session_resumed',
      'log_repaired',
      'audio_recovered',
      'recording_stopped',
      'signals_computed',
    ]);
  });

  it('refuses to go on when a WAV the log records is missing, naming it, and releases the lock', async () => {
    const project = await demoProject();
    const paths = sessionPaths(project.dir, 'ana');
    await mkdir(paths.audioDir, { recursive: true });
    await writeFile(
      paths.events,
      `${[
        line(1, 'session_started', {
          annotator: 'ana',
          project_name: 'politeness-demo',
          sample_rate: 16000,
          config_sha256: null,
          parser_version: null,
        }),
        line(2, 'recording_started', { item_id: 'x', audio_path: 'sessions/ana/audio/x.wav', offset_samples: 0, device: null }),
        line(3, 'audio_appended', { item_id: 'x', offset_samples: 0, samples: 800 }),
      ].join('\n')}\n`,
    );
    await expect(SessionStore.open({ project, annotator: 'ana' })).rejects.toThrow(
      `${path.join(paths.audioDir, 'x.wav')}: missing, but ${paths.events} records 800 samples of "x" in it`,
    );
    await expect(stat(paths.lock)).rejects.toThrow();
  });

  it('a read-only folder: a clear error, nothing written, no lock left behind', async () => {
    const project = await demoProject();
    const paths = sessionPaths(project.dir, 'ana');
    const fs = faultyFs({ failOpen: 'EROFS' });
    await expect(SessionStore.open({ project, annotator: 'ana', fs })).rejects.toThrow(
      `cannot open ${paths.events} for writing: the folder is on a read-only file system (EROFS)`,
    );
    await expect(stat(paths.lock)).rejects.toThrow();
  });

  it('never writes an event that would make the log unreadable', async () => {
    const project = await demoProject();
    const store = await SessionStore.open({ project, annotator: 'ana' });
    await expect(store.append('audio_appended', { item_id: 'x', offset_samples: 0, samples: 5 })).rejects.toThrow(
      'audio_appended: no recording of "x" is running',
    );
    await store.append('note', { item_id: null, text: 'still fine' });
    await store.close();
    const { events } = await readSessionLog(sessionPaths(project.dir, 'ana').events);
    expect(events.map((e) => e.type)).toEqual(['session_started', 'note']);
  });

  it('opening a session with many recordings opens no WAV but the take a crash may have torn, and that one once', async () => {
    const project = await demoProject();
    const store = await SessionStore.open({ project, annotator: 'ana' });
    const record = async (store: SessionStore, itemId: string, stop: boolean) => {
      await store.append('item_opened', { item_id: itemId, text_sha256: null });
      const writer = await store.audioWriter(itemId);
      await store.append('recording_started', { item_id: itemId, audio_path: store.audioPath(itemId), offset_samples: 0, device: null });
      writer.append(speech(1600));
      await writer.flush();
      await store.append('audio_appended', { item_id: itemId, offset_samples: 0, samples: 1600 });
      if (!stop) return;
      await store.closeAudio(itemId);
      await store.append('recording_stopped', { item_id: itemId, total_samples: 1600, reason: 'user', error: null });
    };
    for (let i = 0; i < 150; i++) await record(store, `rec-${i}`, true);
    await store.close();
    const opened: Array<{ file: string; flags: string }> = [];
    const countingFs: DurableFs = {
      open: (file, flags) => {
        if (file.endsWith('.wav')) opened.push({ file: path.basename(file), flags });
        return nodeDurableFs.open(file, flags);
      },
    };
    const clean = await SessionStore.open({ project, annotator: 'ana', fs: countingFs });
    expect(clean.report.recoveredAudio).toEqual([]);
    expect(opened).toEqual([]);
    // a crash in the middle of the next take: the log has its audio up to the last flush, the WAV a little more
    await record(clean, 'rec-150', false);
    const wav = path.join(sessionPaths(project.dir, 'ana').audioDir, 'rec-150.wav');
    await (clean as unknown as { lock: { release(): Promise<void> } }).lock.release();
    await writeFile(wav, Buffer.concat([await readFile(wav), Buffer.alloc(640, 1)]));
    opened.length = 0;
    const reopened = await SessionStore.open({ project, annotator: 'ana', fs: countingFs });
    expect(opened).toEqual([{ file: 'rec-150.wav', flags: 'r+' }]);
    expect(reopened.report.interruptedRecording).toBe('rec-150');
    expect(reopened.report.recoveredAudio).toEqual([
      { item_id: 'rec-150', samples_logged: 1600, samples_total: 1920, header_repaired: true },
    ]);
    await reopened.close();
    await clean.closeAudio('rec-150').catch(() => undefined);
  });

  it('a closed take whose WAV changed since is found when its item records again: audio_recovered comes first', async () => {
    const project = await demoProject();
    const store = await SessionStore.open({ project, annotator: 'ana' });
    await store.append('item_opened', { item_id: 'demo-01', text_sha256: null });
    const writer = await store.audioWriter('demo-01');
    await store.append('recording_started', {
      item_id: 'demo-01',
      audio_path: store.audioPath('demo-01'),
      offset_samples: 0,
      device: null,
    });
    writer.append(speech(1600));
    await writer.flush();
    await store.append('audio_appended', { item_id: 'demo-01', offset_samples: 0, samples: 1600 });
    await store.closeAudio('demo-01');
    await store.append('recording_stopped', { item_id: 'demo-01', total_samples: 1600, reason: 'user', error: null });
    await store.close();
    const wav = path.join(project.dir, store.audioPath('demo-01'));
    await writeFile(wav, (await readFile(wav)).subarray(0, 44 + 800 * 2));

    const reopened = await SessionStore.open({ project, annotator: 'ana' });
    expect(reopened.report.recoveredAudio).toEqual([]);
    const again = await reopened.audioWriter('demo-01');
    expect(again.samples).toBe(800);
    await reopened.append('recording_started', {
      item_id: 'demo-01',
      audio_path: reopened.audioPath('demo-01'),
      offset_samples: 800,
      device: null,
    });
    await reopened.close();
    const { events } = await readSessionLog(sessionPaths(project.dir, 'ana').events);
    expect(events.slice(-2).map((e) => [e.type, e.data])).toEqual([
      ['audio_recovered', { item_id: 'demo-01', samples_logged: 1600, samples_total: 800, header_repaired: true }],
      ['recording_started', { item_id: 'demo-01', audio_path: 'sessions/ana/audio/demo-01.wav', offset_samples: 800, device: null }],
    ]);
  });

  it('a WAV the log records audio in and that is gone is refused when its item records again, never recreated', async () => {
    const project = await demoProject();
    const store = await SessionStore.open({ project, annotator: 'ana' });
    await store.append('item_opened', { item_id: 'demo-01', text_sha256: null });
    const writer = await store.audioWriter('demo-01');
    await store.append('recording_started', {
      item_id: 'demo-01',
      audio_path: store.audioPath('demo-01'),
      offset_samples: 0,
      device: null,
    });
    writer.append(speech(1600));
    await writer.flush();
    await store.append('audio_appended', { item_id: 'demo-01', offset_samples: 0, samples: 1600 });
    await store.closeAudio('demo-01');
    await store.append('recording_stopped', { item_id: 'demo-01', total_samples: 1600, reason: 'user', error: null });
    await store.close();
    const wav = path.join(project.dir, store.audioPath('demo-01'));
    await rm(wav);
    const reopened = await SessionStore.open({ project, annotator: 'ana' });
    await expect(reopened.audioWriter('demo-01')).rejects.toThrow(`${wav}: missing, but`);
    await expect(stat(wav)).rejects.toThrow();
    await reopened.close();
  });
});
