import { Refusal } from '../refusal/refusal';
/**
 * Where strict input failed. Stages run in this order and a later stage only sees what passed the earlier ones:
 * input (size, UTF-8) | parse (JSON/CSV syntax, duplicate keys, NaN) | schema (JSON Schema) | rule (ids, references, identity).
 */
export type InputStage = 'input' | 'parse' | 'schema' | 'rule';

/** One problem in a file read from outside, located as precisely as the stage allows. */
export interface InputProblem {
  file: string;
  /** 1-based physical line; null when the problem is about the whole file */
  line: number | null;
  /** key path inside the value, e.g. "commitments[0].quote"; null when not about one field */
  field: string | null;
  stage: InputStage;
  message: string;
}

/** Thrown when a file is rejected; carries every problem found by the stage that failed. */
export class InputError extends Refusal {
  constructor(readonly problems: InputProblem[]) {
    super('bad_request', summarizeProblems(problems));
    this.name = 'InputError';
  }
}

/** "file:line: message (field "x", stage parse)" — location first so the line reads like a compiler error. */
export function formatInputProblem(p: InputProblem): string {
  const where = p.line === null ? p.file : `${p.file}:${p.line}`;
  const field = p.field === null ? '' : `field "${p.field}", `;
  return `${where}: ${p.message} (${field}stage ${p.stage})`;
}

/** One line for a CLI: the first problem and how many more there are. */
export function summarizeProblems(problems: readonly InputProblem[]): string {
  const [first] = problems;
  if (!first) return 'no problems';
  const more = problems.length - 1;
  return more > 0 ? `${formatInputProblem(first)} (+${more} more problem${more === 1 ? '' : 's'})` : formatInputProblem(first);
}

/** JSON pointer ("/commitments/0/quote") → field path ("commitments[0].quote"); "" → null. */
export function pointerToField(pointer: string): string | null {
  if (pointer === '') return null;
  const parts = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let out = '';
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  return out;
}

/** A key appended to a JSON pointer, escaped as RFC 6901 requires. */
export function childPointer(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}
