/**
 * The capture module in real headless Chromium (Debian's /usr/bin/chromium via playwright-core),
 * with the fake microphone playing ../shared/fixtures/audio/commit-polite.wav once (%noloop).
 *
 * When to stop: the fake device starts the file when the microphone opens and, once it has played
 * the file, keeps repeating its last 10 ms buffer (a later Chromium may send zeros instead, which
 * also repeat). So the test records until clip length + 0.6 s, stops, and finds the file's end in
 * the recording as the point from which the signal repeats exactly with a 10 ms period; real audio,
 * even the clip's dithered silence, never does. The chunks up to there must add up to the clip.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeChunkFrame } from '../../../core/common/audio/chunkFrame';
import { rmsDbfs } from '../../../core/common/signals/frameLevels';
import { chromiumUnavailableReason, launchChromium } from '../../helpers/chromium';
import type { ChromiumSession } from '../../helpers/chromium';
import type { CaptureHarness, HarnessChunkRecord, HarnessStartOptions, HarnessStartResult } from './harness/harnessPage';
import { startHarnessServer } from './harness/harnessServer';
import type { HarnessServer } from './harness/harnessServer';

declare const captureHarness: CaptureHarness;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const clipPath = path.join(path.resolve(repoRoot, '../shared'), 'fixtures/audio/commit-polite.wav');
const skipReason = chromiumUnavailableReason([clipPath]);
if (skipReason) console.warn(`[capture] Chromium capture tests skipped: ${skipReason}`);

const RATE = 16_000;
const CHUNK = 800; // 50 ms, the default
const LONG_CHUNK = 3200; // 200 ms, asked for where a chunk must be caught half full
const FAKE_DEVICE_PERIOD = 160; // the fake device's 10 ms buffer, at 16 kHz
const ms = (samples: number) => Math.round((samples * 1000) / RATE);

/** The clip's samples (16-bit PCM mono WAV, 16 kHz) as floats. */
function readClip(file: string): Float32Array {
  const bytes = readFileSync(file);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') throw new Error(`${file}: not a WAV file`);
  let offset = 12;
  let format: { channels: number; rate: number; bits: number } | undefined;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = view.getUint32(offset + 4, true);
    if (id === 'fmt ')
      format = {
        channels: view.getUint16(offset + 10, true),
        rate: view.getUint32(offset + 12, true),
        bits: view.getUint16(offset + 22, true),
      };
    if (id === 'data') {
      if (!format || format.channels !== 1 || format.rate !== RATE || format.bits !== 16)
        throw new Error(`${file}: expected 16 kHz mono 16-bit PCM`);
      const pcm = new Float32Array(size / 2);
      for (let i = 0; i < pcm.length; i++) pcm[i] = view.getInt16(offset + 8 + 2 * i, true) / 32768;
      return pcm;
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error(`${file}: no data chunk`);
}

/** Decodes the chunk frames the page produced and checks they tile one timeline. */
function joinChunks(records: HarnessChunkRecord[]): Float32Array {
  const joined = new Float32Array(records.reduce((n, r) => n + r.length, 0));
  let next = 0;
  for (const [i, record] of records.entries()) {
    const frame = decodeChunkFrame(Buffer.from(record.frameBase64, 'base64'));
    expect(frame.startSample, `chunk ${i} starts where chunk ${i - 1} ended`).toBe(next);
    expect(frame.pcm.length).toBe(record.length);
    expect(record.transferred, `chunk ${i}: its buffer holds exactly its samples and could be transferred`).toBe(true);
    joined.set(frame.pcm, next);
    next += frame.pcm.length;
  }
  return joined;
}

/**
 * Index from which the recording repeats itself exactly every 10 ms: where the fake device ran out
 * of file. The last 50 ms are left out: at stop() the resampler's filter tail is flushed against silence.
 */
function fakeFileEnd(recording: Float32Array): number {
  let end = FAKE_DEVICE_PERIOD;
  for (let i = recording.length - 1 - 0.05 * RATE; i >= FAKE_DEVICE_PERIOD; i--) {
    const a = recording[i]!;
    const b = recording[i - FAKE_DEVICE_PERIOD]!;
    if (Math.abs(a - b) > 1e-6 + 1e-4 * Math.abs(a)) {
      end = i + 1;
      break;
    }
  }
  return end;
}

/**
 * Where the clip lies in the recording around clip second `from`, as the offset of clip sample 0 (recording[offset +
 * j] ≈ clip[j]): the best of three overlapping half-second windows from there, 0.25 s apart. A slip of the fake
 * device (an under-run padded with one 10 ms buffer) inside a window halves that window's correlation; a single slip
 * lies in at most two of the three, so one window is clean however the machine is loaded.
 */
function locateAround(
  recording: Float32Array,
  clip: Float32Array,
  from: number,
  guessOffset: number,
): { offset: number; correlation: number } {
  let best = { offset: NaN, correlation: -1 };
  for (const start of [from, from + 0.25, from + 0.5]) {
    const found = locate(recording, clip, start * RATE, start * RATE + guessOffset, 0.5);
    if (found.correlation > best.correlation) best = { offset: found.at - start * RATE, correlation: found.correlation };
  }
  return best;
}

/**
 * Where clip sample `clipStart` lies in the recording (normalised cross-correlation of `seconds`,
 * searched ±250 ms around `guess`): recording[at + j] ≈ clip[clipStart + j].
 */
function locate(
  recording: Float32Array,
  clip: Float32Array,
  clipStart: number,
  guess: number,
  seconds = 1,
): { at: number; correlation: number } {
  const window = clip.subarray(clipStart, clipStart + seconds * RATE);
  const windowEnergy = window.reduce((s, x) => s + x * x, 0);
  let best = { at: NaN, correlation: -1 };
  for (let at = guess - 4000; at <= guess + 4000; at++) {
    if (at < 0 || at + window.length > recording.length) continue;
    let dot = 0;
    let energy = 0;
    for (let j = 0; j < window.length; j++) {
      const r = recording[at + j]!;
      dot += r * window[j]!;
      energy += r * r;
    }
    const correlation = dot / Math.sqrt(energy * windowEnergy || 1);
    if (correlation > best.correlation) best = { at, correlation };
  }
  return best;
}

describe.skipIf(skipReason)(`microphone capture in headless Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let server: HarnessServer;
  let chrome: ChromiumSession;
  let clip: Float32Array;

  beforeAll(async () => {
    clip = readClip(clipPath);
    server = await startHarnessServer();
    chrome = await launchChromium({ fakeAudioFile: clipPath });
  });
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  async function openHarness(session = chrome): Promise<Page> {
    const page = await session.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => document.title === 'capture harness ready');
    return page;
  }

  async function start(page: Page, options: HarnessStartOptions): Promise<Extract<HarnessStartResult, { ok: true }>> {
    const started = await page.evaluate((o) => captureHarness.start(o), options);
    if (!started.ok) throw new Error(`capture did not start: ${started.code}: ${started.message}`);
    return started;
  }

  async function waitFor<T>(page: Page, read: () => T, done: (value: T) => boolean, timeoutMs: number, pollMs = 100): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await page.evaluate(read);
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms; last: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /** Records the whole clip plus 0.6 s of the fake device's tail, stops, and checks what came out. */
  async function recordClip(options: HarnessStartOptions) {
    const page = await openHarness();
    const started = await start(page, options);
    expect(started.sampleRate).toBe(RATE);
    expect(started.chunkSamples).toBe(CHUNK);
    await waitFor(
      page,
      () => captureHarness.status().samples,
      (samples) => samples >= clip.length + 0.6 * RATE,
      20_000,
      200,
    );
    const totals = await page.evaluate(() => captureHarness.stop());
    const status = await page.evaluate(() => captureHarness.status());
    const records = await page.evaluate(() => captureHarness.chunks());
    const meters = await page.evaluate(() => captureHarness.meterReadings());
    await page.close();

    // Chunks: 50 ms each, the last one flushed by stop(); they tile the timeline and add up to the totals.
    expect(totals.endedBy).toBe('stop');
    expect(status.errors).toEqual([]);
    expect(records.slice(0, -1).every((r) => r.length === CHUNK)).toBe(true);
    expect(records.at(-1)!.length).toBeGreaterThan(0);
    expect(records.at(-1)!.length).toBeLessThanOrEqual(CHUNK);
    const recording = joinChunks(records);
    expect(totals.samples).toBe(recording.length);
    expect(totals.chunks).toBe(records.length);
    expect(totals.durationMs).toBeCloseTo((recording.length * 1000) / RATE, 6);

    // The clip's length: the chunks up to the point where the fake device ran out of file.
    const fileEnd = fakeFileEnd(recording);
    expect(recording.length - fileEnd, 'the recording goes on past the end of the file').toBeGreaterThan(0.35 * RATE);
    expect(
      Math.abs(fileEnd - clip.length),
      `file ended at ${ms(fileEnd)} ms of recording; clip is ${ms(clip.length)} ms`,
    ).toBeLessThanOrEqual(0.25 * RATE);

    // 16 kHz, nothing dropped or repeated by us: the clip's opening and its last words sit 6.95 s
    // apart in the recording too. A loaded machine can make Chromium's capture path slip by whole
    // 10 ms device buffers (it pads an under-run); a slip of any other size, or more than 3, is ours.
    // (The first window starts 0.25 s in: the clip's first milliseconds may precede the recording.)
    // Each end is judged by its best half-second window (locateAround): a slip inside a window is the device's, and
    // the slips are counted and bounded below, so a loaded machine does not fail the test and a real loss still does.
    const head = locateAround(recording, clip, 0.25, 0);
    const tail = locateAround(recording, clip, 7.2, head.offset);
    expect(head.correlation).toBeGreaterThan(0.95);
    expect(tail.correlation).toBeGreaterThan(0.95);
    /** where clip sample 0 lies in the recording, measured at the start and at the end of the clip */
    const offsets = [head.offset, tail.offset];
    expect(Math.abs(offsets[0]!), 'the start of the clip is not lost').toBeLessThanOrEqual(0.05 * RATE);
    const drift = offsets[1]! - offsets[0]!;
    const slips = Math.round(drift / FAKE_DEVICE_PERIOD);
    expect(Math.abs(drift - slips * FAKE_DEVICE_PERIOD), `drift of ${drift} samples is not whole 10 ms buffers`).toBeLessThanOrEqual(2);
    expect(Math.abs(slips), `drift of ${drift} samples`).toBeLessThanOrEqual(3);

    // Levels: the 2 s pause (5.097 s → 7.097 s of the clip) is silent, speech is loud, and each
    // chunk's level is the clip's own level over the same samples (under either offset, if it slipped).
    const clipSeconds = (sample: number, offset = offsets[0]!) => (sample - offset) / RATE;
    const within = (from: number, to: number, lo: number, hi: number) =>
      offsets.every((o) => clipSeconds(from, o) >= lo && clipSeconds(to, o) <= hi);
    const inPause = records.filter((r) => within(r.startSample, r.startSample + r.length, 5.097, 7.097));
    expect(inPause.length).toBeGreaterThanOrEqual(9);
    for (const r of inPause) expect(r.levelDbfs, `chunk at ${clipSeconds(r.startSample).toFixed(2)} s`).toBeLessThan(-45);
    // (50 ms chunks can fall between two words: the last words are loud in most chunks, not in each)
    const lastWords = records
      .filter((r) => within(r.startSample, r.startSample + r.length, 7.1, 8.3))
      .map((r) => r.levelDbfs)
      .sort((a, b) => a - b);
    expect(lastWords.length).toBeGreaterThanOrEqual(20);
    expect(lastWords[Math.floor(lastWords.length / 4)]!).toBeGreaterThan(-35);
    const firstPart = records
      .filter((r) => within(r.startSample, r.startSample + r.length, 0, 4.8))
      .map((r) => r.levelDbfs)
      .sort((a, b) => a - b);
    expect(firstPart[Math.floor(firstPart.length / 2)]!).toBeGreaterThan(-30);
    // A chunk in which a slip happened holds the pad between two stretches of the clip, so it matches no single
    // offset: at most one such chunk per slip.
    const straddling: string[] = [];
    for (const r of records) {
      expect(r.peakDbfs).toBeGreaterThanOrEqual(r.levelDbfs);
      // a slip can fall anywhere between the two offsets: a 50 ms chunk may sit one device buffer either way
      const candidates = offsets.flatMap((o) => [o - FAKE_DEVICE_PERIOD, o, o + FAKE_DEVICE_PERIOD]);
      const clipLevels = candidates
        .map((o) => r.startSample - o)
        .filter((from) => from >= 0 && from + r.length <= clip.length)
        .map((from) => rmsDbfs(clip, from, from + r.length));
      if (clipLevels.length < candidates.length || Math.max(...clipLevels) <= -50) continue;
      const closest = Math.min(...clipLevels.map((level) => Math.abs(r.levelDbfs - level)));
      if (closest >= 2)
        straddling.push(
          `chunk at ${clipSeconds(r.startSample).toFixed(2)} s: ${r.levelDbfs.toFixed(1)} dBFS vs the clip's ${clipLevels.map((l) => l.toFixed(1))}`,
        );
    }
    expect(straddling.length, `${slips} slip(s): ${straddling.join('; ')}`).toBeLessThanOrEqual(Math.abs(slips));

    // The 50 ms meter covers the same timeline and shows the pause too.
    expect(meters.map((m) => m.endSample).slice(0, 5)).toEqual([800, 1600, 2400, 3200, 4000]);
    expect(meters.at(-1)!.endSample).toBe(recording.length);
    const meterInPause = meters.filter((m) => within(m.endSample - 800, m.endSample, 5.2, 7.0));
    expect(meterInPause.length).toBeGreaterThan(30);
    for (const m of meterInPause) expect(m.levelDbfs).toBeLessThan(-45);
    return { started, fileEnd };
  }

  it('delivers the clip as 16 kHz mono 50 ms chunks (the default) at a 16 kHz AudioContext', { timeout: 30_000 }, async () => {
    const { started } = await recordClip({});
    expect(started.contextSampleRate).toBe(16_000);
    expect(started.resampling).toBe(false);
  });

  it('delivers the same from a 48 kHz AudioContext, resampled to 16 kHz in the worklet', { timeout: 30_000 }, async () => {
    const { started } = await recordClip({ contextSampleRate: 48_000 });
    expect(started.contextSampleRate).toBe(48_000);
    expect(started.resampling).toBe(true);
  });

  it('lists the microphones with labels and records from the chosen one', async () => {
    const page = await openHarness();
    const devices = await page.evaluate(() => captureHarness.listInputDevices(true));
    if (!Array.isArray(devices)) throw new Error(`listInputDevices failed: ${devices.code}: ${devices.message}`);
    expect(devices.length).toBeGreaterThanOrEqual(2);
    expect(devices.every((d) => d.label !== '' && d.deviceId !== '')).toBe(true);
    expect(devices.filter((d) => d.isDefault)).toHaveLength(1);
    const chosen = devices.find((d) => !d.isDefault)!;
    const started = await start(page, { deviceId: chosen.deviceId });
    expect(started.device).toEqual({ deviceId: chosen.deviceId, label: chosen.label });
    await waitFor(
      page,
      () => captureHarness.status().chunks,
      (chunks) => chunks >= 1,
      5000,
    );
    const totals = await page.evaluate(() => captureHarness.stop());
    expect(totals.samples).toBeGreaterThanOrEqual(CHUNK);
    await page.close();
  });

  it('reports a chosen microphone that is not connected as no_device', async () => {
    const page = await openHarness();
    const result = await page.evaluate(() => captureHarness.start({ deviceId: 'unplugged-headset' }));
    expect(result).toMatchObject({ ok: false, code: 'no_device' });
    if (!result.ok) expect(result.message).toMatch(/No microphone was found.*OverconstrainedError/);
    await page.close();
  });

  for (const dispatchEnded of [true, false]) {
    const how = dispatchEnded ? 'its track fires `ended`' : 'its track is stopped by script, without an event';
    it(`keeps what was recorded when the device is lost (${how}), then reports device_lost`, async () => {
      const page = await openHarness();
      // This one loads the worklet from a file on the page's origin instead of a Blob URL.
      const started = await start(page, { workletModuleUrl: server.workletUrl, chunkMs: 200 });
      expect(started.chunkSamples).toBe(LONG_CHUNK);
      expect(started.resampling).toBe(false);
      // Pull the plug 1.2 s in, at least 50 ms into a chunk, so a partial chunk is pending.
      const reached = await waitFor(
        page,
        () => captureHarness.meterReadings().at(-1)?.endSample ?? 0,
        (end) => end >= 19_200 && end % LONG_CHUNK >= 800 && end % LONG_CHUNK <= 2400,
        5000,
        20,
      );
      await page.evaluate((ended) => captureHarness.stopTrack({ dispatchEnded: ended }), dispatchEnded);
      const status = await waitFor(
        page,
        () => captureHarness.status(),
        (s) => s.finished !== null && s.errors.length > 0,
        3000,
        50,
      );
      const records = await page.evaluate(() => captureHarness.chunks());
      const totals = await page.evaluate(() => captureHarness.stop());
      await page.close();

      expect(status.errors.map((e) => e.code)).toEqual(['device_lost']);
      expect(status.errors[0]!.message).toMatch(/disconnected while recording.*kept/);
      // Every chunk, the partial last one included, arrived before the error.
      expect(status.events.at(-1)).toBe('error:device_lost');
      expect(status.events.filter((e) => e.startsWith('chunk:'))).toHaveLength(records.length);
      const recording = joinChunks(records);
      expect(records.at(-1)!.length).toBeLessThan(LONG_CHUNK);
      expect(recording.length).toBeGreaterThanOrEqual(reached);
      // Nothing invented after the loss: a stopped track feeds the graph digital zeros until the
      // 50 ms watch notices it; an `ended` event is acted on at once.
      expect(recording.length).toBeLessThanOrEqual(reached + 0.25 * RATE);
      let trailingZeros = 0;
      while (trailingZeros < recording.length && recording[recording.length - 1 - trailingZeros] === 0) trailingZeros++;
      expect(trailingZeros).toBeLessThanOrEqual(dispatchEnded ? 3 * 128 : 0.1 * RATE);
      expect(totals).toEqual({
        samples: recording.length,
        durationMs: (recording.length * 1000) / RATE,
        chunks: records.length,
        endedBy: 'device_lost',
      });
      expect(status.finished).toEqual(totals);
      // What was kept is the clip's opening words.
      expect(Math.abs(records[0]!.levelDbfs - rmsDbfs(clip, 0, LONG_CHUNK))).toBeLessThan(3);
    });
  }
});

describe.skipIf(skipReason)(`microphone permission in headless Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let server: HarnessServer;
  let chrome: ChromiumSession;

  beforeAll(async () => {
    server = await startHarnessServer();
    // Without --use-fake-ui-for-media-stream nobody accepts the permission prompt: it is denied.
    chrome = await launchChromium({ fakeAudioFile: clipPath, acceptMediaPrompts: false });
  });
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  it('reports a refused microphone as permission_denied, for capture and for unlocking device labels', async () => {
    const page = await chrome.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => document.title === 'capture harness ready');
    const result = await page.evaluate(() => captureHarness.start({}));
    expect(result).toMatchObject({ ok: false, code: 'permission_denied', name: 'CaptureError' });
    if (!result.ok) expect(result.message).toMatch(/Microphone access was denied.*NotAllowedError/);
    expect(await page.evaluate(() => captureHarness.listInputDevices(true))).toMatchObject({ code: 'permission_denied' });
    expect(chrome.pageErrors).toEqual([]);
  });
});
