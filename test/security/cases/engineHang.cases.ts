import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { EngineSupervisorEvent } from '../../../core/node/engine/engineSupervisor';
import { forkEngineProcess, startEngineProcess } from '../../../core/node/engine/engineProcessHost';
import { hostileGroup, type HostileCase } from '../hostile';

const bootstrap = fileURLToPath(new URL('../../../core/node/engine/engineSourceBootstrap.mjs', import.meta.url));
const echoEngine = new URL('../../core/node/engine/fixtures/echoEngineProcess.ts', import.meta.url).href;

const cases: Array<HostileCase<null>> = [];
const add = (name: string, run: () => Promise<void> | void) => cases.push({ name, run });

add(
  'an engine process stopped with SIGSTOP mid-job is killed as hung, restarted and said; the job is answered by the new process (ingest waited forever before)',
  async () => {
    const events: EngineSupervisorEvent[] = [];
    const engine = startEngineProcess({
      modelName: 'echo',
      onEvent: (e) => events.push(e),
      launch: () => forkEngineProcess({}, { script: bootstrap, args: [echoEngine] }),
      // a short floor so the test waits seconds, not the minute a real engine gets
      hangBound: { minMs: 1500, perAudioSecondMs: 1000 },
    });
    const stopped: number[] = [];
    try {
      await engine.load('/models/echo.bin');
      const first = engine.supervision().pid!;
      const input = (utterance: number) => ({
        pcm: new Float32Array(1600),
        identity: { request_id: `r${utterance}`, item_id: 'item-1', utterance },
      });
      expect((await engine.transcribe(input(0))).segments[0]!.text).toBe(`utterance 0 by process ${first}`);
      const job = engine.transcribe(input(1));
      process.kill(first, 'SIGSTOP');
      stopped.push(first);
      const answer = await job;
      const second = engine.supervision().pid!;
      expect(second).not.toBe(first);
      expect(answer.segments[0]!.text).toBe(`utterance 1 by process ${second}`);
      expect(events.map((e) => e.type)).toEqual(['started', 'crashed', 'started', 'restarted']);
      expect(events[1]!.message).toMatch(
        new RegExp(
          `^the engine process ${first} stopped: made no progress for 1\\.5 s on a job of 0\\.1 s of audio \\(stopped or hung\\), so it was killed; restarting it with echo$`,
        ),
      );
      expect(engine.supervision()).toMatchObject({ state: 'running', restarts: 1 });
    } finally {
      // the stopped process was killed by the supervisor; a SIGCONT to a pid still ours is harmless if it is gone
      for (const pid of stopped) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // gone, as it should be
        }
      }
      await engine.close();
    }
  },
);

export const engineHangGroup = hostileGroup<null>({ surface: 'crash points', area: 'a hung engine', setup: () => null, cases });
