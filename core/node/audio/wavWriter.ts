import { encodeWavPcm16 } from './wavFile';
import { describeFsError, nodeDurableFs, DurableWriteError, writeFully, type DurableFile, type DurableFs } from '../fs/durableFile';

/** Canonical PCM WAV: RIFF header, 16-byte fmt chunk, then the data chunk to the end of the file. */
export const WAV_HEADER_BYTES = 44;
const BYTES_PER_SAMPLE = 2;

/** The two size fields of the canonical header (RIFF size at byte 4, data size at byte 40) for `samples` samples. */
function headerSizeFields(samples: number): { riff: Buffer; data: Buffer } {
  const riff = Buffer.alloc(4);
  const data = Buffer.alloc(4);
  riff.writeUInt32LE(36 + samples * BYTES_PER_SAMPLE);
  data.writeUInt32LE(samples * BYTES_PER_SAMPLE);
  return { riff, data };
}

/** Float samples (full scale 1.0) as 16-bit PCM bytes, converted exactly as encodeWavPcm16 does. */
function pcm16Bytes(pcm: Float32Array, sampleRate: number): Uint8Array {
  return encodeWavPcm16(pcm, sampleRate).subarray(WAV_HEADER_BYTES);
}

/** What opening an existing WAV found and fixed. */
export interface WavRepair {
  /** whole samples in the file (from its size, not its header) */
  samples: number;
  /** samples the header claimed before repair */
  headerSamples: number;
  headerRepaired: boolean;
  /** bytes of a half-written last sample that were cut */
  truncatedBytes: number;
}

/**
 * Checks that `header` is a header this writer wrote (16-bit mono PCM at `sampleRate`, data chunk at byte 36),
 * and returns the sample count it claims, or what is wrong.
 */
export function checkPcm16Header(header: Buffer, sampleRate: number): { samples: number } | { problem: string } {
  if (header.length < WAV_HEADER_BYTES) return { problem: `only ${header.length} bytes, shorter than a WAV header` };
  if (header.toString('ascii', 0, 4) !== 'RIFF' || header.toString('ascii', 8, 12) !== 'WAVE') return { problem: 'not a RIFF/WAVE file' };
  if (header.toString('ascii', 12, 16) !== 'fmt ' || header.readUInt32LE(16) !== 16 || header.toString('ascii', 36, 40) !== 'data') {
    return { problem: 'not a canonical 44-byte WAV header (fmt then data)' };
  }
  const format = header.readUInt16LE(20);
  const channels = header.readUInt16LE(22);
  const rate = header.readUInt32LE(24);
  const bits = header.readUInt16LE(34);
  if (format !== 1 || channels !== 1 || bits !== 16 || rate !== sampleRate) {
    return {
      problem: `expected 16-bit mono PCM at ${sampleRate} Hz, found format ${format}, ${channels} channel(s), ${bits} bits, ${rate} Hz`,
    };
  }
  return { samples: Math.floor(header.readUInt32LE(40) / BYTES_PER_SAMPLE) };
}

/**
 * Appends 16 kHz mono audio to a WAV that stays valid on disk: `flush` writes the buffered audio, patches the
 * header's sizes and fsyncs, so a crash loses at most what arrived since the last flush. A WAV left by a crash
 * is repaired on open (its header is set from the file size).
 */
export class WavWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private durableSamples: number;
  private closed = false;

  private constructor(
    readonly path: string,
    readonly sampleRate: number,
    private readonly file: DurableFile,
    samples: number,
  ) {
    this.durableSamples = samples;
  }

  /**
   * Opens `path` for appending, creating it with an empty header when absent. `existing`: the caller knows the file
   * holds audio (the log says so), so it is opened once, never created (a lost recording is not silently restarted).
   */
  static async open(
    path: string,
    options: { sampleRate: number; fs?: DurableFs; existing?: boolean },
  ): Promise<{ writer: WavWriter; repair: WavRepair | null }> {
    const fs = options.fs ?? nodeDurableFs;
    if (!options.existing) {
      const created = await createEmptyWav(fs, path, options.sampleRate);
      if (created) return { writer: new WavWriter(path, options.sampleRate, created, 0), repair: null };
    }
    let file: DurableFile;
    try {
      file = await fs.open(path, 'r+');
    } catch (e) {
      throw writeError(path, 'cannot open for writing', e, 'the audio already in it is untouched');
    }
    try {
      const repair = await repairOpenWav(file, path, options.sampleRate);
      return { writer: new WavWriter(path, options.sampleRate, file, repair.samples), repair };
    } catch (e) {
      await file.close().catch(() => undefined);
      throw e;
    }
  }

  /** Samples safely on disk (written, header patched, fsynced). */
  get samples(): number {
    return this.durableSamples;
  }

  /** Samples buffered but not yet flushed. */
  get pendingSamples(): number {
    return this.pendingBytes / BYTES_PER_SAMPLE;
  }

  /** Buffers audio; nothing reaches the disk before `flush`. */
  append(pcm: Float32Array): void {
    if (this.closed) throw new Error(`${this.path}: WAV writer is closed`);
    if (pcm.length === 0) return;
    const bytes = Buffer.from(pcm16Bytes(pcm, this.sampleRate));
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
  }

  /**
   * Writes the buffered audio, patches the header and fsyncs. On failure the file is cut back to the last
   * flushed audio (so the header stays true), the buffered audio is dropped, and DurableWriteError says so.
   */
  async flush(): Promise<number> {
    if (this.pendingBytes === 0) return this.durableSamples;
    const bytes = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    const before = this.durableSamples;
    const after = before + bytes.length / BYTES_PER_SAMPLE;
    try {
      await writeFully(this.file, bytes, WAV_HEADER_BYTES + before * BYTES_PER_SAMPLE);
      await this.patchHeader(after);
      await this.file.sync();
    } catch (e) {
      // Restore a file whose header matches its data; if even that fails, the next open repairs it from the size.
      await this.file.truncate(WAV_HEADER_BYTES + before * BYTES_PER_SAMPLE).catch(() => undefined);
      await this.patchHeader(before).catch(() => undefined);
      await this.file.sync().catch(() => undefined);
      const lostMs = Math.round(((after - before) / this.sampleRate) * 1000);
      throw writeError(
        this.path,
        'cannot write audio to',
        e,
        `the ${formatSeconds(before / this.sampleRate)} recorded before are kept; the last ${lostMs} ms were not saved`,
      );
    }
    this.durableSamples = after;
    return after;
  }

  /** Flushes and closes; the header is final. */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush();
    } finally {
      this.closed = true;
      await this.file.close();
    }
  }

  /** Closes without writing the buffered audio (after a write error). */
  async abandon(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pending = [];
    this.pendingBytes = 0;
    await this.file.close().catch(() => undefined);
  }

  private patchHeader(samples: number): Promise<void> {
    return patchHeaderSizes(this.file, samples);
  }
}

function formatSeconds(seconds: number): string {
  return `${seconds.toFixed(1)} s`;
}

function writeError(path: string, what: string, e: unknown, kept: string): DurableWriteError {
  const { code, text } = describeFsError(e);
  return new DurableWriteError(`${what} ${path}: ${text}; ${kept}`, path, code);
}

/** Creates `path` with an empty header (fsynced), or answers null when it already exists. */
async function createEmptyWav(fs: DurableFs, path: string, sampleRate: number): Promise<DurableFile | null> {
  let file: DurableFile;
  try {
    file = await fs.open(path, 'wx+');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw writeError(path, 'cannot create', e, 'nothing was recorded to it');
  }
  try {
    await writeFully(file, encodeWavPcm16(new Float32Array(0), sampleRate), 0);
    await file.sync();
  } catch (e) {
    await file.close().catch(() => undefined);
    throw writeError(path, 'cannot create', e, 'nothing was recorded to it');
  }
  return file;
}

/** Sets the header of an open WAV from the file size (cutting a half-written sample), fsyncing any change. */
async function repairOpenWav(file: DurableFile, path: string, sampleRate: number): Promise<WavRepair> {
  const { size } = await file.stat();
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  const { bytesRead } = await file.read(header, 0, WAV_HEADER_BYTES, 0);
  if (bytesRead < WAV_HEADER_BYTES && size < WAV_HEADER_BYTES) {
    // A crash between creating the file and writing its header: there is no audio to keep.
    await writeFully(file, encodeWavPcm16(new Float32Array(0), sampleRate), 0);
    await file.truncate(WAV_HEADER_BYTES);
    await file.sync();
    return { samples: 0, headerSamples: 0, headerRepaired: true, truncatedBytes: size };
  }
  const checked = checkPcm16Header(header, sampleRate);
  if ('problem' in checked)
    throw new DurableWriteError(
      `${path}: ${checked.problem}; Aloud only appends to WAV files it wrote, so it leaves this one untouched`,
      path,
      null,
    );
  const dataBytes = size - WAV_HEADER_BYTES;
  const truncatedBytes = dataBytes % BYTES_PER_SAMPLE;
  const samples = (dataBytes - truncatedBytes) / BYTES_PER_SAMPLE;
  const headerRepaired = checked.samples !== samples || header.readUInt32LE(4) !== 36 + samples * BYTES_PER_SAMPLE;
  if (truncatedBytes > 0) await file.truncate(size - truncatedBytes);
  if (headerRepaired || truncatedBytes > 0) {
    await patchHeaderSizes(file, samples);
    await file.sync();
  }
  return { samples, headerSamples: checked.samples, headerRepaired, truncatedBytes };
}

async function patchHeaderSizes(file: DurableFile, samples: number): Promise<void> {
  const { riff, data } = headerSizeFields(samples);
  await writeFully(file, riff, 4);
  await writeFully(file, data, 40);
}
