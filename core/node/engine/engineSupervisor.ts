import { decideAfterCrash, type EngineExit } from '../../common/engine/engineRestartPolicy';
import {
  type EncodeTiming,
  type EngineInfo,
  type EngineTranscription,
  EngineError,
  type TranscribeInput,
  type TranscriptionEngine,
} from '../../common/engine/engineTypes';

/** One started engine process: its client, and how and when it ends. */
export interface EngineProcessHandle {
  engine: TranscriptionEngine;
  pid: number | null;
  /** settles once, when the process is gone */
  exited: Promise<EngineExit>;
  /** ends the process at once (the last resort of close) */
  kill(): void;
}

export type EngineSupervisorEvent =
  | { type: 'started'; pid: number | null; message: string }
  | { type: 'crashed'; pid: number | null; exit: EngineExit; error: EngineError; message: string }
  | { type: 'restarted'; pid: number | null; restarts: number; resent: number; message: string }
  | { type: 'stopped'; restarts: number; message: string };

export interface EngineSupervision {
  state: 'starting' | 'running' | 'restarting' | 'stopped' | 'closed';
  pid: number | null;
  /** the model's name (or path) once loaded */
  model: string | null;
  restarts: number;
  crashes: Array<{ at: number; pid: number | null; description: string }>;
  /** why transcription stopped for good, when it did */
  stopped_because: string | null;
}

export interface SupervisedEngineOptions {
  onEvent?: (event: EngineSupervisorEvent) => void;
  /** after every change of state, pid or restarts (the running-engines registry keeps it for `aloud doctor`) */
  onSupervision?: (supervision: EngineSupervision) => void;
  /** a name for the model in messages (default: its path) */
  modelName?: string;
  now?: () => number;
  /** close waits this long for the process to answer 'close' before killing it */
  closeTimeoutMs?: number;
  /** how long a job may go without any answer from the process before it is taken as hung (see HANG_BOUND) */
  hangBound?: HangBound;
}

/**
 * When a process that answers nothing is hung (stopped, deadlocked, swapping to death): no answer for
 * max(minMs, perAudioSecondMs × the seconds of audio of the job it is on). Whisper on a slow CPU runs a few times
 * slower than real time; ten times is far past that, and a minute's floor covers a cold start.
 */
export interface HangBound {
  minMs: number;
  perAudioSecondMs: number;
}

export const HANG_BOUND: HangBound = { minMs: 60_000, perAudioSecondMs: 10_000 };

interface Call {
  run: (engine: TranscriptionEngine) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** the process it was sent to, while it runs there */
  sentTo: EngineProcessHandle | null;
  /** seconds of audio in the job: what its expected time is derived from */
  audioSeconds: number;
}

/**
 * The engine in a process of its own, restarted when it dies. A crash fails the running job with `engine_crashed`
 * (naming the signal or exit code); the process is started again with its model after a backoff, and the jobs that
 * were waiting or running are sent again, in order, each answered once (the caller's identity check still applies:
 * the new process computes the audio and model hashes afresh). The third crash within a minute stops it: every
 * job then fails with a message saying so. A crash while the model first loads is not retried: the model is suspect.
 */
export class SupervisedEngine implements TranscriptionEngine {
  private current: EngineProcessHandle | null = null;
  private ready: Promise<void> | null = null;
  private modelPath: string | null = null;
  private readonly calls: Call[] = [];
  private readonly crashTimes: number[] = [];
  private readonly crashes: EngineSupervision['crashes'] = [];
  private restarts = 0;
  private state: EngineSupervision['state'] = 'starting';
  private stoppedBecause: EngineError | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly now: () => number;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  /** processes killed as hung, with what is said of them instead of "killed by SIGKILL" */
  private readonly hung = new Map<EngineProcessHandle, string>();

  constructor(
    private readonly startProcess: () => EngineProcessHandle,
    private readonly options: SupervisedEngineOptions = {},
  ) {
    this.now = options.now ?? (() => Date.now());
  }

  /** pid, restarts and crashes, for doctor and the UI */
  supervision(): EngineSupervision {
    return {
      state: this.state,
      pid: this.current?.pid ?? null,
      model: this.modelPath === null ? null : this.modelName(this.modelPath),
      restarts: this.restarts,
      crashes: this.crashes.map((c) => ({ ...c })),
      stopped_because: this.stoppedBecause?.message ?? null,
    };
  }

  async load(modelPath: string): Promise<EngineInfo> {
    this.refuseWhenDone();
    if (this.modelPath !== null && this.modelPath !== modelPath) {
      throw new EngineError(
        'model_already_loaded',
        `this engine already holds ${this.modelPath}; one model per session (close the engine to change it)`,
      );
    }
    const handle = this.current ?? this.spawn();
    const info = await handle.engine.load(modelPath).catch((e: unknown) => {
      if (!(e instanceof EngineError) || e.code !== 'engine_crashed' || this.modelPath !== null) throw e;
      // the first load crashed the process: say so once, and never restart with a model that does this
      this.state = 'stopped';
      this.stoppedBecause = new EngineError(
        'engine_crashed',
        `the engine process crashed while loading ${this.modelName(modelPath)} (${e.message.replace(/^the engine stopped: /, '')}); the file may be damaged or of a kind whisper.cpp cannot run: check it with \`aloud models verify\``,
      );
      for (const call of this.calls.splice(0)) call.reject(this.stoppedBecause);
      throw this.stoppedBecause;
    });
    this.modelPath = modelPath;
    this.state = 'running';
    this.options.onSupervision?.(this.supervision());
    for (const call of this.calls) if (!call.sentTo) this.send(call);
    return info;
  }

  transcribe(input: TranscribeInput): Promise<EngineTranscription> {
    return this.submit((engine) => engine.transcribe(input), input.pcm.length / 16_000) as Promise<EngineTranscription>;
  }

  encode(pcm: Float32Array, audioCtx: number | null = null): Promise<EncodeTiming> {
    return this.submit((engine) => engine.encode(pcm, audioCtx), pcm.length / 16_000) as Promise<EncodeTiming>;
  }

  /** Stops the running job: in the process, or (while it restarts) before it is sent again. */
  abort(): void {
    const running = this.calls[0];
    if (!running) return;
    if (running.sentTo && running.sentTo === this.current) {
      running.sentTo.engine.abort();
      return;
    }
    this.calls.shift();
    running.reject(new EngineError('aborted', 'the job was aborted while the engine restarted'));
  }

  async info(): Promise<EngineInfo> {
    this.refuseWhenDone();
    while (this.state === 'restarting') await this.ready;
    this.refuseWhenDone();
    return (this.current ?? this.spawn()).engine.info();
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.options.onSupervision?.(this.supervision());
    if (this.restartTimer) clearTimeout(this.restartTimer);
    if (this.watchdog) clearTimeout(this.watchdog);
    for (const call of this.calls.splice(0)) call.reject(new EngineError('engine_closed', 'the engine was closed'));
    const handle = this.current;
    if (!handle) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.options.closeTimeoutMs ?? 5000);
    });
    const closed = handle.engine.close().then(
      () => handle.exited,
      () => handle.exited,
    );
    if ((await Promise.race([closed, timeout])) === 'timeout') handle.kill();
    clearTimeout(timer);
    await handle.exited;
  }

  private tell(event: EngineSupervisorEvent): void {
    this.options.onEvent?.(event);
    this.options.onSupervision?.(this.supervision());
  }

  private modelName(modelPath: string): string {
    return this.options.modelName ?? modelPath;
  }

  private refuseWhenDone(): void {
    if (this.state === 'closed') throw new EngineError('engine_closed', 'the engine was closed');
    if (this.stoppedBecause) throw this.stoppedBecause;
  }

  private spawn(): EngineProcessHandle {
    const handle = this.startProcess();
    this.current = handle;
    void handle.exited.then((exit) => this.exited(handle, exit));
    this.tell({ type: 'started', pid: handle.pid, message: `transcription engine running as process ${handle.pid ?? '?'} (aloud-engine)` });
    return handle;
  }

  private submit(run: Call['run'], audioSeconds: number): Promise<unknown> {
    try {
      this.refuseWhenDone();
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise((resolve, reject) => {
      const call: Call = { run, resolve, reject, sentTo: null, audioSeconds };
      this.calls.push(call);
      if (this.state === 'running') this.send(call);
    });
  }

  /** Sends a call to the live process; a crash there keeps it for the next process, anything else answers it. */
  private send(call: Call): void {
    const handle = this.current!;
    call.sentTo = handle;
    if (this.watchdog === null) this.armWatchdog();
    call.run(handle.engine).then(
      (value) => this.settle(call, () => call.resolve(value)),
      (error: unknown) => {
        if (error instanceof EngineError && error.code === 'engine_crashed' && handle !== this.current) return;
        if (error instanceof EngineError && error.code === 'engine_crashed' && this.state !== 'closed' && !this.stoppedBecause) {
          // the exit is seen after this rejection: the call waits for the restart
          call.sentTo = null;
          return;
        }
        this.settle(call, () => call.reject(error));
      },
    );
  }

  private settle(call: Call, answer: () => void): void {
    const at = this.calls.indexOf(call);
    if (at < 0) return;
    this.calls.splice(at, 1);
    answer();
    // an answer is progress: the bound starts again for the job the process is on now
    this.armWatchdog();
  }

  /** Watches the first job the live process holds: no answer within its bound and the process is killed as hung. */
  private armWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    const handle = this.current;
    const job = this.calls.find((c) => c.sentTo !== null && c.sentTo === handle);
    if (!handle || !job || this.state !== 'running') return;
    const bound = this.options.hangBound ?? HANG_BOUND;
    const ms = Math.max(bound.minMs, Math.ceil(job.audioSeconds * bound.perAudioSecondMs));
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      if (handle !== this.current || this.state !== 'running' || !this.calls.some((c) => c.sentTo === handle)) return;
      this.hung.set(
        handle,
        `made no progress for ${(ms / 1000).toFixed(1)} s on a job of ${job.audioSeconds.toFixed(1)} s of audio (stopped or hung), so it was killed`,
      );
      // each handle's kill is a SIGKILL: it ends a stopped process too (a SIGTERM would wait for it to be continued)
      handle.kill();
    }, ms);
    this.watchdog.unref?.();
  }

  private exited(handle: EngineProcessHandle, died: EngineExit): void {
    if (handle !== this.current || this.state === 'closed') return;
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    // a process killed as hung is a crash, said as what it was
    const hung = this.hung.get(handle);
    this.hung.delete(handle);
    const exit: EngineExit = hung ? { ...died, description: hung } : died;
    if (this.modelPath === null) {
      // before a model: the next call starts a new process (a crash in the first load is reported by load itself)
      this.current = null;
      return;
    }
    const at = this.now();
    this.crashTimes.push(at);
    this.crashes.push({ at, pid: handle.pid, description: exit.description });
    const error = new EngineError('engine_crashed', `the engine process ${handle.pid ?? '?'} stopped: ${exit.description}`);
    for (const call of this.calls) call.sentTo = null;
    const decision = decideAfterCrash(this.crashTimes, at);
    const next = decision.action === 'restart' ? `; restarting it with ${this.modelName(this.modelPath)}` : '';
    if (decision.action === 'restart') this.state = 'restarting';
    this.tell({ type: 'crashed', pid: handle.pid, exit, error, message: `${error.message}${next}` });
    if (decision.action === 'stop') {
      this.stop(
        `the transcription engine crashed ${decision.crashesInWindow} times within a minute (last: ${exit.description}); transcription is off for this session, recording continues`,
      );
      return;
    }
    let release!: () => void;
    this.ready = new Promise((resolve) => (release = resolve));
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      void this.restart().finally(release);
    }, decision.delayMs);
  }

  private async restart(): Promise<void> {
    if (this.state !== 'restarting' || this.modelPath === null) return;
    const handle = this.spawn();
    try {
      await handle.engine.load(this.modelPath);
    } catch (e) {
      // a crash during the reload is counted by exited(); any other refusal ends transcription
      if (!(e instanceof EngineError && e.code === 'engine_crashed'))
        this.stop(`the transcription engine could not reload ${this.modelName(this.modelPath)} after a crash: ${(e as Error).message}`);
      return;
    }
    if (handle !== this.current || this.state !== 'restarting') return;
    this.restarts++;
    this.state = 'running';
    const waiting = [...this.calls];
    this.tell({
      type: 'restarted',
      pid: handle.pid,
      restarts: this.restarts,
      resent: waiting.length,
      message: `transcription restarted (process ${handle.pid ?? '?'}, restart ${this.restarts}) with ${this.modelName(this.modelPath)}${waiting.length === 0 ? '' : `; ${waiting.length === 1 ? 'the waiting utterance is' : `${waiting.length} waiting utterances are`} transcribed now`}`,
    });
    for (const call of waiting) this.send(call);
    this.armWatchdog();
  }

  private stop(reason: string): void {
    this.state = 'stopped';
    this.stoppedBecause = new EngineError('engine_crashed', reason);
    for (const call of this.calls.splice(0)) call.reject(this.stoppedBecause);
    this.tell({ type: 'stopped', restarts: this.restarts, message: reason });
    const handle = this.current;
    if (handle) void handle.engine.close().catch(() => undefined);
  }
}
