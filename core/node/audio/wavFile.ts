import { readFile } from 'node:fs/promises';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';
import { resample } from '../../common/audio/sincResampler';
import { Refusal } from '../../common/refusal/refusal';
import { say, type RefusalMessage } from '../../common/refusal/refusalMessage';

/** A WAV file decoded to mono samples (full scale ±1; float files may exceed it, they are not clipped). */
export interface DecodedWav {
  sampleRate: number;
  /** channels in the file; `samples` is their mean */
  channels: number;
  /** bits per sample in the file (the container size for WAVE_FORMAT_EXTENSIBLE) */
  bitsPerSample: number;
  format: 'pcm' | 'float';
  samples: Float32Array;
  durationMs: number;
  /**
   * true when the data chunk's size field could not be trusted (0 with audio after it, 0xFFFFFFFF, or larger than
   * the file: a recording cut by a crash) and the audio was read to the end of the file
   */
  truncatedHeader: boolean;
}

/** A file that is not a WAV we can read; the message names the file and what is wrong. */
export class WavError extends Refusal {
  override name = 'WavError';
  constructor(
    readonly file: string,
    /** the problem as a catalog message, said in the person's language in the app */
    problemSaid: RefusalMessage,
  ) {
    super('conflict', say('refusal.wav.problem', { file, problem: problemSaid }));
  }
}

const WAVE_FORMAT_PCM = 0x0001;
const WAVE_FORMAT_IEEE_FLOAT = 0x0003;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;
/** the 14 bytes after the format code in a KSDATAFORMAT_SUBTYPE_* GUID */
const KSDATAFORMAT_GUID_TAIL = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];

const knownFormats: Record<number, string> = {
  0x0002: 'Microsoft ADPCM',
  0x0006: 'A-law',
  0x0007: 'µ-law',
  0x0011: 'IMA ADPCM',
  0x0031: 'GSM 6.10',
  0x0050: 'MPEG',
  0x0055: 'MP3',
  0x0161: 'WMA',
  0x1610: 'AAC',
  0xf1ac: 'FLAC',
};

/** Sample rates Aloud reads: telephone audio and up to studio rates; outside that a header is damaged or hostile. */
export const MIN_WAV_SAMPLE_RATE = 4_000;
export const MAX_WAV_SAMPLE_RATE = 384_000;

const convertHint = say('refusal.wav.convertHint');

export async function readWav(path: string): Promise<DecodedWav> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new WavError(path, say('refusal.wav.cannotRead', { detail: err.code ?? err.message }));
  }
  return decodeWav(bytes, path);
}

interface FmtChunk {
  formatTag: number;
  channels: number;
  sampleRate: number;
  blockAlign: number;
  bitsPerSample: number;
}

/**
 * Decodes a RIFF/WAVE file: PCM 8/16/24/32-bit and IEEE float 32/64, plain or WAVE_FORMAT_EXTENSIBLE, chunks in any
 * order (odd sizes padded to even), mixed down to mono as the mean of the channels. `name` is used in error messages.
 */
export function decodeWav(bytes: Uint8Array, name: string): DecodedWav {
  const fail = (said: RefusalMessage): never => {
    throw new WavError(name, said);
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number): string => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);

  if (bytes.length < 12) fail(say(bytes.length === 0 ? 'refusal.wav.empty' : 'refusal.wav.tooShort'));
  const riff = tag(0);
  if (riff === 'RIFX') fail(say('refusal.wav.rifx', { hint: convertHint }));
  if (riff !== 'RIFF') fail(say('refusal.wav.noRiff'));
  if (tag(8) !== 'WAVE') fail(say('refusal.wav.notWave', { type: JSON.stringify(tag(8)) }));

  let fmt: FmtChunk | null = null;
  let data: { start: number; end: number } | null = null;
  let truncatedHeader = false;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'data' && data === null) {
      const rest = bytes.length - body;
      // a recorder cut by a crash leaves 0 or 0xFFFFFFFF (or a stale, larger size): the audio runs to the end of the file
      if (size === 0xffffffff || size > rest || (size === 0 && rest > 0)) {
        data = { start: body, end: bytes.length };
        truncatedHeader = true;
        break;
      }
      data = { start: body, end: body + size };
    } else if (body + size > bytes.length) {
      if (fmt !== null && data !== null) break; // damaged metadata after the audio cannot change the audio
      fail(say('refusal.wav.chunkPastEnd', { id: printable(id), at: String(at), size: String(size), left: String(bytes.length - body) }));
    } else if (id === 'fmt ') {
      if (fmt !== null) fail(say('refusal.wav.secondFmt', { at: String(at) }));
      fmt = parseFmt(view, body, size, fail);
    }
    at = body + size + (size % 2);
  }
  if (fmt === null) return fail(say('refusal.wav.noFmt'));
  if (data === null) return fail(say('refusal.wav.noData'));

  const { formatTag, channels, sampleRate, blockAlign, bitsPerSample } = fmt;
  const format = formatTag === WAVE_FORMAT_IEEE_FLOAT ? 'float' : 'pcm';
  const frameCount = Math.floor((data.end - data.start) / blockAlign); // a partial last frame (cut mid-write) is dropped
  const samples = new Float32Array(frameCount);
  const bytesPerSample = bitsPerSample / 8;
  const read = sampleReader(view, format, bitsPerSample);
  let pos = data.start;
  for (let f = 0; f < frameCount; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) {
      sum += read(pos);
      pos += bytesPerSample;
    }
    // NaN or Infinity is no sound at all: refusing it beats ingesting a damaged file as silence.
    if (format === 'float' && !Number.isFinite(sum))
      fail(
        say(Number.isNaN(sum) ? 'refusal.wav.floatNaN' : 'refusal.wav.floatInfinite', {
          frame: String(f),
          at: String(pos - channels * bytesPerSample),
        }),
      );
    samples[f] = channels === 1 ? sum : sum / channels;
    pos += blockAlign - channels * bytesPerSample;
  }
  return {
    sampleRate,
    channels,
    bitsPerSample,
    format,
    samples,
    durationMs: (frameCount * 1000) / sampleRate,
    truncatedHeader,
  };
}

function parseFmt(view: DataView, at: number, size: number, fail: (said: RefusalMessage) => never): FmtChunk {
  if (size < 16) fail(say('refusal.wav.fmtShort', { size: String(size) }));
  let formatTag = view.getUint16(at, true);
  const channels = view.getUint16(at + 2, true);
  const sampleRate = view.getUint32(at + 4, true);
  const blockAlign = view.getUint16(at + 12, true);
  const bitsPerSample = view.getUint16(at + 14, true);
  if (formatTag === WAVE_FORMAT_EXTENSIBLE) {
    const cbSize = size >= 18 ? view.getUint16(at + 16, true) : 0;
    if (size < 40 || cbSize < 22) fail(say('refusal.wav.extensibleShort', { size: String(size) }));
    formatTag = view.getUint16(at + 24, true);
    const tail = KSDATAFORMAT_GUID_TAIL.every((b, k) => view.getUint8(at + 26 + k) === b);
    if (!tail) fail(say('refusal.wav.extensibleGuid', { hint: convertHint }));
  }
  if (formatTag !== WAVE_FORMAT_PCM && formatTag !== WAVE_FORMAT_IEEE_FLOAT) {
    const known = knownFormats[formatTag];
    const hex = `0x${formatTag.toString(16).padStart(4, '0').toUpperCase()}`;
    fail(known ? say('refusal.wav.formatKnown', { hex, known, hint: convertHint }) : say('refusal.wav.format', { hex, hint: convertHint }));
  }
  if (channels === 0) fail(say('refusal.wav.noChannels'));
  if (sampleRate < MIN_WAV_SAMPLE_RATE || sampleRate > MAX_WAV_SAMPLE_RATE) {
    fail(say('refusal.wav.sampleRate', { rate: String(sampleRate), min: String(MIN_WAV_SAMPLE_RATE), max: String(MAX_WAV_SAMPLE_RATE) }));
  }
  const supportedBits = formatTag === WAVE_FORMAT_PCM ? [8, 16, 24, 32] : [32, 64];
  if (!supportedBits.includes(bitsPerSample)) {
    fail(
      say('refusal.wav.sampleSize', {
        kind: formatTag === WAVE_FORMAT_PCM ? 'PCM' : 'float',
        bits: String(bitsPerSample),
        supported: supportedBits.join(', '),
        hint: convertHint,
      }),
    );
  }
  if (blockAlign < channels * (bitsPerSample / 8)) {
    fail(say('refusal.wav.blockAlign', { blockAlign: String(blockAlign), channels: String(channels), bits: String(bitsPerSample) }));
  }
  return { formatTag, channels, sampleRate, blockAlign, bitsPerSample };
}

function sampleReader(view: DataView, format: 'pcm' | 'float', bits: number): (at: number) => number {
  if (format === 'float') return bits === 32 ? (at) => view.getFloat32(at, true) : (at) => view.getFloat64(at, true);
  switch (bits) {
    case 8:
      return (at) => (view.getUint8(at) - 128) / 128; // 8-bit WAV is unsigned
    case 16:
      return (at) => view.getInt16(at, true) / 32768;
    case 24:
      return (at) => (view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16)) / 8388608;
    default:
      return (at) => view.getInt32(at, true) / 2147483648;
  }
}

function printable(id: string): string {
  return id.replace(/[^\x20-\x7e]/g, '?');
}

/** PCM 16-bit mono WAV bytes (44-byte header) of samples in ±1, rounded to the nearest step and clipped. */
export function encodeWavPcm16(samples: Float32Array, sampleRate: number): Uint8Array {
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) throw new RangeError(`sampleRate must be a positive integer (got ${sampleRate})`);
  const dataBytes = samples.length * 2;
  const bytes = new Uint8Array(44 + dataBytes);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string): void => {
    for (let k = 0; k < 4; k++) bytes[at + k] = text.charCodeAt(k);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, WAVE_FORMAT_PCM, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.round(samples[i]! * 32768);
    view.setInt16(44 + 2 * i, v > 32767 ? 32767 : v < -32768 ? -32768 : v || 0, true);
  }
  return bytes;
}

/**
 * Band-limited resampling to 16 kHz (what whisper needs), by the one resampler the capture also uses (a
 * Kaiser-windowed sinc low-pass at 0.9 × the lower Nyquist frequency). Returns the input itself at 16 kHz.
 */
export function resampleTo16k(samples: Float32Array, fromRate: number): Float32Array {
  return resample(samples, fromRate, AUDIO_SAMPLE_RATE);
}
