import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SpokenRationale } from '../../common/adjudication/adjudicationEvents';
import { AdjudicationRefusal } from '../../common/adjudication/adjudicationRules';
import { decodeLanguageFor } from '../../common/engine/decodeSettings';
import type { TranscriptionEngine } from '../../common/engine/engineTypes';
import { projectInitialPrompt } from '../../common/engine/initialPrompt';
import { decodeWav, resampleTo16k } from '../audio/wavFile';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';
import { writeFileAtomic } from '../fs/atomicFile';
import { startEngineProcess, type EngineLauncher } from '../engine/engineProcessHost';
import { loadEngineScript, ScriptedEngine } from '../engine/scriptedEngine';
import { resolveSessionModel, SessionEngineError } from '../engine/sessionModel';
import type { OpenProject } from '../project/projectFolder';
import { adjudicationPaths } from './adjudicationLog';
import { say } from '../../common/refusal/refusalMessage';

/** Longest spoken rationale (ms): a few sentences, not a session (whisper reads it in one call). */
export const MAX_RATIONALE_MS = 5 * 60_000;

/** A spoken rationale before its decision is logged: what the log will say, and the WAV's bytes still to be kept. */
export interface TranscribedRationale {
  rationale: SpokenRationale;
  wav: Uint8Array;
}

/** The engine a rationale is transcribed with: the engine script's (tests, demos) or the project's whisper model. */
export interface RationaleEngineOptions {
  /** a whisper model file instead of the project's thinkaloud.model */
  modelFile?: string | null;
  modelsDir?: string;
  /** scripted results instead of whisper.cpp (the results of item id <item>, in order) */
  engineScript?: string | null;
  /** how the engine process is started: given by whoever composes the app (a fork in Node, Electron's utility process) */
  launchEngine: EngineLauncher;
}

async function openRationaleEngine(
  project: OpenProject,
  options: RationaleEngineOptions,
): Promise<{ engine: TranscriptionEngine; model: { name: string; sha256: string } }> {
  if (options.engineScript) {
    const scripted = new ScriptedEngine(await loadEngineScript(options.engineScript));
    await scripted.load(options.engineScript);
    return { engine: scripted, model: scripted.modelIdentity };
  }
  const model = await resolveSessionModel(project, options.modelFile ?? null, options.modelsDir);
  const engine = startEngineProcess({ modelName: model.name, warmUp: false, launch: options.launchEngine });
  try {
    const info = await engine.load(model.path);
    return { engine, model: { name: model.name, sha256: info.model?.sha256 ?? '' } };
  } catch (e) {
    await engine.close().catch(() => undefined);
    throw new SessionEngineError(
      say('refusal.adjudication.cannotLoadTheWhisperModel', { path: model.path, message: (e as Error).message }),
    );
  }
}

/**
 * Transcribes the lead's spoken rationale for an item verbatim, as a protocol is: the project's language and initial
 * prompt, the engine's text unchanged (segments joined). Nothing is written: the WAV is kept only when the decision is
 * logged (keepRationaleAudio), so a refused decision leaves no file behind.
 */
export async function transcribeRationale(
  project: OpenProject,
  adjudicator: string,
  itemId: string,
  wav: Uint8Array,
  source: string,
  options: RationaleEngineOptions,
): Promise<TranscribedRationale> {
  // decodeWav's refusal names the source and what is wrong with it
  const parsed = decodeWav(wav, source);
  const pcm = resampleTo16k(parsed.samples, parsed.sampleRate);
  const audioMs = Math.round((pcm.length / AUDIO_SAMPLE_RATE) * 1000);
  if (pcm.length === 0) throw new AdjudicationRefusal('bad_request', say('refusal.adjudication.theFileHoldsNoAudio', { source }));
  if (audioMs > MAX_RATIONALE_MS)
    throw new AdjudicationRefusal(
      'bad_request',
      say('refusal.adjudication.sLongASpokenRationale', { source, value: Math.round(audioMs / 1000), value2: MAX_RATIONALE_MS / 1000 }),
    );
  const { thinkaloud, schema } = project.config;
  const { engine, model } = await openRationaleEngine(project, options);
  try {
    const result = await engine.transcribe({
      pcm,
      settings: {
        language: decodeLanguageFor(thinkaloud.languages),
        initialPrompt: projectInitialPrompt({ labels: schema.labels, languages: thinkaloud.languages, stems: thinkaloud.stems }),
        tokenTimestamps: false,
      },
      identity: { request_id: randomUUID(), item_id: itemId, utterance: 0 },
    });
    const text = result.segments
      .map((s) => s.text)
      .join('')
      .trim();
    const sha256 = createHash('sha256').update(wav).digest('hex');
    const dir = path.relative(path.resolve(project.dir), adjudicationPaths(project.dir, adjudicator).dir);
    return {
      rationale: {
        kind: 'spoken',
        text,
        // forward slashes: the log reads the same on every platform
        audio: [...dir.split(path.sep), 'rationales', `${sha256}.wav`].join('/'),
        audio_sha256: sha256,
        audio_ms: audioMs,
        model,
      },
      wav,
    };
  } finally {
    await engine.close();
  }
}

/** Reads a WAV file the lead names (CLI): its bytes, or a one-line refusal naming the file. */
export async function readRationaleFile(file: string): Promise<Uint8Array> {
  const found = await stat(file).catch(() => null);
  if (!found?.isFile()) throw new AdjudicationRefusal('bad_request', say('refusal.adjudication.rationaleAudioIsNotA', { file }));
  if (found.size > 64 * 1024 * 1024)
    throw new AdjudicationRefusal('bad_request', say('refusal.adjudication.rationaleAudioIsOverMb', { file }));
  return readFile(file);
}

/**
 * Keeps the rationale's WAV in the adjudicator's own folder under its sha256 (WAV first, then the event saying so:
 * the log never names a file that is not there). The same recording again is the same file, never rewritten.
 */
export async function keepRationaleAudio(project: OpenProject, transcribed: TranscribedRationale): Promise<void> {
  const target = path.join(path.resolve(project.dir), ...transcribed.rationale.audio.split('/'));
  const existing = await readFile(target).catch(() => null);
  if (existing !== null && createHash('sha256').update(existing).digest('hex') === transcribed.rationale.audio_sha256) return;
  await mkdir(path.dirname(target), { recursive: true });
  await writeFileAtomic(target, transcribed.wav);
}
