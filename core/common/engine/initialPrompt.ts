/**
 * Whisper's initial prompt for a project: the words the parser listens for, so that whisper spells them as it
 * expects — the label names, their synonyms in the active languages and one example of each commit phrase — and,
 * last, the filler prompt that keeps whisper writing um and uh (and äh when German is active). Whisper reads the
 * prompt as text said just before, and keeps only the last 224 tokens of a longer one, so the filler prompt goes at
 * the end. The project's words are capped (PROJECT_PROMPT_TOKEN_CAP, estimated tokens): whisper.cpp computes the
 * logits of the whole vocabulary for every prompt token, so each costs time on every decode. They are taken while
 * they fit: each language's first commit phrase with every label ("I label this polite, impolite, neutral."; if even
 * that is too long, the names alone), the synonyms, one example of each other commit phrase. Whether this helps
 * recognition needs real weights to measure (see the README).
 */
import type { LabelDef } from '../parser/parseTypes';
import { DEFAULT_STEMS } from '../parser/defaultStems';
import { compileStemPattern } from '../parser/stemPattern';
import { DEFAULT_INITIAL_PROMPT } from './decodeSettings';

/** Cap on the project's words in the prompt, in estimated tokens (whisper allows 224 in all). */
export const PROJECT_PROMPT_TOKEN_CAP = 20;

/** Filled pauses written into the prompt per language beside the English ones, so whisper keeps them too. */
const FILLER_PROMPTS: Readonly<Record<string, string>> = { de: 'Äh, ähm, hm.' };

/**
 * Tokens whisper needs for a text, estimated the way whisper.cpp cuts it (greedy longest pieces of its vocabulary):
 * a run of ASCII letters or digits one token per two characters (rounded up), every other byte one token, and a
 * space before a non-ASCII letter one more. Greedy cutting can take more tokens than the byte-pair merges it stands
 * for, hence the margin; a test checks it against whisper.cpp's own tokenizer on label vocabularies.
 */
export function estimatePromptTokens(text: string): number {
  let tokens = 0;
  for (const run of text.matchAll(/(\s?)([A-Za-z]+|[0-9]+|[^\sA-Za-z0-9])/gu)) {
    const [, space, piece] = run as unknown as [string, string, string];
    if (/^[A-Za-z0-9]/.test(piece)) tokens += Math.ceil(piece.length / 2);
    else {
      const cp = piece.codePointAt(0)!;
      tokens += (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4) + (space !== '' && cp >= 0x80 ? 1 : 0);
    }
  }
  return tokens;
}

const sentenceCase = (words: readonly string[]): string =>
  words
    .map((w, i) => (w === 'i' || w.startsWith("i'") ? `I${w.slice(1)}` : i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w))
    .join(' ');

/** The plainest phrasing of a pattern: fewest words, contractions counted as two more (the first among equals). */
function plainest(phrasings: readonly string[][]): readonly string[] {
  const weight = (words: readonly string[]): number => words.length + 2 * words.filter((w) => w.includes("'")).length;
  return phrasings.reduce((best, p) => (weight(p) < weight(best) ? p : best));
}

/** How a label is said in a language: its name (in lower case), or in a language other than English its first synonym there. */
function spokenLabel(label: LabelDef, language: string): string {
  return (language === 'en' ? undefined : label.synonyms[language]?.[0]) ?? label.name.toLowerCase();
}

export function projectInitialPrompt(
  input: { labels: readonly LabelDef[]; languages: readonly string[]; stems?: Readonly<Record<string, readonly string[]>> },
  tokenCap = PROJECT_PROMPT_TOKEN_CAP,
): string {
  let tokens = 0;
  const fits = (text: string): boolean => {
    const cost = estimatePromptTokens(text);
    if (tokens + cost > tokenCap) return false;
    tokens += cost;
    return true;
  };
  const patternsOf = (language: string): readonly string[] => input.stems?.[language] ?? DEFAULT_STEMS[language] ?? [];
  const phrase = (pattern: string, labels: string): string => {
    const compiled = compileStemPattern(pattern);
    return `${sentenceCase([...plainest(compiled.phrasings), labels, ...(compiled.tail ? plainest(compiled.tail) : [])].filter((w) => w !== ''))}.`;
  };
  const pieces: string[] = [];
  const said = new Set<string>();
  // each language's first commit phrase with every label as said in it: "I label this polite, impolite, neutral."
  input.languages.forEach((language, i) => {
    const first = patternsOf(language)[0];
    const spoken = input.labels.map((l) => spokenLabel(l, language));
    if (first === undefined || spoken.length === 0) return;
    const sentence = phrase(first, spoken.join(', '));
    if (fits(` ${sentence}`)) {
      pieces.push(sentence);
      for (const word of spoken) said.add(word.toLowerCase());
    } else if (i === 0) {
      // too long: as many of the names as fit
      const names = input.labels.map((l) => l.name).filter((name) => fits(` ${name},`));
      if (names.length > 0) pieces.push(`${names.join(', ')}.`);
      for (const name of names) said.add(name.toLowerCase());
    }
  });
  // then the synonyms not said yet, then one example of each other commit phrase
  const synonyms = [...new Set(input.languages.flatMap((language) => input.labels.flatMap((l) => l.synonyms[language] ?? [])))]
    .filter((word) => !said.has(word.toLowerCase()) && !input.labels.some((l) => l.name.toLowerCase() === word.toLowerCase()))
    .filter((word) => fits(` ${word},`));
  if (synonyms.length > 0) pieces.push(`${sentenceCase([synonyms.join(', ')])}.`);
  let example = 0;
  for (const language of input.languages) {
    for (const pattern of patternsOf(language).slice(1)) {
      // an inverted German phrase ("wähle ich") commits only after a lead-in: no example of it alone
      if (compileStemPattern(pattern).phrasings.every((p) => p[1] === 'ich' && p[0] !== 'ich')) continue;
      const label = input.labels.length === 0 ? '' : spokenLabel(input.labels[example++ % input.labels.length]!, language);
      const sentence = phrase(pattern, label);
      if (fits(` ${sentence}`)) pieces.push(sentence);
    }
  }
  const fillers = [DEFAULT_INITIAL_PROMPT, ...input.languages.flatMap((l) => (FILLER_PROMPTS[l] ? [FILLER_PROMPTS[l]] : []))];
  return [...pieces, ...fillers].join(' ');
}
