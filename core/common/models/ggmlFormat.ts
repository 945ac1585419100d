import { ModelFileError } from './modelFileError';
import { say, type RefusalMessage } from '../refusal/refusalMessage';

/**
 * The whisper.cpp ggml model file, read the way whisper.cpp's loader (whisper_model_load) reads it:
 *   magic u32 "ggml" · 11 × i32 hparams · mel filters (i32 n_mel, i32 n_fft, f32[n_mel·n_fft])
 *   · vocab (i32 count, then count × {u32 len, bytes}) · tensor records until the end of the file,
 *   each {i32 n_dims, i32 name_len, i32 ggml_type, i32 ne[n_dims], name, data}.
 * All integers little-endian. Pure: bytes come from a ByteSource, so Node, tests and the renderer can share it.
 */

export const GGML_FILE_MAGIC = 0x67676d6c;
/** ftype in the header carries the quantization version as ftype + 1000 × version. */
const QUANTIZATION_VERSION_FACTOR = 1000;
const HEADER_BYTES = 4 + 11 * 4;

export type GgmlTensorType = 'f32' | 'f16' | 'q4_0' | 'q4_1' | 'q5_0' | 'q5_1' | 'q8_0' | 'q2_k' | 'q3_k' | 'q4_k' | 'q5_k' | 'q6_k';

interface TensorTypeLayout {
  /** ggml_type id as stored in each tensor record */
  id: number;
  /** elements per block, and bytes per block */
  block: number;
  bytes: number;
}

const TENSOR_TYPES: Record<GgmlTensorType, TensorTypeLayout> = {
  f32: { id: 0, block: 1, bytes: 4 },
  f16: { id: 1, block: 1, bytes: 2 },
  q4_0: { id: 2, block: 32, bytes: 18 },
  q4_1: { id: 3, block: 32, bytes: 20 },
  q5_0: { id: 6, block: 32, bytes: 22 },
  q5_1: { id: 7, block: 32, bytes: 24 },
  q8_0: { id: 8, block: 32, bytes: 34 },
  q2_k: { id: 10, block: 256, bytes: 84 },
  q3_k: { id: 11, block: 256, bytes: 110 },
  q4_k: { id: 12, block: 256, bytes: 144 },
  q5_k: { id: 13, block: 256, bytes: 176 },
  q6_k: { id: 14, block: 256, bytes: 210 },
};

const TYPE_BY_ID = new Map<number, GgmlTensorType>(
  (Object.entries(TENSOR_TYPES) as Array<[GgmlTensorType, TensorTypeLayout]>).map(([name, t]) => [t.id, name]),
);

/** Header ftype (ggml_ftype) → type of the large weight matrices, as ggml_ftype_to_ggml_type maps it. */
const FTYPE_WEIGHT_TYPE = new Map<number, GgmlTensorType>([
  [0, 'f32'], [1, 'f16'], [2, 'q4_0'], [3, 'q4_1'], [7, 'q8_0'], [8, 'q5_0'], [9, 'q5_1'],
  [10, 'q2_k'], [11, 'q3_k'], [12, 'q4_k'], [13, 'q5_k'], [14, 'q6_k'],
]);

export interface WhisperHparams {
  n_vocab: number;
  n_audio_ctx: number;
  n_audio_state: number;
  n_audio_head: number;
  n_audio_layer: number;
  n_text_ctx: number;
  n_text_state: number;
  n_text_head: number;
  n_text_layer: number;
  n_mels: number;
  /** ggml_ftype without the quantization version (0 = f32, 1 = f16, 8 = q5_0, …) */
  ftype: number;
}

const HPARAM_NAMES: ReadonlyArray<keyof WhisperHparams> = [
  'n_vocab', 'n_audio_ctx', 'n_audio_state', 'n_audio_head', 'n_audio_layer',
  'n_text_ctx', 'n_text_state', 'n_text_head', 'n_text_layer', 'n_mels', 'ftype',
];

/** Ranges every released whisper model (tiny … large-v3, distilled, turbo) falls in; outside them the file is not a whisper model. */
const PLAUSIBLE: Partial<Record<keyof WhisperHparams, readonly [number, number]>> = {
  n_vocab: [51000, 60000],
  n_audio_ctx: [1, 1500],
  n_audio_state: [64, 8192],
  n_audio_head: [1, 128],
  n_audio_layer: [1, 128],
  n_text_ctx: [1, 448],
  n_text_state: [64, 8192],
  n_text_head: [1, 128],
  n_text_layer: [1, 128],
};

export type WhisperSizeClass = 'tiny' | 'base' | 'small' | 'medium' | 'large' | 'unknown';

/** Encoder layers and width of the OpenAI size classes. */
const SIZE_CLASSES: ReadonlyArray<{ size: WhisperSizeClass; layers: number; state: number }> = [
  { size: 'tiny', layers: 4, state: 384 },
  { size: 'base', layers: 6, state: 512 },
  { size: 'small', layers: 12, state: 768 },
  { size: 'medium', layers: 24, state: 1024 },
  { size: 'large', layers: 32, state: 1280 },
];

export function whisperSizeClass(h: Pick<WhisperHparams, 'n_audio_layer' | 'n_audio_state'>): WhisperSizeClass {
  return SIZE_CLASSES.find((c) => c.layers === h.n_audio_layer && c.state === h.n_audio_state)?.size ?? 'unknown';
}

/** Everything before the first tensor record. */
export interface GgmlPreamble {
  hparams: WhisperHparams;
  quantization_version: number;
  weight_type: GgmlTensorType;
  mel: { n_mel: number; n_fft: number };
  vocab_tokens: number;
  /** byte offset of the first tensor record (= bytes of header, mel filters and vocabulary) */
  tensors_offset: number;
}

export interface GgmlModelInfo {
  file: string;
  file_bytes: number;
  hparams: WhisperHparams;
  quantization_version: number;
  weight_type: GgmlTensorType;
  size_class: WhisperSizeClass;
  multilingual: boolean;
  mel: { n_mel: number; n_fft: number };
  vocab_tokens: number;
  header_bytes: number;
  /** bytes of a complete file with this header: preamble plus every tensor whisper.cpp loads */
  expected_bytes: number;
  /** 'none': a vocab-only test model, which whisper.cpp loads as an empty model; 'complete': every tensor present */
  weights: 'none' | 'complete';
  tensor_count: number;
}

/** The short form listings and `aloud doctor` show. */
export interface GgmlHeaderSummary {
  size_class: WhisperSizeClass;
  multilingual: boolean;
  weight_type: GgmlTensorType;
  weights: 'none' | 'complete';
  n_vocab: number;
  n_audio_layer: number;
  n_audio_state: number;
  n_text_layer: number;
  n_mels: number;
}

export function summarizeGgmlModel(info: GgmlModelInfo): GgmlHeaderSummary {
  return {
    size_class: info.size_class,
    multilingual: info.multilingual,
    weight_type: info.weight_type,
    weights: info.weights,
    n_vocab: info.hparams.n_vocab,
    n_audio_layer: info.hparams.n_audio_layer,
    n_audio_state: info.hparams.n_audio_state,
    n_text_layer: info.hparams.n_text_layer,
    n_mels: info.hparams.n_mels,
  };
}

/** Random access to a file's bytes; read returns fewer bytes than asked only at the end of the file. */
export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export function byteSourceOf(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (offset, length) => Promise.resolve(bytes.subarray(offset, Math.min(bytes.length, offset + length))),
  };
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function ascii(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = '';
  for (let i = start; i < end; i++) out += String.fromCharCode(bytes[i] ?? 0);
  return out;
}

/** Names what a file with the wrong magic most likely is, so the person knows what they picked. */
export function describeForeignMagic(first: Uint8Array): RefusalMessage {
  const head = ascii(first, 0, Math.min(first.length, 64));
  const hex = first.length >= 4 ? `0x${view(first).getUint32(0, true).toString(16).padStart(8, '0')}` : say('refusal.modelFile.magic.missing');
  if (head.startsWith('GGUF')) return say('refusal.modelFile.magic.gguf');
  if (head.startsWith('PK\x03\x04')) return say('refusal.modelFile.magic.zip');
  if (head.startsWith('version https://git-lfs')) return say('refusal.modelFile.magic.lfs');
  if (head.startsWith('ggml')) return say('refusal.modelFile.magic.byteSwapped');
  if (head.startsWith('tjgg') || head.startsWith('fmgg') || head.startsWith('algg')) return say('refusal.modelFile.magic.llamaLegacy');
  if (/^\s*[<{[]/.test(head)) return say('refusal.modelFile.magic.text');
  return say('refusal.modelFile.magic.other', { hex });
}

/** Reads the preamble front to back in large blocks; a read past the end of the file is a truncation named after what was being read. */
class PreambleReader {
  private block: Uint8Array = new Uint8Array(0);
  private blockStart = 0;
  pos = 0;

  constructor(
    private readonly source: ByteSource,
    private readonly file: string,
  ) {}

  async take(n: number, what: RefusalMessage): Promise<DataView> {
    const end = this.pos + n;
    if (end > this.source.size) {
      throw new ModelFileError(this.file, say('refusal.modelFile.truncatedInside', { size: this.source.size, what }));
    }
    if (this.pos < this.blockStart || end > this.blockStart + this.block.length) {
      this.block = await this.source.read(this.pos, Math.max(n, 1 << 20));
      this.blockStart = this.pos;
      if (this.block.length < n) throw new ModelFileError(this.file, say('refusal.modelFile.shortRead', { pos: this.pos, what }));
    }
    const at = this.pos - this.blockStart;
    this.pos = end;
    return new DataView(this.block.buffer, this.block.byteOffset + at, n);
  }

  skip(n: number, what: RefusalMessage): void {
    if (this.pos + n > this.source.size) {
      throw new ModelFileError(this.file, say('refusal.modelFile.truncatedSkip', { size: this.source.size, what }));
    }
    this.pos += n;
  }
}

/** Parses magic, hparams, mel filters and vocabulary, checking each against what whisper models look like. */
export async function readGgmlPreamble(source: ByteSource, file: string): Promise<GgmlPreamble> {
  if (source.size === 0) throw new ModelFileError(file, say('refusal.modelFile.empty'));
  if (source.size < 4) throw new ModelFileError(file, say('refusal.modelFile.tooSmall', { size: source.size }));
  const first = await source.read(0, Math.min(source.size, 64));
  if (view(first).getUint32(0, true) !== GGML_FILE_MAGIC) {
    const said = describeForeignMagic(first);
    throw new ModelFileError(file, said);
  }

  const reader = new PreambleReader(source, file);
  const header = await reader.take(HEADER_BYTES, say('refusal.modelFile.part.hparams'));
  const raw = HPARAM_NAMES.map((_, i) => header.getInt32(4 + 4 * i, true));
  const hparams = Object.fromEntries(HPARAM_NAMES.map((name, i) => [name, raw[i]])) as unknown as WhisperHparams;

  const problem = (reason: RefusalMessage): ModelFileError => new ModelFileError(file, say('refusal.modelFile.header', { reason }));
  for (const name of HPARAM_NAMES) {
    const range = PLAUSIBLE[name];
    const value = hparams[name];
    if (range && (value < range[0] || value > range[1])) {
      throw problem(say('refusal.modelFile.hparamRange', { name, value, min: range[0], max: range[1] }));
    }
  }
  if (hparams.n_mels !== 80 && hparams.n_mels !== 128) throw problem(say('refusal.modelFile.nMels', { value: hparams.n_mels }));
  if (hparams.n_text_state !== hparams.n_audio_state) throw problem(say('refusal.modelFile.textStateDiffers', { text: hparams.n_text_state, audio: hparams.n_audio_state }));
  if (hparams.n_audio_state % hparams.n_audio_head !== 0) throw problem(say('refusal.modelFile.notDivisible', { state: 'n_audio_state', value: hparams.n_audio_state, head: 'n_audio_head', heads: hparams.n_audio_head }));
  if (hparams.n_text_state % hparams.n_text_head !== 0) throw problem(say('refusal.modelFile.notDivisible', { state: 'n_text_state', value: hparams.n_text_state, head: 'n_text_head', heads: hparams.n_text_head }));
  if (hparams.ftype < 0) throw problem(say('refusal.modelFile.ftypeNegative', { ftype: hparams.ftype }));
  const quantization_version = Math.floor(hparams.ftype / QUANTIZATION_VERSION_FACTOR);
  hparams.ftype %= QUANTIZATION_VERSION_FACTOR;
  const weight_type = FTYPE_WEIGHT_TYPE.get(hparams.ftype);
  if (weight_type === undefined) throw problem(say('refusal.modelFile.ftypeUnknown', { ftype: hparams.ftype }));
  if (weight_type === 'f32') {
    // whisper.cpp 1.9.1 loads it, then aborts in the encoder: GGML_ASSERT(src0->type == GGML_TYPE_F16) in im2col
    throw problem(say('refusal.modelFile.f32'));
  }

  const melHead = await reader.take(8, say('refusal.modelFile.part.melHeader'));
  const mel = { n_mel: melHead.getInt32(0, true), n_fft: melHead.getInt32(4, true) };
  if (mel.n_mel !== hparams.n_mels) throw problem(say('refusal.modelFile.melBands', { bands: mel.n_mel, nMels: hparams.n_mels }));
  if (mel.n_fft < 1 || mel.n_fft > 4096) throw problem(say('refusal.modelFile.melFft', { nFft: mel.n_fft }));
  reader.skip(mel.n_mel * mel.n_fft * 4, say('refusal.modelFile.part.melFilters'));

  const vocabCount = (await reader.take(4, say('refusal.modelFile.part.vocabSize'))).getInt32(0, true);
  if (vocabCount < 1 || vocabCount > hparams.n_vocab) throw problem(say('refusal.modelFile.vocabCount', { count: vocabCount, max: hparams.n_vocab }));
  for (let i = 0; i < vocabCount; i++) {
    const what = say('refusal.modelFile.part.vocabToken', { i, count: vocabCount });
    const length = (await reader.take(4, what)).getUint32(0, true);
    if (length > 1024) throw problem(say('refusal.modelFile.tokenTooLong', { i, count: vocabCount, length }));
    reader.skip(length, what);
  }
  return { hparams, quantization_version, weight_type, mel, vocab_tokens: vocabCount, tensors_offset: reader.pos };
}

export interface ExpectedTensor {
  name: string;
  type: GgmlTensorType;
  /** ggml dimension order (ne[0] is the fastest-varying), as stored in the file */
  ne: number[];
}

/** Every tensor whisper.cpp creates for these hparams, with the type and shape its loader accepts. */
export function expectedWhisperTensors(preamble: Pick<GgmlPreamble, 'hparams' | 'weight_type'>): ExpectedTensor[] {
  const h = preamble.hparams;
  const w = preamble.weight_type;
  // convolution kernels stay f16 in f16 and quantized files (whisper.cpp's "vtype")
  const conv: GgmlTensorType = w === 'f32' ? 'f32' : 'f16';
  const out: ExpectedTensor[] = [];
  const add = (name: string, type: GgmlTensorType, ...ne: number[]): void => {
    out.push({ name, type, ne });
  };
  const attention = (prefix: string, n: number): void => {
    add(`${prefix}_ln.weight`, 'f32', n);
    add(`${prefix}_ln.bias`, 'f32', n);
    add(`${prefix}.query.weight`, w, n, n);
    add(`${prefix}.query.bias`, 'f32', n);
    add(`${prefix}.key.weight`, w, n, n);
    add(`${prefix}.value.weight`, w, n, n);
    add(`${prefix}.value.bias`, 'f32', n);
    add(`${prefix}.out.weight`, w, n, n);
    add(`${prefix}.out.bias`, 'f32', n);
  };
  const mlp = (prefix: string, n: number): void => {
    add(`${prefix}.mlp_ln.weight`, 'f32', n);
    add(`${prefix}.mlp_ln.bias`, 'f32', n);
    add(`${prefix}.mlp.0.weight`, w, n, 4 * n);
    add(`${prefix}.mlp.0.bias`, 'f32', 4 * n);
    add(`${prefix}.mlp.2.weight`, w, 4 * n, n);
    add(`${prefix}.mlp.2.bias`, 'f32', n);
  };

  const a = h.n_audio_state;
  add('encoder.positional_embedding', 'f32', a, h.n_audio_ctx);
  add('encoder.conv1.weight', conv, 3, h.n_mels, a);
  add('encoder.conv1.bias', 'f32', 1, a);
  add('encoder.conv2.weight', conv, 3, a, a);
  add('encoder.conv2.bias', 'f32', 1, a);
  add('encoder.ln_post.weight', 'f32', a);
  add('encoder.ln_post.bias', 'f32', a);
  for (let i = 0; i < h.n_audio_layer; i++) {
    mlp(`encoder.blocks.${i}`, a);
    attention(`encoder.blocks.${i}.attn`, a);
  }

  const t = h.n_text_state;
  add('decoder.positional_embedding', 'f32', t, h.n_text_ctx);
  add('decoder.token_embedding.weight', w, t, h.n_vocab);
  add('decoder.ln.weight', 'f32', t);
  add('decoder.ln.bias', 'f32', t);
  for (let i = 0; i < h.n_text_layer; i++) {
    mlp(`decoder.blocks.${i}`, t);
    attention(`decoder.blocks.${i}.attn`, t);
    attention(`decoder.blocks.${i}.cross_attn`, t);
  }
  return out;
}

function elementCount(ne: readonly number[]): number {
  return ne.reduce((product, d) => product * d, 1);
}

/** Bytes of a tensor's data; null when the row length is not a whole number of quantization blocks. */
export function tensorDataBytes(type: GgmlTensorType, ne: readonly number[]): number | null {
  const layout = TENSOR_TYPES[type];
  if ((ne[0] ?? 1) % layout.block !== 0) return null;
  return (elementCount(ne) / layout.block) * layout.bytes;
}

function recordBytes(t: ExpectedTensor): number {
  return 12 + 4 * t.ne.length + t.name.length + (tensorDataBytes(t.type, t.ne) ?? Number.NaN);
}

/** Bytes of a complete file: the preamble plus every expected tensor record (header, name, data). */
export function expectedModelBytes(preamble: GgmlPreamble): number {
  return expectedWhisperTensors(preamble).reduce((sum, t) => sum + recordBytes(t), preamble.tensors_offset);
}

export interface TensorRecord {
  name: string;
  type: GgmlTensorType;
  ne: number[];
  /** byte offset of the record, of its data, and just past its data */
  offset: number;
  data_offset: number;
  end: number;
}

/** Longest record header read at once: 3 fields, 4 dims and a name of up to 256 bytes. */
export const MAX_TENSOR_RECORD_HEADER_BYTES = 12 + 16 + 256;

/**
 * Parses one tensor record header. `bytes` start at file offset `offset` and hold at least the whole
 * record header (or everything up to the end of the file, which then means the record is cut short).
 */
export function parseTensorRecord(bytes: Uint8Array, offset: number, file: string): TensorRecord {
  const cut = (): ModelFileError => new ModelFileError(file, say('refusal.modelFile.recordCut', { offset, left: bytes.length }));
  if (bytes.length < 12) throw cut();
  const v = view(bytes);
  const nDims = v.getInt32(0, true);
  const nameLength = v.getInt32(4, true);
  const typeId = v.getInt32(8, true);
  if (nDims < 1 || nDims > 4) throw new ModelFileError(file, say('refusal.modelFile.nDims', { offset, nDims }));
  if (nameLength < 1 || nameLength > 256) throw new ModelFileError(file, say('refusal.modelFile.nameLength', { offset, length: nameLength }));
  const type = TYPE_BY_ID.get(typeId);
  if (type === undefined) throw new ModelFileError(file, say('refusal.modelFile.unknownType', { offset, typeId }));
  const headerBytes = 12 + 4 * nDims + nameLength;
  if (bytes.length < headerBytes) throw cut();
  const ne: number[] = [];
  for (let i = 0; i < nDims; i++) {
    const d = v.getInt32(12 + 4 * i, true);
    if (d < 1) throw new ModelFileError(file, say('refusal.modelFile.dimension', { offset, i, d }));
    ne.push(d);
  }
  const nameStart = 12 + 4 * nDims;
  for (let i = nameStart; i < headerBytes; i++) {
    const c = bytes[i] ?? 0;
    if (c < 0x20 || c > 0x7e) throw new ModelFileError(file, say('refusal.modelFile.nameNotAscii', { offset }));
  }
  const name = ascii(bytes, nameStart, headerBytes);
  const dataBytes = tensorDataBytes(type, ne);
  if (dataBytes === null) throw new ModelFileError(file, say('refusal.modelFile.rowBlocks', { name, offset, n: ne[0] ?? 1, type }));
  const dataOffset = offset + headerBytes;
  return { name, type, ne, offset, data_offset: dataOffset, end: dataOffset + dataBytes };
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < 4; i++) if ((a[i] ?? 1) !== (b[i] ?? 1)) return false;
  return true;
}

const shape = (ne: readonly number[]): string => `[${ne.join(', ')}]`;

/**
 * Checks a whole model file: the preamble, then every tensor record against what whisper.cpp will
 * create for this header, and that each tensor's data is fully present. A file that ends right after
 * the vocabulary is a vocab-only test model (weights 'none'); anything cut short after that is rejected.
 */
export async function inspectGgmlModel(source: ByteSource, file: string): Promise<GgmlModelInfo> {
  const preamble = await readGgmlPreamble(source, file);
  const expected = expectedWhisperTensors(preamble);
  const ragged = expected.find((t) => tensorDataBytes(t.type, t.ne) === null);
  if (ragged) {
    const block = TENSOR_TYPES[ragged.type].block;
    throw new ModelFileError(
      file,
      say('refusal.modelFile.ragged', {
        type: ragged.type,
        block,
        name: ragged.name,
        n: ragged.ne[0] ?? 1,
        state: preamble.hparams.n_audio_state,
      }),
    );
  }
  const byName = new Map(expected.map((t) => [t.name, t]));
  const expectedBytes = expectedModelBytes(preamble);
  const seen = new Map<string, number>();

  let offset = preamble.tensors_offset;
  while (offset < source.size) {
    const chunk = await source.read(offset, Math.min(MAX_TENSOR_RECORD_HEADER_BYTES, source.size - offset));
    const record = parseTensorRecord(chunk, offset, file);
    const want = byName.get(record.name);
    if (!want) throw new ModelFileError(file, say('refusal.modelFile.unknownTensor', { name: record.name, offset }));
    const first = seen.get(record.name);
    if (first !== undefined) throw new ModelFileError(file, say('refusal.modelFile.twice', { name: record.name, first, offset }));
    if (!sameShape(record.ne, want.ne)) {
      throw new ModelFileError(file, say('refusal.modelFile.shape', { name: record.name, shape: shape(record.ne), want: shape(want.ne) }));
    }
    if (record.type !== want.type) {
      throw new ModelFileError(file, say('refusal.modelFile.type', { name: record.name, type: record.type, weightType: preamble.weight_type, want: want.type }));
    }
    if (record.end > source.size) {
      throw new ModelFileError(
        file,
        say('refusal.modelFile.truncatedTensor', {
          name: record.name,
          from: record.data_offset,
          to: record.end,
          size: source.size,
          expected: expectedBytes,
        }),
      );
    }
    seen.set(record.name, offset);
    offset = record.end;
  }

  if (seen.size > 0 && seen.size < expected.length) {
    const missing = expected.filter((t) => !seen.has(t.name));
    throw new ModelFileError(
      file,
      say('refusal.modelFile.missingTensors', {
        present: seen.size,
        expected: expected.length,
        missing: String(missing[0]?.name),
        size: source.size,
        expectedBytes,
      }),
    );
  }

  const h = preamble.hparams;
  const size_class = whisperSizeClass(h);
  if (seen.size === 0 && size_class === 'unknown') {
    // whisper.cpp loads a vocab-only file as an empty model and allocates every tensor the header implies
    const gb = (expectedBytes - preamble.tensors_offset) / 1e9;
    throw new ModelFileError(
      file,
      say('refusal.modelFile.vocabOnly', {
        state: h.n_audio_state,
        encoder: h.n_audio_layer,
        decoder: h.n_text_layer,
        amount: gb >= 1 ? say('refusal.modelFile.aboutGb', { gb: gb.toFixed(0) }) : say('refusal.modelFile.mb', { mb: (gb * 1000).toFixed(0) }),
      }),
    );
  }
  return {
    file,
    file_bytes: source.size,
    hparams: h,
    quantization_version: preamble.quantization_version,
    weight_type: preamble.weight_type,
    size_class,
    multilingual: h.n_vocab >= 51865,
    mel: preamble.mel,
    vocab_tokens: preamble.vocab_tokens,
    header_bytes: preamble.tensors_offset,
    expected_bytes: expectedBytes,
    weights: seen.size === 0 ? 'none' : 'complete',
    tensor_count: seen.size,
  };
}
