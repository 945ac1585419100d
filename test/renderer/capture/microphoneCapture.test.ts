/**
 * The capture module in real headless Chromium (Debian's /usr/bin/chromium via playwright-core),
 * with the fake microphone playing ../shared/fixtures/audio/commit-polite.wav once (%noloop).
 *
 * When to stop: the fake device starts the file when the microphone opens and, once it has played
 * the file, keeps repeating its last 10 ms buffer (a later Chromium may send zeros instead, which
 * also repeat). So the test records until clip length + 0.6 s, stops, and finds the file's end in
 * the recording as the point from which the signal repeats exactly with a 10 ms period; real audio,
 * even the clip's dithered silence, never does.
 *
 * What is ours is judged against what the audio graph gave the capture worklet, not against the file: a tap worklet
 * on the same source node (harnessPage.ts) records every quantum the capture saw. On a busy machine Chromium's fake
 * device slips (pads an under-run, drops a buffer); those slips are in the tap too, so the chunks must equal the tap
 * exactly (16 kHz) or the tap through our resampler (48 kHz), however loaded the machine is. The file is then only
 * needed to show the device played it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeChunkFrame } from '../../../core/common/audio/chunkFrame';
import { rmsDbfs } from '../../../core/common/signals/frameLevels';
import { SincResampler } from '../../../core/common/audio/sincResampler';
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

/** Float32 samples from the harness's base64. */
function floatsFromBase64(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/**
 * What the capture should have delivered, from what the tap saw: the tap's samples from the quantum the capture's
 * first chunk starts at (at 16 kHz as they are, else through the worklet's SincResampler). Found by trying each of the
 * first 200 quanta; null when none gives the first chunk (within 1e-6).
 */
function expectedFromTap(tap: Float32Array, tapRate: number, firstChunk: Float32Array): { quantum: number; expected: Float32Array } | null {
  const render = (from: number, limit: number): Float32Array => {
    if (tapRate === RATE) return tap.subarray(from, limit === Infinity ? tap.length : from + limit);
    const resampler = new SincResampler(tapRate, RATE);
    const out: Float32Array[] = [];
    let length = 0;
    for (let at = from; at < tap.length && length < limit; at += 128) {
      // (process() answers in a buffer of its own that the next call reuses)
      const block = resampler.process(tap.subarray(at, Math.min(tap.length, at + 128))).slice();
      out.push(block);
      length += block.length;
    }
    const joined = new Float32Array(length);
    let k = 0;
    for (const block of out) {
      joined.set(block, k);
      k += block.length;
    }
    return joined;
  };
  for (let quantum = 0; quantum < 200 && quantum * 128 < tap.length; quantum++) {
    const head = render(quantum * 128, firstChunk.length);
    if (head.length >= firstChunk.length && firstChunk.every((x, i) => Math.abs(x - head[i]!) <= 1e-6))
      return { quantum, expected: render(quantum * 128, Infinity) };
  }
  return null;
}

/** Where `recording` and `expected` first differ by more than 1e-6 over their first `n` samples (-1: nowhere). */
function firstDifference(recording: Float32Array, expected: Float32Array, n: number): number {
  for (let i = 0; i < n; i++) if (!(Math.abs(recording[i]! - expected[i]!) <= 1e-6)) return i;
  return -1;
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
      // the fake device plays in real time, a loaded machine's page answers late: a bound on the wait, not a measure
      60_000,
      200,
    );
    const totals = await page.evaluate(() => captureHarness.stop());
    const status = await page.evaluate(() => captureHarness.status());
    const records = await page.evaluate(() => captureHarness.chunks());
    const meters = await page.evaluate(() => captureHarness.meterReadings());
    const tapped = await page.evaluate(() => captureHarness.tapRecording());
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

    // Ours, exactly: the chunks are what the graph gave the worklet (the tap), from one quantum on, nothing dropped,
    // repeated or altered; at 48 kHz, that through the worklet's resampler (the last 50 ms are the resampler's tail,
    // flushed against silence at stop). Whatever the device slipped is in both.
    const tap = floatsFromBase64(tapped.pcmBase64);
    expect(tapped.sampleRate).toBe(started.contextSampleRate);
    const found = expectedFromTap(tap, tapped.sampleRate, recording.subarray(0, CHUNK));
    expect(found, 'the first chunk is what the source node delivered from one of its first quanta').not.toBeNull();
    const compared = recording.length - (started.resampling ? 0.05 * RATE : 0);
    expect(found!.expected.length).toBeGreaterThanOrEqual(compared);
    const differs = firstDifference(recording, found!.expected, compared);
    expect(differs, `the chunks differ from what the worklet was given at ${ms(differs)} ms`).toBe(-1);
    // Each chunk's level and peak are those of its own samples; each meter reading those of its 50 ms.
    const sameLevel = (a: number, b: number) => a === b || Math.abs(a - b) < 0.01;
    const peakOf = (samples: Float32Array) => {
      const peak = samples.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
      return peak > 0 ? 20 * Math.log10(peak) : -Infinity;
    };
    for (const r of records) {
      const own = recording.subarray(r.startSample, r.startSample + r.length);
      expect(sameLevel(r.levelDbfs, rmsDbfs(own)), `level of the chunk at ${ms(r.startSample)} ms`).toBe(true);
      expect(sameLevel(r.peakDbfs, peakOf(own)), `peak of the chunk at ${ms(r.startSample)} ms`).toBe(true);
    }
    expect(meters.map((m) => m.endSample).slice(0, 5)).toEqual([800, 1600, 2400, 3200, 4000]);
    expect(meters.at(-1)!.endSample).toBe(recording.length);
    meters.forEach((m, i) => {
      const from = i === 0 ? 0 : meters[i - 1]!.endSample;
      expect(sameLevel(m.levelDbfs, rmsDbfs(recording, from, m.endSample)), `meter ending at ${ms(m.endSample)} ms`).toBe(true);
    });

    // The device's part: it played the file (so the comparison above was of speech, not of silence) and ran out of it
    // before the stop. Its slips on a loaded machine are Chromium's, counted here and written out, not bounded.
    const fileEnd = fakeFileEnd(recording);
    expect(recording.length - fileEnd, 'the recording goes on past the end of the file').toBeGreaterThan(0.35 * RATE);
    const head = locateAround(recording, clip, 0.25, 0);
    expect(head.correlation, 'the recording opens with the clip').toBeGreaterThan(0.95);
    expect(Math.abs(head.offset), 'the start of the clip is not lost').toBeLessThanOrEqual(0.05 * RATE);
    const tail = locateAround(recording, clip, 7.2, head.offset);
    const slips = tail.correlation > 0.95 ? Math.round((tail.offset - head.offset) / FAKE_DEVICE_PERIOD) : null;
    console.info(
      `[capture] the fake device: ${slips === null ? 'slipped too often to match the last words' : `${slips} slip(s) of 10 ms`}; the file ended at ${ms(fileEnd)} ms (clip ${ms(clip.length)} ms); capture from quantum ${found!.quantum}`,
    );

    // Levels as the annotator sees them: the middle of the 2 s pause (5.097 s → 7.097 s of the clip) is silent, speech
    // is loud (margins of 0.3 s leave room for the device's slips before them).
    const clipSeconds = (sample: number) => (sample - head.offset) / RATE;
    const within = (from: number, to: number, lo: number, hi: number) => clipSeconds(from) >= lo && clipSeconds(to) <= hi;
    const inPause = records.filter((r) => within(r.startSample, r.startSample + r.length, 5.4, 6.8));
    expect(inPause.length).toBeGreaterThanOrEqual(9);
    for (const r of inPause) expect(r.levelDbfs, `chunk at ${clipSeconds(r.startSample).toFixed(2)} s`).toBeLessThan(-45);
    const firstPart = records
      .filter((r) => within(r.startSample, r.startSample + r.length, 0, 4.8))
      .map((r) => r.levelDbfs)
      .sort((a, b) => a - b);
    expect(firstPart[Math.floor(firstPart.length / 2)]!).toBeGreaterThan(-30);
    return { started, fileEnd };
  }

  it('delivers the clip as 16 kHz mono 50 ms chunks (the default) at a 16 kHz AudioContext', { timeout: 90_000 }, async () => {
    const { started } = await recordClip({});
    expect(started.contextSampleRate).toBe(16_000);
    expect(started.resampling).toBe(false);
  });

  it('delivers the same from a 48 kHz AudioContext, resampled to 16 kHz in the worklet', { timeout: 90_000 }, async () => {
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

  /** Starts a capture of 200 ms chunks, pulls the plug 1.2 s in, at least 50 ms into a chunk, and collects what came out. */
  async function loseDevice(dispatchEnded: boolean) {
    const page = await openHarness();
    // This one loads the worklet from a file on the page's origin instead of a Blob URL.
    const started = await start(page, { workletModuleUrl: server.workletUrl, chunkMs: 200 });
    expect(started.chunkSamples).toBe(LONG_CHUNK);
    expect(started.resampling).toBe(false);
    const reached = await waitFor(
      page,
      () => captureHarness.meterReadings().at(-1)?.endSample ?? 0,
      (end) => end >= 19_200 && end % LONG_CHUNK >= 800 && end % LONG_CHUNK <= 2400,
      15_000,
      20,
    );
    await page.evaluate((ended) => captureHarness.stopTrack({ dispatchEnded: ended }), dispatchEnded);
    const status = await waitFor(
      page,
      () => captureHarness.status(),
      (s) => s.finished !== null && s.errors.length > 0,
      15_000,
      50,
    );
    const records = await page.evaluate(() => captureHarness.chunks());
    const totals = await page.evaluate(() => captureHarness.stop());
    const loss = await page.evaluate(() => captureHarness.lossTimes());
    const tapped = await page.evaluate(() => captureHarness.tapRecording());
    await page.close();
    return { reached, status, records, totals, loss, tap: floatsFromBase64(tapped.pcmBase64) };
  }

  for (const dispatchEnded of [true, false]) {
    const how = dispatchEnded ? 'its track fires `ended`' : 'its track is stopped by script, without an event';
    it(`keeps what was recorded when the device is lost (${how}), then reports device_lost`, { timeout: 90_000 }, async () => {
      // The plug is pulled with part of a chunk pending; on a loaded machine the chunk may fill before the loss is acted
      // on, and then there is no partial chunk to keep: such a try proves nothing about it, and the loss is tried again.
      let lost = await loseDevice(dispatchEnded);
      for (let tries = 1; tries < 3 && lost.records.at(-1)!.length === LONG_CHUNK; tries++) lost = await loseDevice(dispatchEnded);
      const { reached, status, records, totals, loss, tap } = lost;

      expect(status.errors.map((e) => e.code)).toEqual(['device_lost']);
      expect(status.errors[0]!.message).toMatch(/disconnected while recording.*kept/);
      // Every chunk, the partial last one included, arrived before the error.
      expect(status.events.at(-1)).toBe('error:device_lost');
      expect(status.events.filter((e) => e.startsWith('chunk:'))).toHaveLength(records.length);
      const recording = joinChunks(records);
      expect(records.at(-1)!.length, 'three tries, and each time the chunk filled before the loss was acted on').toBeLessThan(LONG_CHUNK);
      expect(recording.length).toBeGreaterThanOrEqual(reached);
      // Everything the worklet was given up to the loss is kept, unaltered (the tap saw the same quanta).
      const found = expectedFromTap(tap, RATE, recording.subarray(0, CHUNK));
      expect(found, 'the first chunk is what the source node delivered').not.toBeNull();
      expect(firstDifference(recording, found!.expected, recording.length), 'the kept audio is what the worklet was given').toBe(-1);
      // Nothing invented after the loss: a stopped track feeds the graph digital zeros until the loss is acted on (at
      // once on an `ended` event, else at the next 50 ms watch), and no more than the time that took (page clock).
      let trailingZeros = 0;
      while (trailingZeros < recording.length && recording[recording.length - 1 - trailingZeros] === 0) trailingZeros++;
      expect(loss.stoppedAt).not.toBeNull();
      expect(loss.reportedAt).not.toBeNull();
      const actedAfterMs = loss.reportedAt! - loss.stoppedAt!;
      expect(trailingZeros, `zeros after the loss; it was acted on ${actedAfterMs.toFixed(0)} ms after the stop`).toBeLessThanOrEqual(
        Math.ceil((actedAfterMs * RATE) / 1000) + 2 * 128,
      );
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
