import { describe, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../../electron/policy/appOrigin';
import { isNavigationAllowed, isRequestAllowed } from '../../../electron/policy/navigation';

describe('isNavigationAllowed', () => {
  it.each(['aloud://app/', 'aloud://app/index.html', 'aloud://app/index.html?reload=1', 'aloud://app/#/review'])(
    'allows a reload of the app page: %s',
    (url) => {
      expect(isNavigationAllowed(url, APP_ORIGIN)).toBe(true);
    },
  );

  it.each([
    'https://example.com/',
    'http://localhost:5173/',
    'file:///home/me/notes.txt',
    'file:///C:/Windows/',
    'aloud://app/assets/index.js',
    'aloud://app/item-audio/demo-01',
    'aloud://app/../../etc/passwd',
    'aloud://app.evil.com/index.html',
    'aloud://app@evil/index.html',
    'javascript:alert(1)',
    'data:text/html,<h1>hi</h1>',
    'blob:aloud://app/123',
    'about:blank',
    'mailto:someone@example.com',
    'chrome://gpu',
    'aloud://app\u0000/index.html',
    '',
  ])('denies %j', (url) => {
    expect(isNavigationAllowed(url, APP_ORIGIN)).toBe(false);
  });
});

describe('isRequestAllowed (no network)', () => {
  it.each([
    'aloud://app/index.html',
    'aloud://app/assets/a.js',
    'aloud://app/item-audio/x',
    'blob:aloud://app/2b1c',
    'data:image/png;base64,AAAA',
    'devtools://devtools/bundled/inspector.html',
  ])('allows %s', (url) => {
    expect(isRequestAllowed(url, APP_ORIGIN)).toBe(true);
  });

  it.each([
    'https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-tiny.en.bin',
    'http://127.0.0.1:8080/',
    'ws://127.0.0.1:1234/',
    'wss://example.com/',
    'ftp://example.com/',
    'file:///etc/passwd',
    'blob:https://example.com/2b1c',
    'blob:null/2b1c',
    'aloud://app.evil.com/',
    'aloud://evil/',
    'chrome-extension://abc/x.js',
    'javascript:void(0)',
    'not a url',
  ])('cancels %s', (url) => {
    expect(isRequestAllowed(url, APP_ORIGIN)).toBe(false);
  });
});
