/**
 * The Content-Security-Policy sent with every response of the app protocol. Scripts, workers and the capture
 * AudioWorklet (worklets fall under script-src) load only from our origin: no inline code, no eval, no blob:.
 * Nothing may be fetched from, framed by, or submitted to anywhere else.
 */
/**
 * The review waveform (wavesurfer.js 7) styles its shadow root with one fixed <style> per waveform height: these are
 * the hashes of exactly those stylesheets (96 px waveform, 24 px minimap), not a general inline-style allowance.
 * test/renderer/app/waveformCsp.test.ts recomputes them from the installed wavesurfer.js.
 */
export const WAVEFORM_STYLE_HASHES: readonly string[] = [
  "'sha256-Y/8t1dAKa3ay+RZEiEFEDr8dFiQhpaFvYXXUfT3p6ZU='",
  "'sha256-fCG9v7Aeo4pcPBNxwExZd3hOyojoBXKViwd7g6i2Og0='",
];

export const CSP_DIRECTIVES: ReadonlyArray<readonly [string, string]> = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  ['worker-src', "'self'"],
  ['style-src', ["'self'", ...WAVEFORM_STYLE_HASHES].join(' ')],
  ['img-src', "'self' data:"],
  ['font-src', "'self'"],
  ['media-src', "'self'"],
  ['connect-src', "'self'"],
  ['object-src', "'none'"],
  ['frame-src', "'none'"],
  ['child-src', "'none'"],
  ['manifest-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
  ['frame-ancestors', "'none'"],
];

export const CONTENT_SECURITY_POLICY = CSP_DIRECTIVES.map(([name, sources]) => `${name} ${sources}`).join('; ');

/** Headers every app-protocol response carries, errors included. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
};
