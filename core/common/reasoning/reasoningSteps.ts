import { sentenceSpans } from '../transcript/sentences';

/**
 * A model's reasoning as numbered steps, so an annotator can judge "step three" and a process-reward record can
 * say which step earned which reward. The rule is fixed and documented (README, "Model reasoning"):
 *
 * - `numbered`: a line that starts with a step number ("1.", "2)", "3:", "Step 4:", "Schritt 5:") begins a step;
 *   the lines after it, up to the next numbered line, belong to it. In `auto` this rule applies only when the first
 *   non-blank line is numbered 1 and the numbers run 1, 2, 3, … without a gap, so step k is what the model called k.
 * - `paragraphs`: blank lines separate steps.
 * - `sentences`: a sentence ends at `.`, `!`, `?` or `…` (closing quotes and brackets included) followed by
 *   white space and a character that is not a lower-case letter ("e.g. this" and "3.5" stay whole).
 * - `lines`: every non-blank line is a step.
 * - `none`: the whole reasoning is one step.
 * - `auto` (the default): numbered if it applies, else paragraphs if there are at least two, else sentences.
 *
 * Steps are trimmed; empty pieces are dropped. Steps given as a list (`model_steps`) are used as given.
 */
export type ReasoningSplit = 'auto' | 'numbered' | 'paragraphs' | 'sentences' | 'lines' | 'none';
export const REASONING_SPLITS: readonly ReasoningSplit[] = ['auto', 'numbered', 'paragraphs', 'sentences', 'lines', 'none'];

/** What the split chose: the rule `auto` resolved to, or the configured one. */
export type AppliedSplit = Exclude<ReasoningSplit, 'auto'> | 'given';

export interface ReasoningSteps {
  /** step texts; step k (1-based, as annotators say it) is steps[k - 1] */
  steps: string[];
  split: AppliedSplit;
}

/** "1.", "2)", "3:", "Step 4", "Step 4:", "Schritt 5 -", optionally in markdown bold; "1.5" and "10:30" are not step numbers. */
const NUMBERED_LINE = /^\s*(?:\*\*|__)?(?:(?:step|schritt)\s+(\d{1,3})(?!\d)|(\d{1,3})[.):](?!\d))/iu;

/** The step number a step's own text starts with ("4. So …" → 4), or null: then a screen numbers the step itself. */
export function ownStepNumber(text: string): number | null {
  const m = NUMBERED_LINE.exec(text);
  return m ? Number(m[1] ?? m[2]) : null;
}

interface NumberedLine {
  line: number;
  number: number;
}

function numberedLines(lines: readonly string[]): NumberedLine[] {
  const found: NumberedLine[] = [];
  lines.forEach((text, line) => {
    const m = NUMBERED_LINE.exec(text);
    if (m) found.push({ line, number: Number(m[1] ?? m[2]) });
  });
  return found;
}

function tidy(pieces: readonly string[]): string[] {
  return pieces.map((p) => p.trim()).filter((p) => p !== '');
}

function splitLinesOf(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** Steps at numbered lines; a preamble before the first numbered line is its own step. */
function byNumbers(lines: readonly string[], numbered: readonly NumberedLine[]): string[] {
  const pieces: string[] = [];
  const first = numbered[0]?.line ?? lines.length;
  if (first > 0) pieces.push(lines.slice(0, first).join('\n'));
  numbered.forEach((n, i) => pieces.push(lines.slice(n.line, numbered[i + 1]?.line ?? lines.length).join('\n')));
  return tidy(pieces);
}

/** Whether the text is a numbered list 1, 2, 3, … from its first non-blank line. */
function numberedFromOne(lines: readonly string[], numbered: readonly NumberedLine[]): boolean {
  if (numbered.length < 2) return false;
  const firstText = lines.findIndex((l) => l.trim() !== '');
  if (numbered[0]!.line !== firstText) return false;
  return numbered.every((n, i) => n.number === i + 1);
}

function byParagraphs(text: string): string[] {
  return tidy(text.split(/(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)\s*/));
}

function bySentences(text: string): string[] {
  return tidy(sentenceSpans(text).map(([start, end]) => text.slice(start, end)));
}

/** The steps of a reasoning text by the configured rule. */
export function splitReasoning(text: string, split: ReasoningSplit = 'auto'): ReasoningSteps {
  const lines = splitLinesOf(text);
  const whole = (): ReasoningSteps => ({ steps: tidy([text]), split: 'none' });
  switch (split) {
    case 'none':
      return whole();
    case 'lines':
      return { steps: tidy(lines), split: 'lines' };
    case 'paragraphs':
      return { steps: byParagraphs(text), split: 'paragraphs' };
    case 'sentences':
      return { steps: bySentences(text), split: 'sentences' };
    case 'numbered': {
      const numbered = numberedLines(lines);
      return numbered.length === 0 ? whole() : { steps: byNumbers(lines, numbered), split: 'numbered' };
    }
    case 'auto': {
      const numbered = numberedLines(lines);
      if (numberedFromOne(lines, numbered)) return { steps: byNumbers(lines, numbered), split: 'numbered' };
      const paragraphs = byParagraphs(text);
      if (paragraphs.length >= 2) return { steps: paragraphs, split: 'paragraphs' };
      return { steps: bySentences(text), split: 'sentences' };
    }
  }
}

/** The model side of an item, as the annotator sees it: the label the model gave and its reasoning steps. */
export interface ModelReasoning {
  label: string | null;
  steps: string[];
  split: AppliedSplit;
}

/** The model reasoning of an item, or null when the item has none. */
export function itemModelReasoning(
  item: { model_reasoning?: string; model_steps?: string[]; model_label?: string },
  split: ReasoningSplit = 'auto',
): ModelReasoning | null {
  if (item.model_steps !== undefined) return { label: item.model_label ?? null, steps: [...item.model_steps], split: 'given' };
  if (item.model_reasoning !== undefined) return { label: item.model_label ?? null, ...splitReasoning(item.model_reasoning, split) };
  if (item.model_label !== undefined) return { label: item.model_label, steps: [], split: 'given' };
  return null;
}
