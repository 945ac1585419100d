import { describe, expect, it } from 'vitest';
import { CHUNK_FRAME_HEADER_BYTES, ChunkFrameError, decodeChunkFrame, encodeChunkFrame } from '../../../../core/common/audio/chunkFrame';

function frameError(bytes: Uint8Array): ChunkFrameError {
  try {
    decodeChunkFrame(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(ChunkFrameError);
    return e as ChunkFrameError;
  }
  throw new Error('expected a ChunkFrameError');
}

const pcm = Float32Array.from([0, 0.5, -0.25, 1, -1, 1e-7]);

describe('encodeChunkFrame / decodeChunkFrame', () => {
  it('round-trips samples, start and rate exactly', () => {
    const frame = encodeChunkFrame({ startSample: 3_200_000, pcm });
    expect(frame.byteLength).toBe(CHUNK_FRAME_HEADER_BYTES + pcm.length * 4);
    const decoded = decodeChunkFrame(frame);
    expect(decoded.startSample).toBe(3_200_000);
    expect(decoded.sampleRate).toBe(16_000);
    expect(Array.from(decoded.pcm)).toEqual(Array.from(pcm));
  });

  it('writes the documented little-endian layout', () => {
    const frame = encodeChunkFrame({ startSample: 48_000, pcm: Float32Array.from([0.5]), sampleRate: 44_100 });
    const view = new DataView(frame.buffer);
    expect(new TextDecoder().decode(frame.subarray(0, 4))).toBe('ALCF');
    expect(view.getUint16(4, true)).toBe(1);
    expect(view.getUint16(6, true)).toBe(1);
    expect(view.getUint32(8, true)).toBe(44_100);
    expect(view.getUint32(12, true)).toBe(1);
    expect(view.getFloat64(16, true)).toBe(48_000);
    expect(view.getFloat32(24, true)).toBe(0.5);
    expect(Array.from(frame.subarray(24))).toEqual([0x00, 0x00, 0x00, 0x3f]);
  });

  it('owns its buffer, so the frame can be transferred as is', () => {
    const frame = encodeChunkFrame({ startSample: 0, pcm: pcm.subarray(2, 4) });
    expect(frame.byteOffset).toBe(0);
    expect(frame.buffer.byteLength).toBe(frame.byteLength);
    expect(Array.from(decodeChunkFrame(frame.buffer as ArrayBuffer).pcm)).toEqual([-0.25, 1]);
  });

  it('decodes from an unaligned view, as a pooled Node Buffer may be', () => {
    const frame = encodeChunkFrame({ startSample: 7, pcm });
    const padded = new Uint8Array(frame.byteLength + 3);
    padded.set(frame, 3);
    const decoded = decodeChunkFrame(padded.subarray(3));
    expect(decoded.startSample).toBe(7);
    expect(Array.from(decoded.pcm)).toEqual(Array.from(pcm));
  });

  it('encodes an empty chunk', () => {
    const decoded = decodeChunkFrame(encodeChunkFrame({ startSample: 5, pcm: new Float32Array(0) }));
    expect(decoded.pcm.length).toBe(0);
    expect(decoded.startSample).toBe(5);
  });

  it('refuses a bad start sample or rate when encoding', () => {
    expect(() => encodeChunkFrame({ startSample: -1, pcm })).toThrow(/startSample/);
    expect(() => encodeChunkFrame({ startSample: 1.5, pcm })).toThrow(/startSample/);
    expect(() => encodeChunkFrame({ startSample: 0, pcm, sampleRate: 0 })).toThrow(/sampleRate/);
  });

  it('names the field of a broken frame', () => {
    const good = encodeChunkFrame({ startSample: 10, pcm });
    expect(frameError(good.subarray(0, 10)).field).toBe('header');
    expect(frameError(new TextEncoder().encode('{"pcm":[0.1,0.2,0.3,0.4,0.5,0.6]}')).field).toBe('magic');

    const version = good.slice();
    new DataView(version.buffer).setUint16(4, 2, true);
    expect(frameError(version).message).toMatch(/version: unsupported version 2/);

    const stereo = good.slice();
    new DataView(stereo.buffer).setUint16(6, 2, true);
    expect(frameError(stereo).field).toBe('channels');

    const noRate = good.slice();
    new DataView(noRate.buffer).setUint32(8, 0, true);
    expect(frameError(noRate).field).toBe('sampleRate');

    const truncated = good.subarray(0, good.byteLength - 4);
    expect(frameError(truncated).message).toMatch(/header says 6 samples \(48 bytes\) but the frame has 44 bytes/);

    const negative = good.slice();
    new DataView(negative.buffer).setFloat64(16, -3200, true);
    expect(frameError(negative).field).toBe('startSample');

    const poisoned = good.slice();
    new DataView(poisoned.buffer).setFloat32(24 + 4 * 3, Number.NaN, true);
    const error = frameError(poisoned);
    expect(error.field).toBe('pcm[3]');
    expect(error.message).toMatch(/NaN/);
  });
});
