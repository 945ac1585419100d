import { describe, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../../electron/policy/appOrigin';
import { isTrustedSender, type IpcSender } from '../../../electron/policy/ipcSender';

const ours: IpcSender = { senderUrl: 'aloud://app/index.html', isMainFrame: true, senderId: 3, mainWindowId: 3 };

describe('isTrustedSender', () => {
  it('trusts the top frame of our window on our origin', () => {
    expect(isTrustedSender(ours, APP_ORIGIN)).toBe(true);
    expect(isTrustedSender({ ...ours, senderUrl: 'aloud://app/' }, APP_ORIGIN)).toBe(true);
  });

  it('refuses another webContents (a devtools page, a stray window)', () => {
    expect(isTrustedSender({ ...ours, senderId: 4 }, APP_ORIGIN)).toBe(false);
  });

  it('refuses before our window exists', () => {
    expect(isTrustedSender({ ...ours, mainWindowId: null }, APP_ORIGIN)).toBe(false);
  });

  it('refuses a sub-frame of our window, even on our origin', () => {
    expect(isTrustedSender({ ...ours, isMainFrame: false }, APP_ORIGIN)).toBe(false);
  });

  it.each([
    'https://example.com/',
    'file:///tmp/page.html',
    'aloud://app.evil.com/',
    'aloud://app@evil/',
    'about:blank',
    'data:text/html,x',
    '',
    null,
    undefined,
  ])('refuses our window showing %j', (senderUrl) => {
    expect(isTrustedSender({ ...ours, senderUrl }, APP_ORIGIN)).toBe(false);
  });

  it('refuses ids that are not integers', () => {
    expect(isTrustedSender({ ...ours, senderId: Number.NaN, mainWindowId: Number.NaN }, APP_ORIGIN)).toBe(false);
    expect(isTrustedSender({ ...ours, senderId: 3.5, mainWindowId: 3.5 }, APP_ORIGIN)).toBe(false);
  });
});
