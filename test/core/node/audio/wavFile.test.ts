import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeWav, encodeWavPcm16, readWav, resampleTo16k } from '../../../../core/node/audio/wavFile';

interface Chunk {
  id: string;
  body: Uint8Array;
  /** the size field to write, when it must lie (crashed recordings) */
  sizeField?: number;
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

/** RIFF/WAVE bytes from chunks in the order given; odd bodies get their pad byte. */
function riff(chunks: Chunk[], form = 'WAVE'): Uint8Array {
  const parts: number[] = [...ascii(form)];
  for (const c of chunks) {
    const size = c.sizeField ?? c.body.length;
    parts.push(...ascii(c.id), size & 0xff, (size >>> 8) & 0xff, (size >>> 16) & 0xff, (size >>> 24) & 0xff, ...c.body);
    if (c.body.length % 2 === 1 && c.sizeField === undefined) parts.push(0);
  }
  const out = new Uint8Array(8 + parts.length);
  out.set(ascii('RIFF'));
  new DataView(out.buffer).setUint32(4, parts.length, true);
  out.set(parts, 8);
  return out;
}

function fmtBody(formatTag: number, channels: number, sampleRate: number, bits: number, blockAlign = (channels * bits) / 8): Uint8Array {
  const b = new Uint8Array(16);
  const v = new DataView(b.buffer);
  v.setUint16(0, formatTag, true);
  v.setUint16(2, channels, true);
  v.setUint32(4, sampleRate, true);
  v.setUint32(8, sampleRate * blockAlign, true);
  v.setUint16(12, blockAlign, true);
  v.setUint16(14, bits, true);
  return b;
}

/** WAVE_FORMAT_EXTENSIBLE fmt body with the KSDATAFORMAT sub-format GUID for `subFormat`. */
function extensibleFmtBody(
  subFormat: number,
  channels: number,
  sampleRate: number,
  containerBits: number,
  validBits: number,
  guidTail?: number[],
): Uint8Array {
  const b = new Uint8Array(40);
  b.set(fmtBody(0xfffe, channels, sampleRate, containerBits));
  const v = new DataView(b.buffer);
  v.setUint16(16, 22, true);
  v.setUint16(18, validBits, true);
  v.setUint32(20, channels === 2 ? 3 : 4, true);
  v.setUint16(24, subFormat, true);
  b.set(guidTail ?? [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71], 26);
  return b;
}

function bytesOf(write: (v: DataView) => void, length: number): Uint8Array {
  const b = new Uint8Array(length);
  write(new DataView(b.buffer));
  return b;
}

const int16 = (values: number[]) => bytesOf((v) => values.forEach((x, i) => v.setInt16(2 * i, x, true)), values.length * 2);
const float32 = (values: number[]) => bytesOf((v) => values.forEach((x, i) => v.setFloat32(4 * i, x, true)), values.length * 4);
const float64 = (values: number[]) => bytesOf((v) => values.forEach((x, i) => v.setFloat64(8 * i, x, true)), values.length * 8);
const int32 = (values: number[]) => bytesOf((v) => values.forEach((x, i) => v.setInt32(4 * i, x, true)), values.length * 4);
const int24 = (values: number[]) =>
  bytesOf(
    (v) =>
      values.forEach((x, i) => {
        const u = x & 0xffffff;
        v.setUint8(3 * i, u & 0xff);
        v.setUint8(3 * i + 1, (u >> 8) & 0xff);
        v.setUint8(3 * i + 2, (u >> 16) & 0xff);
      }),
    values.length * 3,
  );

const samplesOf = (bytes: Uint8Array) => Array.from(decodeWav(bytes, 'x.wav').samples);

describe('decodeWav: sample formats', () => {
  it('reads 8-bit PCM as unsigned (128 = 0)', () => {
    const wav = decodeWav(
      riff([
        { id: 'fmt ', body: fmtBody(1, 1, 8000, 8) },
        { id: 'data', body: new Uint8Array([0, 64, 128, 192, 255]) },
      ]),
      'x.wav',
    );
    expect(Array.from(wav.samples)).toEqual([-1, -0.5, 0, 0.5, 127 / 128]);
    expect(wav).toMatchObject({ sampleRate: 8000, channels: 1, bitsPerSample: 8, format: 'pcm', truncatedHeader: false });
    expect(wav.durationMs).toBeCloseTo(5 / 8, 10);
  });

  it('reads 16, 24 and 32-bit PCM full scale as ±1', () => {
    expect(
      samplesOf(
        riff([
          { id: 'fmt ', body: fmtBody(1, 1, 16000, 16) },
          { id: 'data', body: int16([-32768, -16384, 0, 16384, 32767]) },
        ]),
      ),
    ).toEqual([-1, -0.5, 0, 0.5, 32767 / 32768]);
    expect(
      samplesOf(
        riff([
          { id: 'fmt ', body: fmtBody(1, 1, 16000, 24) },
          { id: 'data', body: int24([-8388608, -4194304, 0, 4194304, 1]) },
        ]),
      ),
    ).toEqual([-1, -0.5, 0, 0.5, Math.fround(1 / 8388608)]);
    expect(
      samplesOf(
        riff([
          { id: 'fmt ', body: fmtBody(1, 1, 16000, 32) },
          { id: 'data', body: int32([-2147483648, 1073741824, 0]) },
        ]),
      ),
    ).toEqual([-1, 0.5, 0]);
  });

  it('reads IEEE float 32 and 64 as they are', () => {
    const w32 = decodeWav(
      riff([
        { id: 'fmt ', body: fmtBody(3, 1, 16000, 32) },
        { id: 'data', body: float32([0.25, -0.75, 1]) },
      ]),
      'f.wav',
    );
    expect(Array.from(w32.samples)).toEqual([0.25, -0.75, 1]);
    expect(w32.format).toBe('float');
    expect(
      samplesOf(
        riff([
          { id: 'fmt ', body: fmtBody(3, 1, 16000, 64) },
          { id: 'data', body: float64([0.125, -0.5]) },
        ]),
      ),
    ).toEqual([0.125, -0.5]);
  });

  it('reads WAVE_FORMAT_EXTENSIBLE PCM (24 valid bits in 32) and float', () => {
    const pcm = decodeWav(
      riff([
        { id: 'fmt ', body: extensibleFmtBody(1, 1, 48000, 32, 24) },
        { id: 'data', body: int32([-2147483648, 1073741824]) },
      ]),
      'e.wav',
    );
    expect(Array.from(pcm.samples)).toEqual([-1, 0.5]);
    expect(pcm).toMatchObject({ format: 'pcm', bitsPerSample: 32, sampleRate: 48000 });
    const float = decodeWav(
      riff([
        { id: 'fmt ', body: extensibleFmtBody(3, 2, 44100, 32, 32) },
        { id: 'data', body: float32([0.5, 0.25]) },
      ]),
      'e.wav',
    );
    expect(Array.from(float.samples)).toEqual([0.375]);
    expect(float).toMatchObject({ format: 'float', channels: 2 });
  });

  it('mixes channels down to their mean', () => {
    const stereo = riff([
      { id: 'fmt ', body: fmtBody(1, 2, 16000, 16) },
      { id: 'data', body: int16([16384, 0, -32768, 0, 8192, 8192]) },
    ]);
    expect(samplesOf(stereo)).toEqual([0.25, -0.5, 0.25]);
    const three = riff([
      { id: 'fmt ', body: fmtBody(3, 3, 16000, 32) },
      { id: 'data', body: float32([0.75, 0, 0, 0.25, 0.25, 0.25]) },
    ]);
    expect(samplesOf(three)).toEqual([0.25, 0.25]);
  });
});

describe('decodeWav: chunk layout', () => {
  const fmt = { id: 'fmt ', body: fmtBody(1, 1, 16000, 16) };

  it('finds fmt and data in any order, skipping other chunks with their odd-size padding', () => {
    const data = { id: 'data', body: int16([1000, -1000]) };
    const list = { id: 'LIST', body: new Uint8Array(ascii('INFOISFT\x05\x00\x00\x00aloud')) }; // 17 bytes, padded
    const bext = { id: 'bext', body: new Uint8Array(3) };
    for (const order of [
      [fmt, data],
      [data, fmt],
      [list, fmt, bext, data],
      [bext, data, list, fmt],
    ]) {
      expect(samplesOf(riff(order))).toEqual([1000 / 32768, -1000 / 32768]);
    }
  });

  it('reads an odd-sized 8-bit data chunk and the chunk after its pad byte', () => {
    const bytes = riff([
      { id: 'data', body: new Uint8Array([128, 255, 0]) },
      { id: 'fmt ', body: fmtBody(1, 1, 8000, 8) },
    ]);
    expect(samplesOf(bytes)).toEqual([0, 127 / 128, -1]);
  });

  it('reads to the end of the file when the data size is 0xFFFFFFFF, larger than the file, or 0 with audio after it', () => {
    for (const sizeField of [0xffffffff, 1_000_000, 0]) {
      const wav = decodeWav(riff([fmt, { id: 'data', body: int16([100, 200, 300]), sizeField }]), 'crash.wav');
      expect(Array.from(wav.samples), `size field ${sizeField}`).toEqual([100 / 32768, 200 / 32768, 300 / 32768]);
      expect(wav.truncatedHeader).toBe(true);
    }
  });

  it('drops a sample frame cut in the middle by a crash', () => {
    const body = new Uint8Array([...int16([100, 200]), 0x12]);
    const wav = decodeWav(riff([fmt, { id: 'data', body, sizeField: 0xffffffff }]), 'crash.wav');
    expect(Array.from(wav.samples)).toEqual([100 / 32768, 200 / 32768]);
  });

  it('an empty data chunk at the end of the file is an empty recording, not a truncated one', () => {
    const wav = decodeWav(riff([fmt, { id: 'data', body: new Uint8Array(0) }]), 'empty.wav');
    expect(wav.samples.length).toBe(0);
    expect(wav.durationMs).toBe(0);
    expect(wav.truncatedHeader).toBe(false);
  });

  it('ignores damaged metadata after the audio', () => {
    const bytes = riff([fmt, { id: 'data', body: int16([5]) }, { id: 'LIST', body: new Uint8Array(4), sizeField: 400 }]);
    expect(samplesOf(bytes)).toEqual([5 / 32768]);
  });
});

describe('decodeWav: errors name the file and the problem', () => {
  const fmt = { id: 'fmt ', body: fmtBody(1, 1, 16000, 16) };
  const data = { id: 'data', body: int16([1]) };
  const cases: Array<[string, Uint8Array, string]> = [
    ['empty file', new Uint8Array(0), 'x.wav: not a WAV file (the file is empty)'],
    ['no RIFF', new Uint8Array(ascii('ID3\x04 this is an mp3 file')), 'x.wav: not a WAV file (no RIFF header)'],
    ['RIFF of another form', riff([data], 'AVI '), 'x.wav: not a WAV file (RIFF type is "AVI ", not "WAVE")'],
    ['no fmt', riff([data]), 'x.wav: no "fmt " chunk (the format of the audio is unknown)'],
    ['no data', riff([fmt]), 'x.wav: no "data" chunk (the file holds no audio)'],
  ];
  for (const [what, bytes, message] of cases) {
    it(what, () => {
      expect(() => decodeWav(bytes, 'x.wav')).toThrow(expect.objectContaining({ name: 'WavError', message }));
    });
  }

  it('big-endian RIFX', () => {
    const bytes = riff([fmt, data]);
    bytes.set(ascii('RIFX'));
    expect(() => decodeWav(bytes, 'be.wav')).toThrow(/^be\.wav: big-endian WAV \(RIFX\) is not supported/);
  });

  it('compressed formats, named', () => {
    expect(() => decodeWav(riff([{ id: 'fmt ', body: fmtBody(0x55, 1, 16000, 0, 1) }, data]), 'x.wav')).toThrow(
      /^x\.wav: unsupported format 0x0055 \(MP3\); only PCM and IEEE float are read/,
    );
    expect(() => decodeWav(riff([{ id: 'fmt ', body: fmtBody(0x11, 1, 16000, 4, 256) }, data]), 'x.wav')).toThrow(/0x0011 \(IMA ADPCM\)/);
    expect(() => decodeWav(riff([{ id: 'fmt ', body: fmtBody(0x1234, 1, 16000, 16) }, data]), 'x.wav')).toThrow(
      /unsupported format 0x1234;/,
    );
    expect(() => decodeWav(riff([{ id: 'fmt ', body: extensibleFmtBody(7, 1, 8000, 8, 8) }, data]), 'x.wav')).toThrow(/0x0007 \(µ-law\)/);
    const oddGuid = extensibleFmtBody(1, 1, 8000, 16, 16, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(() => decodeWav(riff([{ id: 'fmt ', body: oddGuid }, data]), 'x.wav')).toThrow(/sub-format/);
  });

  it('sample sizes and fmt fields it cannot read', () => {
    expect(() => decodeWav(riff([{ id: 'fmt ', body: fmtBody(1, 1, 16000, 12, 2) }, data]), 'x.wav')).toThrow(/PCM sample size of 12 bits/);
    expect(() => decodeWav(riff([{ id: 'fmt ', body: fmtBody(3, 1, 16000, 16) }, data]), 'x.wav')).toThrow(/float sample size of 16 bits/);
    expect(() => decodeWav(riff([{ id: 'fmt ', body: fmtBody(1, 0, 16000, 16, 2) }, data]), 'x.wav')).toThrow(/0 channels/);
    expect(() => decodeWav(riff([{ id: 'fmt ', body: fmtBody(1, 1, 0, 16) }, data]), 'x.wav')).toThrow(/sample rate of 0 Hz/);
    expect(() => decodeWav(riff([{ id: 'fmt ', body: fmtBody(1, 2, 16000, 16, 2) }, data]), 'x.wav')).toThrow(/block align 2 is too small/);
    expect(() => decodeWav(riff([{ id: 'fmt ', body: new Uint8Array(12) }, data]), 'x.wav')).toThrow(/shorter than the 16/);
    expect(() => decodeWav(riff([fmt, { id: 'fmt ', body: fmtBody(1, 1, 8000, 16) }, data]), 'x.wav')).toThrow(
      /more than one "fmt " chunk/,
    );
  });

  it('a chunk before the audio that runs past the end of the file', () => {
    const bytes = riff([{ id: 'LIST', body: new Uint8Array(4), sizeField: 5000 }]);
    expect(() => decodeWav(bytes, 'x.wav')).toThrow(/^x\.wav: chunk "LIST" at byte 12 claims 5000 bytes but the file ends 4 bytes later$/);
  });
});

describe('encodeWavPcm16', () => {
  it('round-trips through decodeWav exactly on the 16-bit grid, clipping beyond full scale', () => {
    const samples = new Float32Array([0, 0.5, -0.5, -1, 12345 / 32768, 1.5, -2]);
    const wav = decodeWav(encodeWavPcm16(samples, 22050), 'rt.wav');
    expect(Array.from(wav.samples)).toEqual([0, 0.5, -0.5, -1, 12345 / 32768, 32767 / 32768, -1]);
    expect(wav).toMatchObject({ sampleRate: 22050, channels: 1, bitsPerSample: 16, format: 'pcm', truncatedHeader: false });
  });

  it('writes the canonical 44-byte header', () => {
    const bytes = encodeWavPcm16(new Float32Array(3), 16000);
    const v = new DataView(bytes.buffer);
    expect(bytes.length).toBe(50);
    expect(String.fromCharCode(...bytes.subarray(0, 4), ...bytes.subarray(8, 16), ...bytes.subarray(36, 40))).toBe('RIFFWAVEfmt data');
    expect([v.getUint32(4, true), v.getUint32(28, true), v.getUint32(40, true)]).toEqual([42, 32000, 6]);
  });
});

describe('readWav', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'aloud-wav-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file from disk', async () => {
    const file = path.join(dir, 'tone.wav');
    writeFileSync(file, encodeWavPcm16(new Float32Array([0.25, -0.25]), 16000));
    const wav = await readWav(file);
    expect(Array.from(wav.samples)).toEqual([0.25, -0.25]);
  });

  it('names a file it cannot read, and a file that is not a WAV', async () => {
    const missing = path.join(dir, 'missing.wav');
    await expect(readWav(missing)).rejects.toThrow(`${missing}: cannot read the file (ENOENT)`);
    const text = path.join(dir, 'notes.wav');
    writeFileSync(text, 'hello, this is not audio');
    await expect(readWav(text)).rejects.toThrow(`${text}: not a WAV file (no RIFF header)`);
  });
});

describe('resampleTo16k', () => {
  const sine = (rate: number, hz: number, seconds: number, amp = 0.5, at = 0) =>
    Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => amp * Math.sin(2 * Math.PI * hz * (i / rate + at)));
  const rms = (x: Float32Array) => Math.sqrt(x.reduce((a, s) => a + s * s, 0) / x.length);
  /** largest difference from the ideal 16 kHz sine, away from the edges (where the filter sees zeros beyond the input) */
  const errorAgainstIdeal = (out: Float32Array, hz: number, amp = 0.5) => {
    let worst = 0;
    for (let i = 800; i < out.length - 800; i++)
      worst = Math.max(worst, Math.abs(out[i]! - amp * Math.sin((2 * Math.PI * hz * i) / 16000)));
    return worst;
  };

  it('returns 16 kHz input as it is', () => {
    const x = sine(16000, 440, 0.1);
    expect(resampleTo16k(x, 16000)).toBe(x);
  });

  it('keeps speech-band sines from 48, 44.1, 22.05 and 8 kHz (and an odd rate) within 0.1% of full scale', () => {
    for (const [rate, hz] of [
      [48000, 1000],
      [44100, 440],
      [22050, 3000],
      [8000, 1000],
      [44101, 2500],
      [96000, 6000],
    ] as const) {
      const out = resampleTo16k(sine(rate, hz, 0.5), rate);
      expect(out.length, `${rate} Hz`).toBe(Math.round((Math.round(rate * 0.5) * 16000) / rate));
      expect(errorAgainstIdeal(out, hz), `${hz} Hz from ${rate} Hz`).toBeLessThan(1e-3);
    }
  });

  it('removes what lies above 8 kHz instead of folding it into the speech band', () => {
    // 10 kHz and 12 kHz would alias to 6 kHz and 4 kHz without the low-pass
    for (const [rate, hz] of [
      [48000, 10000],
      [44100, 12000],
      [48000, 8800],
    ] as const) {
      const out = resampleTo16k(sine(rate, hz, 0.5), rate).subarray(800, -800);
      expect(20 * Math.log10(rms(out) / (0.5 / Math.SQRT2)), `${hz} Hz from ${rate} Hz`).toBeLessThan(-60);
    }
  });

  it('keeps DC gain 1 for every phase of the filter', () => {
    const out = resampleTo16k(new Float32Array(44100).fill(0.5), 44100).subarray(800, -800);
    for (const s of out) expect(Math.abs(s - 0.5)).toBeLessThan(1e-6);
  });

  it('rejects a sample rate that is not a positive integer', () => {
    expect(() => resampleTo16k(new Float32Array(4), 0)).toThrow(/positive integer/);
    expect(() => resampleTo16k(new Float32Array(4), 44100.5)).toThrow(/positive integer/);
  });
});
