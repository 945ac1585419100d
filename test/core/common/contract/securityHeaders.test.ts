import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../../../core/common/contract/securityHeaders';

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

describe('Content-Security-Policy', () => {
  const policy = directives(CONTENT_SECURITY_POLICY);

  it('loads code only from our origin', () => {
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('worker-src')).toEqual(["'self'"]);
    expect(policy.get('media-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
  });

  it('never allows eval, inline code, blob: code or remote hosts', () => {
    for (const [name, sources] of policy) {
      for (const forbidden of [
        "'unsafe-eval'",
        "'unsafe-inline'",
        "'wasm-unsafe-eval'",
        'blob:',
        '*',
        'http:',
        'https:',
        'ws:',
        'wss:',
        'file:',
      ]) {
        expect(sources, `${name} must not allow ${forbidden}`).not.toContain(forbidden);
      }
    }
  });

  it('forbids plugins, frames, base changes and form posts', () => {
    for (const name of ['object-src', 'frame-src', 'frame-ancestors', 'base-uri', 'form-action'])
      expect(policy.get(name)).toEqual(["'none'"]);
  });

  it('is one header value with each directive once', () => {
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/[\r\n]/);
    expect(policy.size).toBe(CONTENT_SECURITY_POLICY.split(';').length);
    expect(SECURITY_HEADERS['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(SECURITY_HEADERS['X-Content-Type-Options']).toBe('nosniff');
  });
});
