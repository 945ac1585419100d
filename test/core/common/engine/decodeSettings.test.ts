import { describe, expect, it } from 'vitest';
import {
  audioCtxForSamples,
  decodeLanguageFor,
  DEFAULT_DECODE_SETTINGS,
  DEFAULT_INITIAL_PROMPT,
  resolveDecodeSettings,
} from '../../../../core/common/engine/decodeSettings';
import { EngineError, parseSystemInfo } from '../../../../core/common/engine/engineTypes';

describe('audioCtxForSamples', () => {
  it('is min(1500, ceil(seconds × 50) + 128)', () => {
    expect(audioCtxForSamples(5 * 16000)).toBe(378);
    expect(audioCtxForSamples(16000)).toBe(178);
    expect(audioCtxForSamples(16001)).toBe(179); // a sample over 1 s rounds the frames up
    expect(audioCtxForSamples(1)).toBe(129);
    expect(audioCtxForSamples(27.44 * 16000)).toBe(1500);
    expect(audioCtxForSamples(27.4 * 16000)).toBe(1498);
    expect(audioCtxForSamples(60 * 16000)).toBe(1500);
    expect(audioCtxForSamples(8000, 8000)).toBe(178);
  });
});

describe('decode settings', () => {
  it('defaults to verbatim greedy decoding with a limited fallback and no non-speech suppression', () => {
    const s = resolveDecodeSettings();
    expect(s).toEqual(DEFAULT_DECODE_SETTINGS);
    expect(s.initialPrompt).toBe(DEFAULT_INITIAL_PROMPT);
    expect(s.initialPrompt).toBe('Um, uh, hmm, er, ah.');
    expect(s.suppressNonSpeechTokens).toBe(false);
    expect(s.temperature).toBe(0);
    expect(s.audioCtx).toBeNull();
  });

  it('takes overrides and ignores undefined fields', () => {
    const s = resolveDecodeSettings({ initialPrompt: '', language: 'auto', tokenTimestamps: true, bestOf: undefined });
    expect(s.initialPrompt).toBe('');
    expect(s.language).toBe('auto');
    expect(s.tokenTimestamps).toBe(true);
    expect(s.bestOf).toBe(DEFAULT_DECODE_SETTINGS.bestOf);
  });

  it.each([
    [{ language: 'English' }, 'language'],
    [{ temperature: 1.5 }, 'temperature'],
    [{ temperatureInc: -0.1 }, 'temperatureInc'],
    [{ bestOf: 0 }, 'bestOf'],
    [{ bestOf: 2.5 }, 'bestOf'],
    [{ threads: -1 }, 'threads'],
    [{ audioCtx: 0 }, 'audioCtx'],
    [{ audioCtx: 1501 }, 'audioCtx'],
    [{ initialPrompt: 3 as unknown as string }, 'initialPrompt'],
    [{ tokenTimestamps: 'yes' as unknown as boolean }, 'tokenTimestamps'],
  ])('refuses %j naming the field', (partial, field) => {
    let error: unknown;
    try {
      resolveDecodeSettings(partial);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('bad_settings');
    expect((error as Error).message).toContain(`decode setting ${field} `);
  });

  it('decodes the one project language, or detects among several', () => {
    expect(decodeLanguageFor(['en'])).toBe('en');
    expect(decodeLanguageFor(['en', 'de'])).toBe('auto');
  });
});

describe('parseSystemInfo', () => {
  it('reads whisper.cpp system info into flags', () => {
    const simd = parseSystemInfo('AVX = 1 | AVX2 = 1 | AVX512 = 0 | FMA = 1 | NEON = 0 | CANN = 0');
    expect(simd).toEqual({ AVX: true, AVX2: true, AVX512: false, FMA: true, NEON: false, CANN: false });
    expect(parseSystemInfo('')).toEqual({});
  });
});
