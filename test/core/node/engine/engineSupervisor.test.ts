import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineClient } from '../../../../core/common/engine/engineClient';
import type { EnginePort, EngineRequest } from '../../../../core/common/engine/engineProtocol';
import { CRASH_WINDOW_MS, decideAfterCrash, describeEngineExit, type EngineExit } from '../../../../core/common/engine/engineRestartPolicy';
import { EngineError, type EngineTranscription } from '../../../../core/common/engine/engineTypes';
import { type EngineProcessHandle, type EngineSupervisorEvent, SupervisedEngine } from '../../../../core/node/engine/engineSupervisor';

/** An engine process as the supervisor sees it, through the real EngineClient: requests recorded, answers and death by the test. */
class FakeEngineProcess {
  readonly requests: EngineRequest[] = [];
  private deliver: (message: unknown) => void = () => undefined;
  private exit!: (exit: EngineExit) => void;
  readonly exited = new Promise<EngineExit>((resolve) => (this.exit = resolve));
  private dead = false;

  constructor(
    readonly pid: number,
    /** what load does: answer, or crash this process */
    private readonly onLoad: 'ok' | 'crash' = 'ok',
  ) {}

  handle(): EngineProcessHandle {
    const port: EnginePort = {
      postMessage: (message) => {
        if (this.dead) throw new Error('the process is gone');
        const request = message as EngineRequest;
        this.requests.push(request);
        if (request.kind === 'load')
          queueMicrotask(() => (this.onLoad === 'crash' ? this.crash('SIGSEGV') : this.reply(request.seq, { model: { sha256: 'm' } })));
        if (request.kind === 'info') queueMicrotask(() => this.reply(request.seq, { model: null, pid: this.pid }));
        if (request.kind === 'close')
          queueMicrotask(() => {
            this.reply(request.seq, null);
            this.crash(null);
          });
      },
      onMessage: (handler) => (this.deliver = handler),
      onClose: (handler) => void this.exited.then((exit) => handler(exit.description)),
      close: () => undefined,
    };
    return { engine: new EngineClient(port), pid: this.pid, exited: this.exited, kill: () => this.crash('SIGKILL') };
  }

  /** the transcribe requests it received, in order */
  get transcriptions(): Array<Extract<EngineRequest, { kind: 'transcribe' }>> {
    return this.requests.filter((r): r is Extract<EngineRequest, { kind: 'transcribe' }> => r.kind === 'transcribe');
  }

  /** answers a transcribe request with its identity echoed */
  finish(request: Extract<EngineRequest, { kind: 'transcribe' }>, text: string): void {
    const identity = request.input.identity!;
    const result: EngineTranscription = {
      segments: [{ t0_ms: 0, t1_ms: 100, text }],
      identity: { ...identity, audio_sha256: 'a', model_sha256: 'm' },
      audio_ms: 100,
      audio_ctx: 0,
      elapsed_ms: 1,
    };
    this.reply(request.seq, result);
  }

  reply(seq: number, value: unknown): void {
    if (!this.dead) this.deliver({ seq, ok: true, value });
  }

  crash(signal: string | null): void {
    if (this.dead) return;
    this.dead = true;
    this.exit(
      describeEngineExit(
        signal ? null : 0,
        signal,
        signal === 'SIGABRT' ? 'ops.cpp:6294: GGML_ASSERT(src0->type == GGML_TYPE_F16) failed' : '',
      ),
    );
  }
}

function supervised(loads: Array<'ok' | 'crash'> = [], hangBound?: { minMs: number; perAudioSecondMs: number }) {
  const processes: FakeEngineProcess[] = [];
  const events: EngineSupervisorEvent[] = [];
  let clock = 0;
  const engine = new SupervisedEngine(
    () => {
      const p = new FakeEngineProcess(100 + processes.length, loads[processes.length] ?? 'ok');
      processes.push(p);
      return p.handle();
    },
    { onEvent: (e) => events.push(e), modelName: 'tiny.en', now: () => clock, ...(hangBound ? { hangBound } : {}) },
  );
  return { engine, processes, events, advanceClock: (ms: number) => (clock += ms) };
}

const input = (utterance: number) => ({
  pcm: new Float32Array(1600),
  identity: { request_id: `r${utterance}`, item_id: 'item-1', utterance },
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await vi.advanceTimersByTimeAsync(50);
  expect(condition()).toBe(true);
}

describe('the restart policy', () => {
  it('restarts after a backoff that grows, and stops at the third crash within a minute', () => {
    expect(decideAfterCrash([0], 0)).toEqual({ action: 'restart', delayMs: 250, crashesInWindow: 1 });
    expect(decideAfterCrash([0, 5000], 5000)).toEqual({ action: 'restart', delayMs: 1000, crashesInWindow: 2 });
    expect(decideAfterCrash([0, 5000, 9000], 9000)).toEqual({ action: 'stop', crashesInWindow: 3 });
    // crashes older than a minute no longer count
    expect(decideAfterCrash([0, 5000, CRASH_WINDOW_MS + 1], CRASH_WINDOW_MS + 1)).toEqual({
      action: 'restart',
      delayMs: 1000,
      crashesInWindow: 2,
    });
  });

  it('names the signal or exit code in words, with the process’s last line', () => {
    expect(describeEngineExit(null, 'SIGSEGV').description).toBe('killed by SIGSEGV (segmentation fault)');
    expect(describeEngineExit(null, 'SIGKILL').description).toBe('killed by SIGKILL');
    expect(describeEngineExit(3, null).description).toBe('exited with code 3');
    expect(describeEngineExit(null, 'SIGABRT', 'x\nGGML_ASSERT(a) failed\n').description).toBe(
      'killed by SIGABRT (aborted); its last words: GGML_ASSERT(a) failed',
    );
  });
});

describe('SupervisedEngine (fake processes through the real EngineClient)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a process that answers nothing for the job's bound is killed as hung, said so, restarted, and the job answered once", async () => {
    // 0.1 s of audio: the bound is the floor, 2 s; an answer before it (the first job) re-arms it
    const { engine, processes, events } = supervised([], { minMs: 2000, perAudioSecondMs: 5000 });
    await engine.load('/models/tiny.en.bin');
    const answered = engine.transcribe(input(0));
    await until(() => processes[0]!.transcriptions.length === 1);
    await vi.advanceTimersByTimeAsync(1500);
    processes[0]!.finish(processes[0]!.transcriptions[0]!, 'quick');
    expect((await answered).segments[0]!.text).toBe('quick');
    const stuck = engine.transcribe(input(1));
    await until(() => processes[0]!.transcriptions.length === 2);
    await vi.advanceTimersByTimeAsync(1900);
    expect(processes).toHaveLength(1);
    await until(() => processes.length === 2 && processes[1]!.transcriptions.length === 1);
    expect(events.find((e) => e.type === 'crashed')!.message).toBe(
      'the engine process 100 stopped: made no progress for 2.0 s on a job of 0.1 s of audio (stopped or hung), so it was killed; restarting it with tiny.en',
    );
    processes[1]!.finish(processes[1]!.transcriptions[0]!, 'after restart');
    expect((await stuck).segments[0]!.text).toBe('after restart');
    expect(events.map((e) => e.type)).toEqual(['started', 'crashed', 'started', 'restarted']);
    // the bound grows with the job: 3 s of audio at 5 s per second is 15 s
    const long = engine.transcribe({ ...input(2), pcm: new Float32Array(48_000) });
    await until(() => processes[1]!.transcriptions.length === 2);
    await vi.advanceTimersByTimeAsync(14_000);
    expect(processes).toHaveLength(2);
    processes[1]!.finish(processes[1]!.transcriptions[1]!, 'slow but alive');
    expect((await long).segments[0]!.text).toBe('slow but alive');
    await engine.close();
  });

  it('a crash during a job: engine_crashed named, restart with the model, the running and the waiting job sent again, each answered once', async () => {
    const { engine, processes, events } = supervised();
    await engine.load('/models/tiny.en.bin');
    const running = engine.transcribe(input(0));
    const waiting = engine.transcribe(input(1));
    await until(() => processes[0]!.transcriptions.length === 2);
    processes[0]!.crash('SIGSEGV');
    await until(() => processes.length === 2 && processes[1]!.transcriptions.length === 2);

    const crashed = events.find((e) => e.type === 'crashed');
    expect(crashed?.type === 'crashed' && crashed.error).toEqual(
      new EngineError('engine_crashed', 'the engine process 100 stopped: killed by SIGSEGV (segmentation fault)'),
    );
    expect(processes[1]!.requests[0]).toMatchObject({ kind: 'load', modelPath: '/models/tiny.en.bin' });
    expect(processes[1]!.transcriptions.map((r) => r.input.identity!.request_id)).toEqual(['r0', 'r1']);
    for (const r of processes[1]!.transcriptions) processes[1]!.finish(r, `text ${r.input.identity!.utterance}`);
    expect((await running).segments[0]!.text).toBe('text 0');
    expect((await waiting).segments[0]!.text).toBe('text 1');
    expect(events.map((e) => e.type)).toEqual(['started', 'crashed', 'started', 'restarted']);
    expect(events[1]!.message).toBe('the engine process 100 stopped: killed by SIGSEGV (segmentation fault); restarting it with tiny.en');
    expect(events[3]).toMatchObject({
      type: 'restarted',
      pid: 101,
      restarts: 1,
      resent: 2,
      message: 'transcription restarted (process 101, restart 1) with tiny.en; 2 waiting utterances are transcribed now',
    });
    expect(engine.supervision()).toMatchObject({
      state: 'running',
      pid: 101,
      restarts: 1,
      crashes: [{ pid: 100, description: 'killed by SIGSEGV (segmentation fault)' }],
    });
    await engine.close();
  });

  it('the third crash within a minute stops it: waiting jobs and later ones fail saying so, no fourth process', async () => {
    const { engine, processes, events, advanceClock } = supervised();
    await engine.load('/models/tiny.en.bin');
    const job = engine.transcribe(input(0));
    job.catch(() => undefined);
    for (let crash = 0; crash < 3; crash++) {
      await until(() => processes.length === crash + 1 && processes[crash]!.transcriptions.length === 1);
      advanceClock(10_000);
      processes[crash]!.crash(crash === 2 ? 'SIGABRT' : 'SIGKILL');
    }
    const error = await job.then(
      () => null,
      (e: unknown) => e as EngineError,
    );
    expect(error?.code).toBe('engine_crashed');
    expect(error?.message).toBe(
      'the transcription engine crashed 3 times within a minute (last: killed by SIGABRT (aborted); its last words: ops.cpp:6294: GGML_ASSERT(src0->type == GGML_TYPE_F16) failed); transcription is off for this session, recording continues',
    );
    expect(events.filter((e) => e.type === 'stopped')).toHaveLength(1);
    await expect(engine.transcribe(input(1))).rejects.toThrow('crashed 3 times within a minute');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(processes).toHaveLength(3);
    expect(engine.supervision()).toMatchObject({ state: 'stopped', restarts: 2 });
    await engine.close();
  });

  it('crashes more than a minute apart never stop it', async () => {
    const { engine, processes, advanceClock } = supervised();
    await engine.load('/models/tiny.en.bin');
    for (let crash = 0; crash < 4; crash++) {
      advanceClock(CRASH_WINDOW_MS / 2 + 1);
      processes[crash]!.crash('SIGKILL');
      await until(() => engine.supervision().state === 'running' && processes.length === crash + 2);
    }
    expect(engine.supervision().restarts).toBe(4);
    await engine.close();
  });

  it('a crash while the model first loads is one clear error, never retried', async () => {
    const { engine, processes, events } = supervised(['crash']);
    const error = await engine.load('/models/f32.bin').then(
      () => null,
      (e: unknown) => e as EngineError,
    );
    expect(error?.code).toBe('engine_crashed');
    expect(error?.message).toMatch(
      /^the engine process crashed while loading tiny\.en \(.*SIGSEGV.*\); the file may be damaged or of a kind whisper\.cpp cannot run: check it with `aloud models verify`$/,
    );
    await vi.advanceTimersByTimeAsync(5000);
    expect(processes).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual(['started']);
    await expect(engine.transcribe(input(0))).rejects.toBe(error);
    await engine.close();
  });

  /** A job running in the first process when it is killed; returned during the backoff, before any restart. */
  async function crashedDuringJob() {
    const supervisor = supervised();
    await supervisor.engine.load('/models/tiny.en.bin');
    const job = supervisor.engine.transcribe(input(0));
    await until(() => supervisor.processes[0]!.transcriptions.length === 1);
    supervisor.processes[0]!.crash('SIGKILL');
    await until(() => supervisor.engine.supervision().state === 'restarting');
    return { ...supervisor, job };
  }

  it('abort while restarting drops the job instead of sending it again', async () => {
    const { engine, processes, job } = await crashedDuringJob();
    engine.abort();
    await expect(job).rejects.toMatchObject({ code: 'aborted' });
    await until(() => engine.supervision().state === 'running');
    expect(processes[1]!.transcriptions).toHaveLength(0);
    await engine.close();
  });

  it('close during the backoff starts no process and fails what waits with engine_closed', async () => {
    const { engine, processes, job } = await crashedDuringJob();
    await engine.close();
    await expect(job).rejects.toMatchObject({ code: 'engine_closed' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(processes).toHaveLength(1);
  });

  it('a result answered before the crash is kept and not asked again', async () => {
    const { engine, processes } = supervised();
    await engine.load('/models/tiny.en.bin');
    const first = engine.transcribe(input(0));
    const second = engine.transcribe(input(1));
    await until(() => processes[0]!.transcriptions.length === 2);
    processes[0]!.finish(processes[0]!.transcriptions[0]!, 'first');
    expect((await first).segments[0]!.text).toBe('first');
    processes[0]!.crash('SIGKILL');
    await until(() => processes[1]?.transcriptions.length === 1);
    expect(processes[1]!.transcriptions[0]!.input.identity!.request_id).toBe('r1');
    processes[1]!.finish(processes[1]!.transcriptions[0]!, 'second');
    expect((await second).segments[0]!.text).toBe('second');
    await engine.close();
  });
});
