import { describe, expect, it } from 'vitest';
import type { AloudApi } from '../../../../core/common/contract/aloudApi';
import { Refusal as ApiError } from '../../../../core/common/refusal/refusal';
import { ALOUD_METHODS, API_METHODS, apiOverCall } from '../../../../core/common/contract/apiMethods';
import { SessionLogError } from '../../../../core/common/session/sessionLog';
import { dispatchApiCall } from '../../../../core/node/app/apiDispatcher';
import { asRefusal as toApiError } from '../../../../core/common/refusal/refusal';
import type { AppContext } from '../../../../core/node/app/appContext';
import { apiHandlers } from '../../../../core/node/app/appService';
import { SessionLockedError } from '../../../../core/node/session/sessionLock';
import { SessionNameError } from '../../../../core/node/session/sessionPaths';

/** An API whose every method records its call and answers with its own name. */
function recordingApi(calls: Array<[string, unknown[]]>): AloudApi {
  return apiOverCall(async (method, args) => {
    calls.push([method, args]);
    return method;
  });
}

describe('the one dispatcher', () => {
  it('has a handler for every method of the contract table, and the client derives every method', () => {
    const handlers = apiHandlers({} as AppContext);
    for (const method of ALOUD_METHODS) expect(typeof handlers[method], method).toBe('function');
    const calls: Array<[string, unknown[]]> = [];
    const api = recordingApi(calls);
    expect(Object.keys(api).sort()).toEqual([...ALOUD_METHODS].sort());
  });

  it('calls the handler with exactly the checked arguments and returns its result', async () => {
    const calls: Array<[string, unknown[]]> = [];
    expect(await dispatchApiCall(recordingApi(calls), 'commitLabel', ['Polite', 'key'])).toEqual({ ok: true, result: 'commitLabel' });
    expect(calls).toEqual([['commitLabel', ['Polite', 'key']]]);
  });

  it.each<[string, unknown, unknown]>([
    ['an unknown method', 'rm', []],
    ['an Object.prototype name', '__proto__', []],
    ['hasOwnProperty', 'hasOwnProperty', []],
    ['a non-string method', 7, []],
    ['missing arguments', 'openItem', []],
    ['args not a list', 'openItem', { 0: 'demo-01', length: 1 }],
    ['binary as a list of numbers', 'appendAudio', [[0, 1]]],
  ])('refuses %s with bad_request before any handler runs', async (_what, method, args) => {
    const calls: Array<[string, unknown[]]> = [];
    const outcome = await dispatchApiCall(recordingApi(calls), method, args);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(calls).toEqual([]);
  });

  it('answers conflict without a project, and lets a host refuse a method through beforeCall', async () => {
    expect(await dispatchApiCall(null, 'appInfo', [])).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const calls: Array<[string, unknown[]]> = [];
    const outcome = await dispatchApiCall(recordingApi(calls), 'session', [], {
      beforeCall: () => {
        throw new ApiError('conflict', 'another page');
      },
    });
    expect(outcome).toEqual({ ok: false, error: { code: 'conflict', message: 'another page' } });
    expect(calls).toEqual([]);
  });

  it('maps user errors to 4xx codes, and only the unforeseen to internal', () => {
    expect(toApiError(new SessionNameError('annotator "‮x" contains bidi controls')).code).toBe('bad_request');
    expect(toApiError(new SessionLockedError('locked by pid 1', 'session.lock', null)).code).toBe('conflict');
    expect(toApiError(new SessionLogError('events.jsonl', 3, 'not JSON')).code).toBe('conflict');
    expect(toApiError(new TypeError('x is undefined')).code).toBe('internal');
  });

  it('marks the binary methods (audio chunks, a spoken rationale) and the session-taking ones (open as the annotator, or review as someone else)', () => {
    expect(ALOUD_METHODS.filter((m) => API_METHODS[m].binary)).toEqual(['appendAudio', 'spokenRationaleAudio']);
    expect(ALOUD_METHODS.filter((m) => API_METHODS[m].scope === 'takes-session')).toEqual(['openSession', 'reviewSession']);
  });
});
