import { describe, expect, it } from 'vitest';
import { CaptureError, audioFailure, captureErrorFromMediaError } from '../../../renderer/src/capture/captureErrors';

describe('captureErrorFromMediaError', () => {
  const cases: Array<[string, string]> = [
    ['NotAllowedError', 'permission_denied'],
    ['SecurityError', 'permission_denied'],
    ['NotFoundError', 'no_device'],
    ['OverconstrainedError', 'no_device'],
    ['NotReadableError', 'device_in_use'],
    ['AbortError', 'device_in_use'],
    ['TypeError', 'unsupported'],
    ['InvalidStateError', 'audio_failed'],
  ];
  for (const [name, code] of cases) {
    it(`maps ${name} to ${code}, keeping the browser's words`, () => {
      const original = new DOMException('the browser said so', name);
      const error = captureErrorFromMediaError(original);
      expect(error).toBeInstanceOf(CaptureError);
      expect(error.code).toBe(code);
      expect(error.message).toContain(`${name}: the browser said so`);
      expect(error.cause).toBe(original);
    });
  }

  it('names the constraint Chromium reports for a missing chosen device', () => {
    const overconstrained = Object.assign(new Error(''), { name: 'OverconstrainedError', constraint: 'deviceId' });
    const error = captureErrorFromMediaError(overconstrained);
    expect(error.code).toBe('no_device');
    expect(error.message).toMatch(/No microphone was found.*constraint: deviceId/);
  });

  it('tells the person what to do', () => {
    expect(captureErrorFromMediaError(new DOMException('', 'NotAllowedError')).message).toMatch(/Allow microphone access/);
    expect(captureErrorFromMediaError(new DOMException('', 'NotReadableError')).message).toMatch(/another application/);
    expect(new CaptureError('device_lost').message).toMatch(/recorded up to then is kept/);
  });

  it('passes a CaptureError through and wraps graph failures as audio_failed with the step', () => {
    const lost = new CaptureError('device_lost');
    expect(captureErrorFromMediaError(lost)).toBe(lost);
    const failure = audioFailure('loading the capture AudioWorklet', new DOMException('bad module', 'AbortError'));
    expect(failure.code).toBe('audio_failed');
    expect(failure.message).toContain('loading the capture AudioWorklet: AbortError: bad module');
    expect(captureErrorFromMediaError('weird').code).toBe('audio_failed');
  });
});
