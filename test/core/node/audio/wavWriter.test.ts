import { mkdtemp, readFile, stat, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeWav, encodeWavPcm16 } from '../../../../core/node/audio/wavFile';
import { checkPcm16Header, WavWriter } from '../../../../core/node/audio/wavWriter';
import { DurableWriteError } from '../../../../core/node/fs/durableFile';
import { faultyFs } from '../session/faultyFs';

const RATE = 16000;

function tone(samples: number, start = 0): Float32Array {
  const pcm = new Float32Array(samples);
  for (let i = 0; i < samples; i++) pcm[i] = 0.5 * Math.sin((2 * Math.PI * 440 * (start + i)) / RATE);
  return pcm;
}

async function tempWav(): Promise<string> {
  return path.join(await mkdtemp(path.join(tmpdir(), 'aloud-wav-')), 'item.wav');
}

async function headerSamples(file: string): Promise<number> {
  const checked = checkPcm16Header(await readFile(file), RATE);
  if ('problem' in checked) throw new Error(checked.problem);
  return checked.samples;
}

describe('WavWriter', () => {
  it('keeps a valid header: after every flush the file decodes to exactly the audio flushed', async () => {
    const file = await tempWav();
    const { writer, repair } = await WavWriter.open(file, { sampleRate: RATE });
    expect(repair).toBeNull();
    expect(await headerSamples(file)).toBe(0);
    writer.append(tone(8000));
    writer.append(tone(8000, 8000));
    expect(writer.pendingSamples).toBe(16000);
    expect((await stat(file)).size).toBe(44); // nothing written before flush
    expect(await writer.flush()).toBe(16000);
    expect(await headerSamples(file)).toBe(16000);
    writer.append(tone(4000, 16000));
    await writer.close();
    const decoded = decodeWav(await readFile(file), file);
    expect(decoded.truncatedHeader).toBe(false);
    expect(decoded.samples.length).toBe(20000);
    // the same conversion as encodeWavPcm16, so a round trip matches its output exactly
    const expected = decodeWav(encodeWavPcm16(tone(20000), RATE), 'expected');
    expect(decoded.samples).toEqual(expected.samples);
  });

  it('appends to an existing WAV and repairs a header a crash left behind (and a half-written sample)', async () => {
    const file = await tempWav();
    const { writer } = await WavWriter.open(file, { sampleRate: RATE });
    writer.append(tone(16000));
    await writer.flush();
    await writer.abandon();
    // a crash after data was written but before the header was patched, mid-sample
    await appendFile(file, Buffer.from(encodeWavPcm16(tone(3200, 16000), RATE).subarray(44)));
    await appendFile(file, Buffer.from([0x12]));
    expect(await headerSamples(file)).toBe(16000);
    const reopened = await WavWriter.open(file, { sampleRate: RATE });
    expect(reopened.repair).toEqual({ samples: 19200, headerSamples: 16000, headerRepaired: true, truncatedBytes: 1 });
    expect(await headerSamples(file)).toBe(19200);
    expect((await stat(file)).size).toBe(44 + 19200 * 2);
    reopened.writer.append(tone(800, 19200));
    await reopened.writer.close();
    const decoded = decodeWav(await readFile(file), file);
    expect(decoded.samples).toEqual(decodeWav(encodeWavPcm16(tone(20000), RATE), 'x').samples);
  });

  it('a file cut before its header was complete reopens as empty', async () => {
    const file = await tempWav();
    await writeFile(file, Buffer.from('RIFF'));
    const { writer, repair } = await WavWriter.open(file, { sampleRate: RATE });
    expect(repair?.samples).toBe(0);
    await writer.close();
    expect(await headerSamples(file)).toBe(0);
  });

  it('refuses to append to a WAV it did not write, naming the file and leaving it alone', async () => {
    const file = await tempWav();
    const stereo = Buffer.from(encodeWavPcm16(tone(100), RATE));
    stereo.writeUInt16LE(2, 22);
    await writeFile(file, stereo);
    await expect(WavWriter.open(file, { sampleRate: RATE })).rejects.toThrow(
      `${file}: expected 16-bit mono PCM at 16000 Hz, found format 1, 2 channel(s)`,
    );
    expect(await readFile(file)).toEqual(stereo);
  });

  it('on a full disk: a clear error, the file cut back to the audio flushed before, header still true', async () => {
    const file = await tempWav();
    const fs = faultyFs({ budget: 44 + 32000 + 5000 });
    const { writer } = await WavWriter.open(file, { sampleRate: RATE, fs });
    writer.append(tone(16000));
    await writer.flush();
    writer.append(tone(16000, 16000));
    const error = await writer.flush().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DurableWriteError);
    expect((error as DurableWriteError).code).toBe('ENOSPC');
    expect((error as Error).message).toBe(
      `cannot write audio to ${file}: no space left on the disk (ENOSPC); the 1.0 s recorded before are kept; the last 1000 ms were not saved`,
    );
    expect(writer.samples).toBe(16000);
    await writer.abandon();
    expect((await stat(file)).size).toBe(44 + 32000);
    const decoded = decodeWav(await readFile(file), file);
    expect(decoded.truncatedHeader).toBe(false);
    expect(decoded.samples).toEqual(decodeWav(encodeWavPcm16(tone(16000), RATE), 'x').samples);
  });
});
