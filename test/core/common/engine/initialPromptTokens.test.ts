import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INITIAL_PROMPT } from '../../../../core/common/engine/decodeSettings';
import { estimatePromptTokens, PROJECT_PROMPT_TOKEN_CAP, projectInitialPrompt } from '../../../../core/common/engine/initialPrompt';
import type { LabelDef } from '../../../../core/common/parser/parseTypes';
import { readWhisperVocab, whisperTokenCount, type WhisperVocab } from '../../../helpers/whisperVocab';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const model = path.resolve(repo, '../shared/models/for-tests-ggml-tiny.en.bin');

const schemas: Array<{ name: string; labels: LabelDef[]; languages: string[] }> = [
  {
    name: 'politeness',
    labels: [
      { name: 'Polite', synonyms: { en: ['courteous'], de: ['höflich'] } },
      { name: 'Impolite', synonyms: { en: ['rude'], de: ['unhöflich'] } },
      { name: 'Neutral', synonyms: { de: ['neutral'] } },
    ],
    languages: ['en', 'de'],
  },
  {
    name: 'harm',
    labels: [
      { name: 'Harmless', synonyms: { en: ['safe', 'benign'] } },
      { name: 'Toxic', synonyms: { en: ['offensive', 'abusive'] } },
      { name: 'Not sure', synonyms: { en: ['unclear'] } },
    ],
    languages: ['en'],
  },
  {
    name: 'Hilfsbereitschaft',
    labels: [
      { name: 'Hilfreich', synonyms: { de: ['nützlich', 'brauchbar'] } },
      { name: 'Übergriffig', synonyms: { de: ['grenzüberschreitend', 'aufdringlich'] } },
      { name: 'Ausweichend', synonyms: { de: ['vage', 'unklar', 'schwammig'] } },
    ],
    languages: ['de'],
  },
  {
    name: 'many labels',
    labels: ['Sarcastic', 'Sincere', 'Off-topic', 'Hallucinated', 'Well-mannered', 'Condescending', 'Apologetic', 'Evasive'].map(
      (name) => ({ name, synonyms: {} }),
    ),
    languages: ['en'],
  },
];

describe.skipIf(!existsSync(model))("the prompt's token estimate against whisper.cpp's own tokenizer (the test model's vocabulary)", () => {
  let vocab: WhisperVocab;
  beforeAll(async () => {
    vocab = await readWhisperVocab(model);
  });

  it("the vocabulary is whisper's (50,257 byte-pair tokens of tiny.en)", () => {
    expect(vocab.count).toBe(50257);
    expect(whisperTokenCount(vocab, 'Um, uh, hmm, er, ah.')).toBe(11);
  });

  it.each(schemas.map((s) => [s.name, s] as const))(
    "%s: the project's words stay within the cap in real tokens, and the estimate is never below them",
    (_name, schema) => {
      const prompt = projectInitialPrompt(schema);
      const projectPart = prompt.slice(0, prompt.indexOf(DEFAULT_INITIAL_PROMPT)).trim();
      expect(projectPart).not.toBe('');
      expect(whisperTokenCount(vocab, projectPart)).toBeLessThanOrEqual(estimatePromptTokens(projectPart));
      expect(whisperTokenCount(vocab, projectPart)).toBeLessThanOrEqual(PROJECT_PROMPT_TOKEN_CAP);
      for (const label of schema.labels) {
        for (const word of [label.name, ...Object.values(label.synonyms).flat()]) {
          expect(whisperTokenCount(vocab, ` ${word},`), word).toBeLessThanOrEqual(estimatePromptTokens(` ${word},`));
        }
      }
    },
  );
});
