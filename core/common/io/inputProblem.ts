import { Refusal } from '../refusal/refusal';
import { englishRefusal, say, type RefusalMessage, type RefusalValue } from '../refusal/refusalMessage';
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
    super('bad_request', summarizeProblems(problems), problemsSaid(problems));
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

/** A problem's catalog message, kept beside it (not in it: `aloud validate --json` prints problems as they are). */
export const SAID_BESIDE = new WeakMap<InputProblem, RefusalMessage>();

/** A problem of ours with its catalog message kept beside it; the message is the catalog message's English. */
export function saidProblem(problem: Omit<InputProblem, 'message'>, said: RefusalMessage): InputProblem {
  const withMessage: InputProblem = { ...problem, message: englishRefusal(said) };
  SAID_BESIDE.set(withMessage, said);
  return withMessage;
}

/** What a problem says, as a refusal value: its catalog message when it has one, else its English message. */
export function inputProblemSaid(problem: InputProblem): RefusalValue {
  return SAID_BESIDE.get(problem) ?? problem.message;
}

/** The refusal line as a catalog message (the first problem, how many more), its English equal to summarizeProblems. */
function problemsSaid(problems: readonly InputProblem[]): RefusalMessage | undefined {
  const [first] = problems;
  if (!first) return undefined;
  const where = first.line === null ? first.file : `${first.file}:${first.line}`;
  const problem = inputProblemSaid(first);
  const line =
    first.field === null
      ? say('refusal.input.problem', { where, problem, stage: first.stage })
      : say('refusal.input.problemInField', { where, problem, field: first.field, stage: first.stage });
  return problems.length > 1 ? say('refusal.input.andMore', { first: line, more: problems.length - 1 }) : line;
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
