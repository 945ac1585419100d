/**
 * Binary frame for one chunk of captured audio, as it crosses the contract (an HTTP
 * `application/octet-stream` body in browser mode, an ArrayBuffer over Electron IPC).
 *
 * Layout, all little-endian, 24-byte header then the samples:
 *
 * | offset | type      | field                                   |
 * |-------:|-----------|-----------------------------------------|
 * |      0 | 4 × u8    | magic `ALCF`                            |
 * |      4 | u16       | version (1)                             |
 * |      6 | u16       | channels (1: mono)                      |
 * |      8 | u32       | sampleRate (Hz)                         |
 * |     12 | u32       | sampleCount                             |
 * |     16 | f64       | startSample (index of the first sample) |
 * |     24 | f32 × n   | PCM, full scale = 1.0                   |
 */

export const CHUNK_FRAME_MAGIC = 'ALCF';
import { AUDIO_SAMPLE_RATE } from './sampleRate';
import { Refusal } from '../refusal/refusal';
export const CHUNK_FRAME_VERSION = 1;
export const CHUNK_FRAME_HEADER_BYTES = 24;

/** A run of mono samples placed on the recording's timeline. */
export interface PcmChunk {
  /** index of pcm[0] on the recording's timeline, in samples from the start of the recording */
  startSample: number;
  pcm: Float32Array;
}

export interface DecodedChunkFrame extends PcmChunk {
  sampleRate: number;
}

/** A frame that cannot be decoded; `field` names the header field or sample that is wrong. */
export class ChunkFrameError extends Refusal {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super('bad_request', `audio chunk frame: ${field}: ${message}`);
    this.name = 'ChunkFrameError';
  }
}

const MAGIC_BYTES = [0x41, 0x4c, 0x43, 0x46]; // 'A' 'L' 'C' 'F'
const hostIsLittleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function checkStartSample(startSample: number): void {
  if (!Number.isSafeInteger(startSample) || startSample < 0) {
    throw new ChunkFrameError('startSample', `must be a non-negative whole number of samples (got ${startSample})`);
  }
}

/**
 * Encodes a chunk as one frame. The result's `.buffer` holds exactly the frame (offset 0), so it can
 * be transferred to a worker, sent over IPC, or posted as a request body without another copy.
 */
export function encodeChunkFrame(chunk: PcmChunk & { sampleRate?: number }): Uint8Array {
  const sampleRate = chunk.sampleRate ?? AUDIO_SAMPLE_RATE;
  checkStartSample(chunk.startSample);
  if (!Number.isInteger(sampleRate) || sampleRate <= 0 || sampleRate > 0xffffffff) {
    throw new ChunkFrameError('sampleRate', `must be a positive whole number of Hz (got ${sampleRate})`);
  }
  const count = chunk.pcm.length;
  const bytes = new Uint8Array(CHUNK_FRAME_HEADER_BYTES + count * 4);
  const view = new DataView(bytes.buffer);
  bytes.set(MAGIC_BYTES, 0);
  view.setUint16(4, CHUNK_FRAME_VERSION, true);
  view.setUint16(6, 1, true);
  view.setUint32(8, sampleRate, true);
  view.setUint32(12, count, true);
  view.setFloat64(16, chunk.startSample, true);
  if (hostIsLittleEndian) {
    bytes.set(new Uint8Array(chunk.pcm.buffer, chunk.pcm.byteOffset, count * 4), CHUNK_FRAME_HEADER_BYTES);
  } else {
    for (let i = 0; i < count; i++) view.setFloat32(CHUNK_FRAME_HEADER_BYTES + i * 4, chunk.pcm[i]!, true);
  }
  return bytes;
}

/**
 * Decodes and checks one frame. The samples are copied into a fresh, aligned Float32Array, so
 * `bytes` may be any view (a Node Buffer from a pool, at any offset). Throws ChunkFrameError
 * naming the wrong field; a NaN or infinite sample is rejected since it would poison the WAV.
 */
export function decodeChunkFrame(bytes: Uint8Array | ArrayBuffer): DecodedChunkFrame {
  const frame = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (frame.byteLength < CHUNK_FRAME_HEADER_BYTES) {
    throw new ChunkFrameError('header', `frame is ${frame.byteLength} bytes, shorter than the ${CHUNK_FRAME_HEADER_BYTES}-byte header`);
  }
  for (let i = 0; i < MAGIC_BYTES.length; i++) {
    if (frame[i] !== MAGIC_BYTES[i]) {
      throw new ChunkFrameError('magic', `expected "${CHUNK_FRAME_MAGIC}" at the start; this is not an audio chunk frame`);
    }
  }
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const version = view.getUint16(4, true);
  if (version !== CHUNK_FRAME_VERSION) {
    throw new ChunkFrameError('version', `unsupported version ${version} (this build reads version ${CHUNK_FRAME_VERSION})`);
  }
  const channels = view.getUint16(6, true);
  if (channels !== 1) throw new ChunkFrameError('channels', `expected 1 (mono), got ${channels}`);
  const sampleRate = view.getUint32(8, true);
  if (sampleRate === 0) throw new ChunkFrameError('sampleRate', 'must be positive, got 0');
  const count = view.getUint32(12, true);
  const expectedBytes = CHUNK_FRAME_HEADER_BYTES + count * 4;
  if (frame.byteLength !== expectedBytes) {
    throw new ChunkFrameError(
      'sampleCount',
      `header says ${count} samples (${expectedBytes} bytes) but the frame has ${frame.byteLength} bytes`,
    );
  }
  const startSample = view.getFloat64(16, true);
  checkStartSample(startSample);

  const pcm = new Float32Array(count);
  if (hostIsLittleEndian) {
    new Uint8Array(pcm.buffer).set(frame.subarray(CHUNK_FRAME_HEADER_BYTES));
  } else {
    for (let i = 0; i < count; i++) pcm[i] = view.getFloat32(CHUNK_FRAME_HEADER_BYTES + i * 4, true);
  }
  for (let i = 0; i < count; i++) {
    if (!Number.isFinite(pcm[i]!)) throw new ChunkFrameError(`pcm[${i}]`, `sample is ${pcm[i]}, not a finite number`);
  }
  return { startSample, sampleRate, pcm };
}
