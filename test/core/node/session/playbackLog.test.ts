import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { SessionService } from '../../../../core/node/session/sessionService';
import { SessionUsageError } from '../../../../core/common/session/sessionRefusals';
import { logPlayback } from '../../../../core/node/session/playbackActs';

/** A clock the test moves: every event is stamped with the time it says. */
function testClock(start: string) {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

describe('playback in the session log', () => {
  it("logs one audio_played per playback in the player's own log, counts it as active time, and refuses a reviewer's", async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-playback-')), 'proj');
    await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
    const project = await loadProjectConfig(dir);
    const items = await loadProjectItems(project);
    const clock = testClock('2026-12-05T09:00:00.000Z');
    const ana = await SessionService.open({ project, annotator: 'ana', items, now: clock.now });
    await ana.openItem('demo-02');
    await expect(logPlayback(ana, { itemId: 'demo-02', audioFromMs: 0, audioToMs: 1000, playedMs: 1000 })).rejects.toThrow(
      /has no recording to play/,
    );
    await ana.startRecording();
    for (let i = 0; i < 10; i++) await ana.appendAudio(new Float32Array(3200)); // 2 s of audio
    await ana.stopRecording();
    // she listens to her recording for 40 s (with a seek back), 5 minutes after stopping: a gap over the bound, idle
    clock.advance(5 * 60_000);
    await logPlayback(ana, { itemId: 'demo-02', audioFromMs: 0, audioToMs: 1500.4, playedMs: 40_000.2 });
    // a playback of no time logs nothing
    await logPlayback(ana, { itemId: 'demo-02', audioFromMs: 0, audioToMs: 0, playedMs: 0.2 });
    expect(ana.itemState('demo-02')?.time_on_item_active_ms).toBe(40_000);
    await ana.close();
    const file = sessionPaths(dir, 'ana').events;
    const played = (await readSessionLog(file)).events.filter((e) => e.type === 'audio_played');
    expect(played.map((e) => e.data)).toEqual([{ item_id: 'demo-02', audio_from_ms: 0, audio_to_ms: 1500, played_ms: 40_000 }]);

    // Ben reviews Ana's session: his playback is his own act, never logged in her log
    const ben = await SessionService.open({ project, annotator: 'ana', items, reviewer: 'ben', now: clock.now });
    const before = await readFile(file);
    await expect(logPlayback(ben, { itemId: 'demo-02', audioFromMs: 0, audioToMs: 1000, playedMs: 1000 })).rejects.toThrow(
      SessionUsageError,
    );
    expect(await readFile(file)).toEqual(before);
    await ben.close();
  });
});
