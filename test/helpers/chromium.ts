import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';

/** Debian's chromium package; playwright-core drives it, no browser is downloaded. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export interface ChromiumLaunchOptions {
  executablePath?: string;
  /** WAV file the fake microphone plays (16-bit PCM); omitted: Chromium's default beep */
  fakeAudioFile?: string;
  /** replay the fake audio file forever instead of once (`%noloop`); default false */
  loopFakeAudio?: boolean;
  /** use fake capture devices instead of real hardware; default true */
  fakeMediaDevices?: boolean;
  /** accept media permission prompts automatically; default true. false: prompts are not accepted */
  acceptMediaPrompts?: boolean;
  /** default 1280×800; null: no fixed viewport */
  viewport?: { width: number; height: number } | null;
  /** where screenshot() writes; default: `screenshots/` inside the session's temporary folder */
  screenshotsDir?: string;
  /** the browser's language (navigator.language, Accept-Language), e.g. 'de-DE'; default Chromium's own */
  locale?: string;
  extraArgs?: string[];
}

export interface ChromiumSession {
  readonly context: BrowserContext;
  /** the fresh profile folder (--user-data-dir), deleted by close() */
  readonly userDataDir: string;
  /** console errors and uncaught exceptions of every page, as "url: text" lines */
  readonly pageErrors: string[];
  newPage(): Promise<Page>;
  /** saves a full-page PNG as `<screenshotsDir>/<name>.png` and returns its path */
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

/** Why Chromium tests cannot run here (a missing browser or fixture), or undefined when they can. */
export function chromiumUnavailableReason(requiredFiles: string[] = [], executablePath = DEBIAN_CHROMIUM): string | undefined {
  if (!existsSync(executablePath)) return `${executablePath} is not installed (Debian package "chromium")`;
  const missing = requiredFiles.find((file) => !existsSync(file));
  return missing ? `fixture ${missing} is absent` : undefined;
}

/** Command-line switches for a quiet, reproducible headless Chromium (headless and --no-sandbox come from playwright). */
export function chromiumArgs(options: ChromiumLaunchOptions = {}): string[] {
  const args = [
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // Audio must start without a click: the tests have no user gesture.
    '--autoplay-policy=no-user-gesture-required',
  ];
  if (options.acceptMediaPrompts ?? true) args.push('--use-fake-ui-for-media-stream');
  if (options.fakeMediaDevices ?? true) args.push('--use-fake-device-for-media-stream');
  if (options.fakeAudioFile) {
    if (options.fakeAudioFile.includes('%')) throw new Error(`fake audio file path must not contain "%": ${options.fakeAudioFile}`);
    args.push(`--use-file-for-fake-audio-capture=${options.fakeAudioFile}${options.loopFakeAudio ? '' : '%noloop'}`);
  }
  if (options.locale) args.push(`--lang=${options.locale}`);
  return [...args, ...(options.extraArgs ?? [])];
}

/** Launches headless Chromium with a fresh profile. Always `close()` it (e.g. in afterAll). */
export async function launchChromium(options: ChromiumLaunchOptions = {}): Promise<ChromiumSession> {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'aloud-chromium-'));
  const screenshotsDir = options.screenshotsDir ?? path.join(userDataDir, 'screenshots');
  const pageErrors: string[] = [];
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: options.executablePath ?? DEBIAN_CHROMIUM,
      headless: true,
      args: chromiumArgs(options),
      viewport: options.viewport === undefined ? { width: 1280, height: 800 } : options.viewport,
      ...(options.locale ? { locale: options.locale } : {}),
      timeout: 30_000,
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
  const watch = (page: Page): void => {
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') pageErrors.push(`${page.url()}: ${message.text()}`);
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);

  return {
    context,
    userDataDir,
    pageErrors,
    newPage: () => context.newPage(),
    async screenshot(page, name) {
      await mkdir(screenshotsDir, { recursive: true });
      const file = path.join(screenshotsDir, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await context.close().catch(() => undefined);
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
