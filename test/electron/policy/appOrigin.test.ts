import { describe, expect, it } from 'vitest';
import { APP_ORIGIN, isAppUrl, parseStrictUrl } from '../../../electron/policy/appOrigin';

describe('isAppUrl', () => {
  it.each([
    'aloud://app',
    'aloud://app/',
    'aloud://app/index.html',
    'aloud://app/assets/index-3f2a.js?x=1#top',
    'aloud://app/item-audio/demo-01',
  ])('accepts %s', (url) => {
    expect(isAppUrl(url, APP_ORIGIN)).toBe(true);
  });

  it.each([
    ['file:///etc/passwd'],
    ['file://app/index.html'],
    ['https://app/index.html'],
    ['http://localhost:5173/'],
    ['aloud://app.evil.com/'],
    ['aloud://evil.com/app'],
    ['aloud://app@evil/'],
    ['aloud://app:pw@app/'],
    ['aloud://user@app/'],
    ['aloud://app:8080/'],
    ['aloud://appx/'],
    ['aloud://ap/'],
    ['aloud:app/index.html'],
    ['aloud:///app/index.html'],
    ['aloudx://app/'],
    ['javascript:alert(1)//aloud://app/'],
    ['data:text/html,aloud://app/'],
    ['blob:aloud://app/1234'],
    ['aloud://app\u0000.evil/'],
    ['\u0000aloud://app/'],
    [' aloud://app/'],
    ['aloud://app/\nx'],
    ['aloud://app\\@evil/'],
    ['aloud://%61pp/'],
    ['about:blank'],
    ['chrome://settings'],
    ['devtools://devtools/bundled/inspector.html'],
    [''],
    ['not a url'],
  ])('refuses %j', (url) => {
    expect(isAppUrl(url, APP_ORIGIN)).toBe(false);
  });

  it('refuses values that are not strings', () => {
    for (const value of [null, undefined, 42, {}, ['aloud://app/'], new URL('aloud://app/')])
      expect(isAppUrl(value, APP_ORIGIN)).toBe(false);
  });

  it('compares with the given origin, not a fixed one', () => {
    expect(isAppUrl('aloud://other/x', 'aloud://other')).toBe(true);
    expect(isAppUrl('aloud://app/x', 'aloud://other')).toBe(false);
    expect(isAppUrl('aloud://app/x', 'not an origin')).toBe(false);
  });

  it('refuses overlong strings', () => {
    expect(isAppUrl(`aloud://app/${'a'.repeat(9000)}`, APP_ORIGIN)).toBe(false);
    expect(parseStrictUrl(`aloud://app/${'a'.repeat(100)}`)).not.toBeNull();
  });
});
