import { type DecodeSettings, EngineError } from './engineTypes';
import { AUDIO_SAMPLE_RATE } from '../audio/sampleRate';

/** A short disfluent prompt makes whisper keep fillers ("um", "uh") instead of cleaning them away. */
export const DEFAULT_INITIAL_PROMPT = 'Um, uh, hmm, er, ah.';

/** whisper.cpp's encoder window when it is not shortened: 30 s of 20 ms frames. */
export const FULL_AUDIO_CTX = 1500;

/**
 * Greedy decoding with a limited temperature fallback: at most two retries (0.4, 0.8), two candidates
 * each, instead of whisper.cpp's five retries of five candidates.
 */
export const DEFAULT_DECODE_SETTINGS: Readonly<DecodeSettings> = Object.freeze({
  language: 'en',
  initialPrompt: DEFAULT_INITIAL_PROMPT,
  tokenTimestamps: false,
  suppressNonSpeechTokens: false,
  temperature: 0,
  temperatureInc: 0.4,
  bestOf: 2,
  threads: 0,
  audioCtx: null,
});

/** Encoder window for a clip: min(1500, ceil(seconds × 50) + 128) frames, so short utterances encode fast. */
export function audioCtxForSamples(sampleCount: number, sampleRate = AUDIO_SAMPLE_RATE): number {
  const seconds = sampleCount / sampleRate;
  return Math.min(FULL_AUDIO_CTX, Math.ceil(seconds * 50) + 128);
}

/** The decode language for a project's languages: the one language, or detection when there are several. */
export function decodeLanguageFor(languages: readonly string[]): string {
  return languages.length === 1 ? languages[0]! : 'auto';
}

function bad(field: keyof DecodeSettings, message: string): never {
  throw new EngineError('bad_settings', `decode setting ${field} ${message}`);
}

/** Defaults filled in and every field checked; a wrong value names the field. */
export function resolveDecodeSettings(partial: Partial<DecodeSettings> = {}): DecodeSettings {
  const s: DecodeSettings = { ...DEFAULT_DECODE_SETTINGS };
  for (const [key, value] of Object.entries(partial) as Array<[keyof DecodeSettings, unknown]>) {
    if (value !== undefined) (s as unknown as Record<string, unknown>)[key] = value;
  }
  if (typeof s.language !== 'string' || !/^(auto|[a-z]{2,3})$/.test(s.language))
    bad('language', `must be a language code or "auto" (got ${JSON.stringify(s.language)})`);
  if (typeof s.initialPrompt !== 'string') bad('initialPrompt', 'must be a string');
  if (typeof s.tokenTimestamps !== 'boolean') bad('tokenTimestamps', 'must be true or false');
  if (typeof s.suppressNonSpeechTokens !== 'boolean') bad('suppressNonSpeechTokens', 'must be true or false');
  if (typeof s.temperature !== 'number' || !(s.temperature >= 0 && s.temperature <= 1)) bad('temperature', 'must be between 0 and 1');
  if (typeof s.temperatureInc !== 'number' || !(s.temperatureInc >= 0 && s.temperatureInc <= 1))
    bad('temperatureInc', 'must be between 0 and 1');
  if (!Number.isInteger(s.bestOf) || s.bestOf < 1 || s.bestOf > 8) bad('bestOf', 'must be an integer from 1 to 8');
  if (!Number.isInteger(s.threads) || s.threads < 0 || s.threads > 256) bad('threads', 'must be an integer from 0 (engine default) to 256');
  if (s.audioCtx !== null && (!Number.isInteger(s.audioCtx) || s.audioCtx < 1 || s.audioCtx > FULL_AUDIO_CTX)) {
    bad('audioCtx', `must be null (sized to the clip) or an integer from 1 to ${FULL_AUDIO_CTX}`);
  }
  return s;
}
