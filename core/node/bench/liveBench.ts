import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LivePartial, LiveRecordingContext } from '../../common/engine/liveUtterances';
import { isPartialRequestId, type SchedulerEvent, TranscriptionScheduler } from '../../common/engine/transcriptionScheduler';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems } from '../project/projectFolder';
import { SessionService } from '../session/sessionService';
import { median } from './engineBench';
import type { TranscriptionEngine } from '../../common/engine/engineTypes';
import { liveCutterFactory } from '../engine/sessionEngine';
import { createEndsWithCommitment } from '../../common/engine/endsWithCommitment';
import { parseOptionsOf } from '../../common/analysis/transcriptAnalysis';
import { SileroVad } from '../engine/sileroVad';
import { sha256OfPcm } from '../engine/whisperEngine';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';

export interface LiveBenchOptions {
  modelPath: string;
  vadModelPath: string | null;
  /** 16 kHz mono */
  pcm: Float32Array;
  /** capture chunk (the app sends 50 ms) */
  chunkMs: number;
  /** CPU-bound processes to run beside it */
  load: number;
  threads?: number;
  /** starts whisper.cpp (closed after the run): its own process, as the app runs it; the benches may compare other hosts */
  startEngine: (options: { threads?: number }) => TranscriptionEngine;
  /**
   * what was said, per utterance: each final's text (not a partial's) is replaced by it after the engine ran, so the
   * parser and label acts are timed with a model whose own text is meaningless (the bench model); the engine's time is real
   */
  said?: readonly string[];
  /** the cut's floor after a sentence (default the project's thinkaloud.cut_floor_ms; 300: today's fixed cut) */
  cutFloorMs?: number;
}

export interface LiveUtteranceFigures {
  utterance: number;
  start_ms: number;
  end_ms: number;
  /** end of the utterance's last speech frame (VAD or energy), audio time = wall time after audio start */
  speech_end_ms: number;
  /** wall time (after audio start) at which the cutter cut it */
  cut_ms: number;
  /** wall time at which its final text was in the session log */
  final_ms: number;
  final_after_cut_ms: number;
  /**
   * when the text the annotator sees stopped changing, after the speech ended: the speculative final's text shown
   * (when the cut adopted that speculation, its text is the final's) or else the final in the log
   */
  final_after_speech_end_ms: number;
  /** the final in the session log, after the speech ended (the cut's wait included) */
  logged_after_speech_end_ms: number;
  /** the utterance committed a label: when the label act was in the log, after the speech ended (else null) */
  label_after_speech_end_ms: number | null;
  /** the final was the speculative one, started before the cut */
  speculative: boolean;
  /** when the engine began the job whose text became the final (the adopted speculation, else the cut's), after the speech ended */
  engine_started_after_speech_end_ms: number | null;
  /** that job's engine time (wall, the engine's own process) */
  engine_ms: number | null;
  /** wall times of the partial texts shown while it was open */
  partial_ms: number[];
  /** time from the utterance's start to its first partial */
  first_partial_ms: number | null;
  /** gaps between consecutive partial updates while it was open */
  partial_gaps_ms: number[];
}

export interface LiveBenchReport {
  cutter: 'vad' | 'energy';
  chunk_ms: number;
  load_processes: number;
  audio_ms: number;
  utterances: LiveUtteranceFigures[];
  medians: {
    final_after_cut_ms: number;
    final_after_speech_end_ms: number;
    logged_after_speech_end_ms: number;
    /** over the utterances that committed a label (null: none did) */
    label_after_speech_end_ms: number | null;
    partial_gap_ms: number | null;
    max_partial_gap_ms: number | null;
  };
  p95: { final_after_speech_end_ms: number; label_after_speech_end_ms: number | null };
  /** engine time (finals, speculation and partials) per second of audio: below 1 the engine keeps up and lag never builds */
  real_time_factor: number;
  /** finals and speculation only, per second of audio */
  real_time_factor_finals: number;
  partials_shown: number;
  speculations: { started: number; adopted: number; discarded: number };
  engine_ms: { partial: number; final: number };
  threads_last_job: number;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

/** The q-quantile by linear interpolation between closest ranks (NaN for no values). */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const low = Math.floor(rank);
  return sorted[low]! + (sorted[Math.min(low + 1, sorted.length - 1)]! - sorted[low]!) * (rank - low);
}

/** N processes that keep one core busy each until killed. */
export function startCpuLoad(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

/**
 * Feeds a WAV in real time (one chunk every chunkMs) through the real session path: SessionService on a
 * temporary copy of the demo project, the live cutter (Silero VAD when given), partials and speculation,
 * the scheduler, the engine (as `startEngine` starts it), the parser and the session log. Times are wall
 * times after the audio's start.
 */
export async function benchLive(options: LiveBenchOptions): Promise<LiveBenchReport> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-bench-live-')), 'project');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  const project = await loadProjectConfig(dir);
  const threads = options.threads === undefined ? {} : { threads: options.threads };
  const engine = options.startEngine(threads);
  const vad = options.vadModelPath ? SileroVad.load(options.vadModelPath) : null;
  const load = startCpuLoad(options.load);
  try {
    const info = await engine.load(options.modelPath);
    const model = { name: path.basename(options.modelPath), sha256: info.model!.sha256 };
    const events: Array<{ at: number; event: SchedulerEvent }> = [];
    let t0 = 0;
    const now = (): number => performance.now() - t0;
    const said = options.said;
    // when the engine began and ended each job, by request id (where the time between speech end and text goes)
    const jobs = new Map<string, { started: number; ended: number | null }>();
    const timed = async (input: Parameters<typeof engine.transcribe>[0]): Promise<Awaited<ReturnType<typeof engine.transcribe>>> => {
      const job = { started: now(), ended: null as number | null };
      jobs.set(input.identity?.request_id ?? '', job);
      try {
        return await engine.transcribe(input);
      } finally {
        job.ended = now();
      }
    };
    const heard = {
      transcribe: said
        ? async (input: Parameters<typeof engine.transcribe>[0]) => {
            const result = await timed(input);
            const text = isPartialRequestId(input.identity?.request_id ?? '') ? undefined : said[input.identity?.utterance ?? -1];
            if (text === undefined || result.segments.length === 0) return result;
            const first = result.segments[0]!;
            return { ...result, segments: [{ t0_ms: first.t0_ms, t1_ms: result.segments.at(-1)!.t1_ms, text: ` ${text}` }] };
          }
        : timed,
      abort: () => engine.abort(),
      close: () => engine.close(),
    };
    const transcriber = new TranscriptionScheduler({
      engine: heard,
      model,
      hashAudio: sha256OfPcm,
      onEvent: (event) => events.push({ at: now(), event }),
    });
    const cuts = new Map<number, { cut_ms: number; start: number; end: number; speech_end: number }>();
    const speechEnd = new Map<number, number>();
    const liveCutter = liveCutterFactory(transcriber, {
      silenceThresholdDbfs: project.config.thinkaloud.silence_threshold_dbfs,
      speech: vad,
      adaptiveFloorMs: options.cutFloorMs ?? project.config.thinkaloud.cut_floor_ms,
      endsWithCommitment: createEndsWithCommitment(parseOptionsOf(project.config)),
    });
    const sessionEngine = {
      model,
      transcriber,
      // the session's own cutter, watched: when it cuts, and where each utterance's speech ended
      createCutter: (context?: LiveRecordingContext) => {
        const tracked = liveCutter(context ?? { item_id: '', utterance_base: 0, offset_samples: 0 });
        return {
          push(pcm: Float32Array) {
            const out = tracked.push(pcm);
            for (const u of out)
              cuts.set(u.index, {
                cut_ms: now(),
                start: u.startSample,
                end: u.endSample,
                speech_end: speechEnd.get(u.index) ?? u.endSample - tracked.keepAfterSamples,
              });
            const open = tracked.open;
            if (open) speechEnd.set(open.index, open.speechEndSample);
            return out;
          },
          flush() {
            const out = tracked.flush();
            for (const u of out)
              cuts.set(u.index, {
                cut_ms: now(),
                start: u.startSample,
                end: u.endSample,
                speech_end: Math.min(u.endSample, speechEnd.get(u.index) ?? u.endSample),
              });
            return out;
          },
        };
      },
    };
    const service = await SessionService.open({
      project,
      annotator: 'bench',
      items: await loadProjectItems(project),
      engine: sessionEngine,
    });
    const partials: Array<LivePartial & { at: number }> = [];
    const finals = new Map<number, number>();
    const labels = new Map<number, number>();
    service.on('partial', (p) => partials.push({ ...p, at: now() }));
    const finalRequest = new Map<number, string>();
    service.on('event', (e) => {
      if (e.type === 'utterance_transcribed') {
        finals.set(e.data.utterance, now());
        finalRequest.set(e.data.utterance, e.data.request_id);
      }
      if (e.type === 'label_committed' && e.data.utterance !== null && !labels.has(e.data.utterance)) labels.set(e.data.utterance, now());
    });
    const itemId = (await loadProjectItems(project))[0]!.id;
    await service.openItem(itemId);
    await service.startRecording({ device: 'bench --live' });
    const chunk = Math.round((options.chunkMs * AUDIO_SAMPLE_RATE) / 1000);
    t0 = performance.now();
    for (let at = 0, k = 1; at < options.pcm.length; at += chunk, k++) {
      // chunk k is complete (and delivered) k × chunkMs after the audio starts, as from a microphone
      const due = (Math.min(options.pcm.length, at + chunk) / AUDIO_SAMPLE_RATE) * 1000;
      const wait = due - now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await service.appendAudio(options.pcm.subarray(at, at + chunk));
    }
    await service.stopRecording();
    await service.drainTranscriptions();
    const threads = (await engine.info()).last_threads;
    await service.close();
    const engineTime = transcriber.engineTime;

    const ms = (samples: number): number => (samples / AUDIO_SAMPLE_RATE) * 1000;
    const adoptedEvents = events
      .filter((e) => e.event.type === 'speculation_adopted')
      .map((e) => (e.event as { identity: { utterance: number; request_id: string } }).identity);
    const adopted = new Set(adoptedEvents.map((identity) => identity.utterance));
    // when each adopted speculation's text was shown (the text the annotator then sees is the final's)
    const readyAt = new Map(
      events
        .filter((e) => e.event.type === 'speculation_ready')
        .map((e) => [(e.event as { identity: { request_id: string } }).identity.request_id, e.at]),
    );
    const shownAt = new Map<number, number>();
    for (const identity of adoptedEvents) {
      const at = readyAt.get(identity.request_id);
      if (at !== undefined) shownAt.set(identity.utterance, at);
    }
    const utterances: LiveUtteranceFigures[] = [...cuts.entries()]
      .filter(([index]) => finals.has(index))
      .map(([index, c]) => {
        const final = finals.get(index)!;
        const shown = partials.filter((p) => p.utterance === index && p.at <= c.cut_ms).map((p) => p.at);
        const gaps = shown.slice(1).map((t, i) => t - shown[i]!);
        const job = jobs.get(finalRequest.get(index) ?? '');
        return {
          utterance: index,
          start_ms: round1(ms(c.start)),
          end_ms: round1(ms(c.end)),
          speech_end_ms: round1(ms(c.speech_end)),
          cut_ms: round1(c.cut_ms),
          final_ms: round1(final),
          final_after_cut_ms: round1(final - c.cut_ms),
          final_after_speech_end_ms: round1(Math.min(final, shownAt.get(index) ?? final) - ms(c.speech_end)),
          logged_after_speech_end_ms: round1(final - ms(c.speech_end)),
          label_after_speech_end_ms: labels.has(index) ? round1(labels.get(index)! - ms(c.speech_end)) : null,
          speculative: adopted.has(index),
          engine_started_after_speech_end_ms: job ? round1(job.started - ms(c.speech_end)) : null,
          engine_ms: job?.ended != null ? round1(job.ended - job.started) : null,
          partial_ms: shown.map(round1),
          first_partial_ms: shown.length > 0 ? round1(shown[0]! - ms(c.start)) : null,
          partial_gaps_ms: gaps.map(round1),
        };
      });
    const allGaps = utterances.flatMap((u) => u.partial_gaps_ms);
    const labelled = utterances.flatMap((u) => (u.label_after_speech_end_ms === null ? [] : [u.label_after_speech_end_ms]));
    const audioMs = ms(options.pcm.length);
    return {
      cutter: vad ? 'vad' : 'energy',
      chunk_ms: options.chunkMs,
      load_processes: options.load,
      audio_ms: round1(ms(options.pcm.length)),
      utterances,
      medians: {
        final_after_cut_ms: round1(median(utterances.map((u) => u.final_after_cut_ms))),
        final_after_speech_end_ms: round1(median(utterances.map((u) => u.final_after_speech_end_ms))),
        logged_after_speech_end_ms: round1(median(utterances.map((u) => u.logged_after_speech_end_ms))),
        label_after_speech_end_ms: labelled.length > 0 ? round1(median(labelled)) : null,
        partial_gap_ms: allGaps.length > 0 ? round1(median(allGaps)) : null,
        max_partial_gap_ms: allGaps.length > 0 ? round1(Math.max(...allGaps)) : null,
      },
      p95: {
        final_after_speech_end_ms: round1(
          percentile(
            utterances.map((u) => u.final_after_speech_end_ms),
            0.95,
          ),
        ),
        label_after_speech_end_ms: labelled.length > 0 ? round1(percentile(labelled, 0.95)) : null,
      },
      real_time_factor: Math.round(((engineTime.partial_ms + engineTime.final_ms) / audioMs) * 1000) / 1000,
      real_time_factor_finals: Math.round((engineTime.final_ms / audioMs) * 1000) / 1000,
      partials_shown: partials.length,
      speculations: {
        started: events.filter((e) => e.event.type === 'speculation_adopted' || e.event.type === 'speculation_discarded').length,
        adopted: adopted.size,
        discarded: events.filter((e) => e.event.type === 'speculation_discarded').length,
      },
      engine_ms: { partial: round1(engineTime.partial_ms), final: round1(engineTime.final_ms) },
      threads_last_job: threads,
    };
  } finally {
    for (const p of load) p.kill();
    vad?.free();
    await engine.close();
    await rm(path.dirname(dir), { recursive: true, force: true });
  }
}
