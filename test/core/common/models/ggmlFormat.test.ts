import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  byteSourceOf,
  expectedModelBytes,
  expectedWhisperTensors,
  type GgmlModelInfo,
  type GgmlTensorType,
  inspectGgmlModel,
  readGgmlPreamble,
  tensorDataBytes,
  whisperSizeClass,
} from '../../../../core/common/models/ggmlFormat';
import { ModelFileError } from '../../../../core/common/models/modelFileError';

const FOR_TESTS_MODEL = path.resolve(import.meta.dirname, '../../../../../shared/models/for-tests-ggml-tiny.en.bin');
const haveShared = existsSync(FOR_TESTS_MODEL);
if (!haveShared) console.warn(`skipping ggml tests that need ${FOR_TESTS_MODEL} (../shared is absent)`);

const TYPE_ID: Record<GgmlTensorType, number> = { f32: 0, f16: 1, q4_0: 2, q4_1: 3, q5_0: 6, q5_1: 7, q8_0: 8, q2_k: 10, q3_k: 11, q4_k: 12, q5_k: 13, q6_k: 14 };

/** The vocab-only test model plus zero-filled tensor records laid out as whisper.cpp's converter writes them. */
function withZeroWeights(preambleBytes: Uint8Array, tensors: ReturnType<typeof expectedWhisperTensors>): Uint8Array {
  const sizes = tensors.map((t) => 12 + 4 * t.ne.length + t.name.length + (tensorDataBytes(t.type, t.ne) ?? 0));
  const out = new Uint8Array(preambleBytes.length + sizes.reduce((a, b) => a + b, 0));
  out.set(preambleBytes, 0);
  const dv = new DataView(out.buffer);
  let at = preambleBytes.length;
  tensors.forEach((t, i) => {
    dv.setInt32(at, t.ne.length, true);
    dv.setInt32(at + 4, t.name.length, true);
    dv.setInt32(at + 8, TYPE_ID[t.type], true);
    t.ne.forEach((d, k) => dv.setInt32(at + 12 + 4 * k, d, true));
    for (let c = 0; c < t.name.length; c++) out[at + 12 + 4 * t.ne.length + c] = t.name.charCodeAt(c);
    at += sizes[i]!;
  });
  return out;
}

async function inspect(bytes: Uint8Array, file = 'model.bin'): Promise<GgmlModelInfo> {
  return inspectGgmlModel(byteSourceOf(bytes), file);
}

async function rejection(bytes: Uint8Array, file = 'model.bin'): Promise<ModelFileError> {
  try {
    await inspect(bytes, file);
  } catch (e) {
    expect(e).toBeInstanceOf(ModelFileError);
    return e as ModelFileError;
  }
  throw new Error('expected a ModelFileError');
}

function withInt32(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setInt32(offset, value, true);
  return copy;
}

/** Header field offsets: magic, then n_vocab, n_audio_ctx, … ftype. */
const FIELD = { n_vocab: 4, n_audio_ctx: 8, n_audio_state: 12, n_audio_head: 16, n_audio_layer: 20, n_text_ctx: 24, n_text_state: 28, n_mels: 40, ftype: 44 };

describe.skipIf(!haveShared)('ggml whisper model format (vocab-only test model)', () => {
  let testModel: Uint8Array;
  beforeAll(() => {
    testModel = new Uint8Array(readFileSync(FOR_TESTS_MODEL));
  });

  it('reads the tiny.en header and reports a vocab-only model as weights "none"', async () => {
    const info = await inspect(testModel);
    expect(info.hparams).toEqual({
      n_vocab: 51864, n_audio_ctx: 1500, n_audio_state: 384, n_audio_head: 6, n_audio_layer: 4,
      n_text_ctx: 448, n_text_state: 384, n_text_head: 6, n_text_layer: 4, n_mels: 80, ftype: 1,
    });
    expect(info).toMatchObject({ weight_type: 'f16', size_class: 'tiny', multilingual: false, weights: 'none', tensor_count: 0 });
    expect(info.mel).toEqual({ n_mel: 80, n_fft: 201 });
    expect(info.header_bytes).toBe(testModel.length);
    expect(info.vocab_tokens).toBeGreaterThan(50000);
    // 11 fixed tensors + 15 per encoder layer + 24 per decoder layer
    expect(expectedWhisperTensors({ hparams: info.hparams, weight_type: 'f16' })).toHaveLength(11 + 15 * 4 + 24 * 4);
  });

  it('splits the quantization version out of ftype', async () => {
    const info = await inspect(withInt32(testModel, FIELD.ftype, 2 * 1000 + 8));
    expect(info.hparams.ftype).toBe(8);
    expect(info.quantization_version).toBe(2);
    expect(info.weight_type).toBe('q5_0');
  });

  describe('with every tensor present', () => {
    let complete: Uint8Array;
    let tensors: ReturnType<typeof expectedWhisperTensors>;
    beforeAll(async () => {
      const preamble = await readGgmlPreamble(byteSourceOf(testModel), 't');
      tensors = expectedWhisperTensors(preamble);
      complete = withZeroWeights(testModel, tensors);
    });

    it('accepts the complete file and its size equals what the header implies', async () => {
      const info = await inspect(complete);
      expect(info.weights).toBe('complete');
      expect(info.tensor_count).toBe(tensors.length);
      expect(info.expected_bytes).toBe(complete.length);
    });

    it('accepts tensors in any order, as the loader looks them up by name', async () => {
      const reversed = withZeroWeights(testModel, [...tensors].reverse());
      expect((await inspect(reversed)).weights).toBe('complete');
    });

    it('rejects a file cut in the middle of a tensor, naming the tensor and the sizes', async () => {
      const err = await rejection(complete.subarray(0, complete.length - 1000), '/models/cut.bin');
      expect(err.message).toMatch(/^\/models\/cut\.bin: truncated: tensor 'decoder\.[^']+' needs bytes \d+–\d+ but the file ends at \d+/);
      expect(err.message).toContain(`a complete file with this header is ${complete.length} bytes`);
    });

    it('rejects a file cut between two tensors', async () => {
      const firstTwo = testModel.length + [0, 1].reduce((sum, i) => sum + 12 + 4 * tensors[i]!.ne.length + tensors[i]!.name.length + tensorDataBytes(tensors[i]!.type, tensors[i]!.ne)!, 0);
      expect(firstTwo).toBeLessThan(complete.length);
      const err = await rejection(complete.subarray(0, firstTwo));
      expect(err.reason).toMatch(/^truncated: 2 of 167 tensors present \(first missing: 'encoder\.conv1\.bias'\)/);
    });

    it('rejects a file cut inside a tensor record header', async () => {
      const err = await rejection(complete.subarray(0, testModel.length + 7));
      expect(err.reason).toContain(`truncated: the file ends inside the tensor record at byte ${testModel.length}`);
    });

    it('rejects a tensor stored with a type the loader would refuse', async () => {
      const firstWeight = tensors.findIndex((t) => t.type === 'f16');
      const wrong = tensors.map((t, i) => (i === firstWeight ? { ...t, type: 'f32' as const } : t));
      const err = await rejection(withZeroWeights(testModel, wrong));
      expect(err.reason).toContain(`tensor '${tensors[firstWeight]!.name}' is stored as f32 but a f16 model needs f16`);
    });

    it('rejects a tensor with the wrong shape, an unknown tensor and trailing bytes', async () => {
      const reshaped = tensors.map((t) => (t.name === 'encoder.positional_embedding' ? { ...t, ne: [384, 1499] } : t));
      expect((await rejection(withZeroWeights(testModel, reshaped))).reason).toContain("'encoder.positional_embedding' has shape [384, 1499] but this header implies [384, 1500]");
      const renamed = tensors.map((t) => (t.name === 'decoder.ln.bias' ? { ...t, name: 'decoder.ln.beta' } : t));
      expect((await rejection(withZeroWeights(testModel, renamed))).reason).toContain("unknown tensor 'decoder.ln.beta'");
      const trailing = new Uint8Array(complete.length + 16);
      trailing.set(complete);
      expect((await rejection(trailing)).reason).toMatch(/tensor record at byte \d+: n_dims = 0/);
    });
  });

  it('rejects a file cut in the vocabulary or the header', async () => {
    expect((await rejection(testModel.subarray(0, 300_000))).reason).toMatch(/^truncated: the file ends at byte 300000 inside vocabulary token \d+ of 50257/);
    expect((await rejection(testModel.subarray(0, 20))).reason).toMatch(/^truncated: the file ends at byte 20 inside the header \(hparams\)/);
    expect((await rejection(testModel.subarray(0, 2))).reason).toBe('is only 2 bytes, not a whisper model');
    expect((await rejection(new Uint8Array(0))).reason).toBe('is empty (0 bytes), not a whisper model');
  });

  it('rejects hparams outside what whisper models have, naming the field', async () => {
    expect((await rejection(withInt32(testModel, FIELD.n_audio_ctx, 99999))).reason).toContain('n_audio_ctx = 99999 is outside the range of whisper models (1–1500)');
    expect((await rejection(withInt32(testModel, FIELD.n_vocab, 50257))).reason).toContain('n_vocab = 50257');
    expect((await rejection(withInt32(testModel, FIELD.n_mels, 81))).reason).toContain('n_mels = 81');
    expect((await rejection(withInt32(testModel, FIELD.n_text_state, 512))).reason).toContain('n_text_state = 512 differs from n_audio_state = 384');
    expect((await rejection(withInt32(testModel, FIELD.n_audio_head, 5))).reason).toContain('not divisible by n_audio_head = 5');
    expect((await rejection(withInt32(testModel, FIELD.ftype, 5))).reason).toContain('ftype = 5 is not a weight type whisper.cpp can load');
    expect((await rejection(withInt32(testModel, 48, 79))).reason).toContain('mel filters have 79 bands but n_mels = 80');
  });

  it('refuses what whisper.cpp 1.9.1 cannot run: f32 weights, rows that are not whole quantization blocks', async () => {
    expect((await rejection(withInt32(testModel, FIELD.ftype, 0))).reason).toBe(
      'header: ftype = 0 (f32 weights): whisper.cpp 1.9.1 cannot run an f32 model (its encoder convolution takes f16 kernels only); use an f16 or quantized file of the model',
    );
    // tiny's rows are 384 values: not whole 256-value k-quant blocks, even with no weights in the file
    expect((await rejection(withInt32(testModel, FIELD.ftype, 12))).reason).toBe(
      "a q4_k model needs rows of whole 256-value blocks, but 'encoder.blocks.0.mlp.0.weight' has rows of 384 values (n_audio_state = 384): whisper.cpp cannot load it; quantize this model as q4_0, q4_1, q5_0, q5_1 or q8_0",
    );
    // base (512) is whole blocks: q4_k is fine there
    let base = withInt32(withInt32(testModel, FIELD.n_audio_state, 512), FIELD.n_text_state, 512);
    base = withInt32(withInt32(withInt32(base, FIELD.n_audio_layer, 6), 36, 6), FIELD.ftype, 12);
    base = withInt32(withInt32(base, FIELD.n_audio_head, 8), 32, 8);
    expect(await inspect(base)).toMatchObject({ size_class: 'base', weight_type: 'q4_k', weights: 'none' });
  });

  it('refuses a vocab-only file whose dimensions match no whisper model, saying what whisper.cpp would allocate', async () => {
    let huge = testModel;
    for (const [offset, value] of [[FIELD.n_audio_state, 8192], [FIELD.n_audio_head, 64], [FIELD.n_audio_layer, 32], [FIELD.n_text_state, 8192], [32, 64], [36, 32]] as const) huge = withInt32(huge, offset, value);
    expect((await rejection(huge)).reason).toBe(
      'holds no weights (a vocab-only file) and its dimensions match no whisper model (n_audio_state = 8192, 32 encoder and 32 decoder layers): whisper.cpp would allocate about 122 GB for weights the file does not hold',
    );
    // the same shape with every weight present is a (large) model like any other: its size is checked instead
    expect(whisperSizeClass({ n_audio_layer: 32, n_audio_state: 8192 })).toBe('unknown');
  });
});

describe('foreign files', () => {
  const text = (s: string): Uint8Array => new Uint8Array([...s].map((c) => c.charCodeAt(0)));
  it.each([
    ['GGUF\x03\x00\x00\x00rest-of-header', 'is a GGUF file'],
    ['PK\x03\x04archive/data.pkl', 'is a ZIP archive (a PyTorch checkpoint?)'],
    ['version https://git-lfs.github.com/spec/v1\noid sha256:abc\n', 'is a Git LFS pointer file'],
    ['<!DOCTYPE html><html>Not found</html>', 'is a text (HTML/JSON) document'],
    ['tjgg\x01\x00\x00\x00', 'is a llama.cpp legacy model'],
    ['ggml\x00\x00\x00\x00', 'has a byte-swapped (big-endian) ggml magic'],
    ['\x01\x02\x03\x04\x05\x06', 'is not a whisper.cpp ggml model (magic 0x04030201, expected 0x67676d6c "ggml")'],
  ])('%j is named for what it is', async (content, expected) => {
    expect((await rejection(text(content), 'x.bin')).message).toContain(`x.bin: ${expected}`);
  });
});

describe('sizes and classes', () => {
  it('computes tensor bytes for plain and quantized types', () => {
    expect(tensorDataBytes('f32', [384])).toBe(1536);
    expect(tensorDataBytes('f16', [384, 384])).toBe(294912);
    expect(tensorDataBytes('q5_0', [384, 384])).toBe((384 * 384 * 22) / 32);
    expect(tensorDataBytes('q8_0', [512, 2048])).toBe((512 * 2048 * 34) / 32);
    expect(tensorDataBytes('q4_k', [768, 768])).toBe((768 * 768 * 144) / 256);
    expect(tensorDataBytes('q4_k', [384, 384])).toBeNull();
  });

  it('names the size class from encoder depth and width', () => {
    expect(whisperSizeClass({ n_audio_layer: 4, n_audio_state: 384 })).toBe('tiny');
    expect(whisperSizeClass({ n_audio_layer: 6, n_audio_state: 512 })).toBe('base');
    expect(whisperSizeClass({ n_audio_layer: 12, n_audio_state: 768 })).toBe('small');
    expect(whisperSizeClass({ n_audio_layer: 24, n_audio_state: 1024 })).toBe('medium');
    expect(whisperSizeClass({ n_audio_layer: 32, n_audio_state: 1280 })).toBe('large');
    expect(whisperSizeClass({ n_audio_layer: 4, n_audio_state: 512 })).toBe('unknown');
  });

  it('expects conv kernels in f16 for a quantized model and f32 for an f32 model', () => {
    const hparams = { n_vocab: 51864, n_audio_ctx: 1500, n_audio_state: 384, n_audio_head: 6, n_audio_layer: 4, n_text_ctx: 448, n_text_state: 384, n_text_head: 6, n_text_layer: 4, n_mels: 80, ftype: 8 };
    const quantized = expectedWhisperTensors({ hparams, weight_type: 'q5_0' });
    expect(quantized.find((t) => t.name === 'encoder.conv1.weight')?.type).toBe('f16');
    expect(quantized.find((t) => t.name === 'decoder.token_embedding.weight')?.type).toBe('q5_0');
    expect(quantized.find((t) => t.name === 'decoder.blocks.3.cross_attn.out.bias')?.type).toBe('f32');
    expect(expectedWhisperTensors({ hparams, weight_type: 'f32' }).find((t) => t.name === 'encoder.conv2.weight')?.type).toBe('f32');
    const preamble = { hparams, weight_type: 'q5_0' as const, quantization_version: 2, mel: { n_mel: 80, n_fft: 201 }, vocab_tokens: 51864, tensors_offset: 1000 };
    expect(expectedModelBytes(preamble)).toBeGreaterThan(1000);
  });
});
