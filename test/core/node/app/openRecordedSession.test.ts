import type * as Fs from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { appendFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_STUDY_SHAPE, studyItemId, writeScaleStudy } from '../../../../bench/scaleStudy';
import { encodeChunkFrame } from '../../../../core/common/audio/chunkFrame';
import { AppService } from '../../../../core/node/app/appService';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';

/** Every WAV file the code under test touches (opens, reads, stats), by whichever function of node:fs it goes through. */
const wavTouches = vi.hoisted(() => [] as Array<{ file: string; by: string }>);

function counting<M extends object>(real: M, module: string): M {
  const wrapped: Record<string, unknown> = { ...(real as Record<string, unknown>) };
  for (const [name, value] of Object.entries(real)) {
    if (typeof value !== 'function' || /^[A-Z]/.test(name)) continue;
    wrapped[name] = (...args: unknown[]) => {
      const first = args[0];
      const file = typeof first === 'string' ? first : first instanceof URL ? first.pathname : null;
      if (file?.endsWith('.wav')) wavTouches.push({ file: path.basename(file), by: `${module}.${name}` });
      return (value as (...a: unknown[]) => unknown).apply(real, args);
    };
  }
  return wrapped as M;
}

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  return { ...counting(real, 'fs/promises'), default: counting(real, 'fs/promises') };
});
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof Fs>();
  return { ...counting(real, 'fs'), default: counting(real, 'fs') };
});

const ITEMS = 120;

/** A study of two annotators whose every item holds a recorded take (WAV and events, as the recorder logs them). */
async function recordedStudy(): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-open-recorded-')), 'study');
  await writeScaleStudy(dir, { ...DEFAULT_STUDY_SHAPE, items: ITEMS, annotators: ['ana', 'ben'], recordings: true });
  return dir;
}

describe('opening a session of recordings', () => {
  let app: AppService | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('opens no WAV in the app (openSession, reviewSession); recording the next item opens only that item’s', async () => {
    const dir = await recordedStudy();
    app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null });
    wavTouches.length = 0;
    const view = await app.openSession('ana');
    expect(view.items).toHaveLength(ITEMS);
    expect(view.items.every((i) => i.audio_ms === 1000)).toBe(true);
    expect(wavTouches).toEqual([]);
    expect(await app.reviewSession('ben', 'lead')).toMatchObject({ annotator: 'ben', reviewer: 'lead' });
    expect(wavTouches).toEqual([]);

    await app.openSession('ana');
    wavTouches.length = 0;
    await app.openItem(studyItemId(7));
    await app.startRecording(null);
    await app.appendAudio(encodeChunkFrame({ startSample: 0, pcm: new Float32Array(1600).fill(0.1) }));
    await app.stopRecording();
    expect(new Set(wavTouches.map((t) => t.file))).toEqual(new Set([`${studyItemId(7)}.wav`]));
  });

  it('after a crash mid-take, opening touches that take’s WAV only, and repairs it as before', async () => {
    const dir = await recordedStudy();
    // the log as a kill during the last item's take leaves it: every line before its recording_stopped
    const { events, audioDir } = sessionPaths(dir, 'ana');
    const lines = (await readFile(events, 'utf8')).trimEnd().split('\n');
    const stop = lines.map((l) => l.includes('"type":"recording_stopped"')).lastIndexOf(true);
    await writeFile(events, `${lines.slice(0, stop).join('\n')}\n`);
    const torn = `${studyItemId(ITEMS - 1)}.wav`;
    // audio the WAV got after the last event that logged it (and half a sample)
    await appendFile(path.join(audioDir, torn), Buffer.alloc(3201, 1));
    app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null });
    wavTouches.length = 0;
    const view = await app.openSession('ana');
    expect([...new Set(wavTouches.map((t) => t.file))]).toEqual([torn]);
    expect(view.recovered).toMatch(new RegExp(`recording of "${studyItemId(ITEMS - 1)}" was interrupted`));
    expect(view.recovered).toMatch(/audio of .* was repaired \(1\.1 s kept\)/);
    const logged = (await readFile(events, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
    expect(logged.filter((e) => e.type === 'audio_recovered').map((e) => e.data)).toEqual([
      { item_id: studyItemId(ITEMS - 1), samples_logged: 16_000, samples_total: 17_600, header_repaired: true },
    ]);
  });
});
