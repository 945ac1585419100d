import { describe, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../../electron/policy/appOrigin';
import { isPermissionAllowed, type PermissionQuery } from '../../../electron/policy/permissions';

const microphone: PermissionQuery = {
  permission: 'media',
  requestingUrl: 'aloud://app/index.html',
  mediaTypes: ['audio'],
  isMainFrame: true,
  appOrigin: APP_ORIGIN,
};

describe('isPermissionAllowed', () => {
  it('allows audio capture asked by the app page', () => {
    expect(isPermissionAllowed(microphone)).toBe(true);
    // A permission check knows only the origin.
    expect(isPermissionAllowed({ ...microphone, requestingUrl: 'aloud://app' })).toBe(true);
    expect(isPermissionAllowed({ ...microphone, requestingUrl: 'aloud://app/' })).toBe(true);
  });

  it.each([
    ['video', ['video']],
    ['audio and video', ['audio', 'video']],
    ['video and audio', ['video', 'audio']],
    ['no media type', []],
    ['an unknown media type', ['unknown']],
    ['a misspelt type', ['Audio']],
    ['mediaTypes missing', undefined],
    ['mediaTypes null', null],
  ])('refuses %s', (_what, mediaTypes) => {
    expect(isPermissionAllowed({ ...microphone, mediaTypes: mediaTypes as string[] | undefined | null })).toBe(false);
  });

  it.each([
    'notifications',
    'geolocation',
    'display-capture',
    'clipboard-read',
    'clipboard-sanitized-write',
    'midi',
    'midiSysex',
    'hid',
    'serial',
    'usb',
    'openExternal',
    'fullscreen',
    'pointerLock',
    'keyboardLock',
    'idle-detection',
    'storage-access',
    'top-level-storage-access',
    'window-management',
    'fileSystem',
    'mediaKeySystem',
    'speaker-selection',
    'unknown',
    'Media',
    'media ',
  ])('refuses the %s permission even for our own page with audio only', (permission) => {
    expect(isPermissionAllowed({ ...microphone, permission })).toBe(false);
  });

  it('refuses sub-frames, even of our origin', () => {
    expect(isPermissionAllowed({ ...microphone, isMainFrame: false })).toBe(false);
  });

  it.each([
    'https://example.com/',
    'http://127.0.0.1:5173/',
    'file:///home/me/index.html',
    'aloud://app.evil.com/',
    'aloud://app@evil/',
    'aloud://evil/',
    'null',
    '',
    'about:blank',
    'data:text/html,<script>',
    'blob:aloud://app/1-2-3',
  ])('refuses a request from %s', (requestingUrl) => {
    expect(isPermissionAllowed({ ...microphone, requestingUrl })).toBe(false);
  });

  it('refuses a request whose origin is unknown', () => {
    expect(isPermissionAllowed({ ...microphone, requestingUrl: undefined })).toBe(false);
    expect(isPermissionAllowed({ ...microphone, requestingUrl: null })).toBe(false);
  });
});
