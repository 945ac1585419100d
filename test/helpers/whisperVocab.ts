import { readFile } from 'node:fs/promises';

/**
 * whisper.cpp's own tokenizer (src/whisper.cpp `tokenize`), for checking token counts in tests: the text split by its
 * regex over bytes (letters and digits are ASCII only: std::regex in the C locale), then each piece cut greedily into
 * the longest tokens of the model's vocabulary. Texts and tokens are handled as byte strings (latin1).
 */
export interface WhisperVocab {
  tokens: Set<string>;
  count: number;
}

/** The vocabulary of a ggml whisper model file: after the 11 hparams and the mel filters, i32 count, then {u32 len, bytes}. */
export async function readWhisperVocab(file: string): Promise<WhisperVocab> {
  const bytes = await readFile(file);
  let at = 4 + 11 * 4;
  const nMel = bytes.readInt32LE(at);
  const nFft = bytes.readInt32LE(at + 4);
  at += 8 + nMel * nFft * 4;
  const count = bytes.readInt32LE(at);
  at += 4;
  const tokens = new Set<string>();
  for (let i = 0; i < count; i++) {
    const length = bytes.readUInt32LE(at);
    tokens.add(bytes.toString('latin1', at + 4, at + 4 + length));
    at += 4 + length;
  }
  return { tokens, count };
}

const PIECES = /'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+/g;

export function whisperTokenCount(vocab: WhisperVocab, text: string): number {
  const bytes = Buffer.from(text, 'utf8').toString('latin1');
  let tokens = 0;
  for (const [piece] of bytes.matchAll(PIECES)) {
    for (let i = 0; i < piece.length;) {
      let j = piece.length;
      while (j > i && !vocab.tokens.has(piece.slice(i, j))) j--;
      tokens++;
      i = j > i ? j : i + 1;
    }
  }
  return tokens;
}
