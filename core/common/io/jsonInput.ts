import { InputError, pointerToField, type InputProblem } from './inputProblem';
import { JsonSyntaxError, parseStrictJson } from './strictJson';

/** One JSON value read from a file, with a way to find the line of any field inside it. */
export interface LocatedValue {
  /** line where the value starts */
  line: number;
  /** where the value sits in its file: "" for a whole line or file, "/3" for element 3 of an array file */
  pointer: string;
  value: unknown;
  /** line of the value at a JSON pointer relative to this value (nearest recorded ancestor) */
  locate: (pointer: string) => number;
}

export function syntaxProblem(e: unknown, file: string, prefix = ''): InputProblem {
  if (!(e instanceof JsonSyntaxError)) throw e;
  return { file, line: e.line, field: pointerToField(prefix + e.pointer), stage: 'parse', message: `${e.message} (column ${e.column})` };
}

/**
 * JSON Lines: exactly one JSON value on each line. Blank lines are skipped (they carry nothing; an editor's final
 * newline is one). Every line is parsed, so the problems list every syntax error of the file.
 */
export function readJsonLines(text: string, file: string): { records: LocatedValue[]; problems: InputProblem[] } {
  const records: LocatedValue[] = [];
  const problems: InputProblem[] = [];
  const stream = new JsonLinesStream(
    file,
    (r) => records.push(r),
    (p) => problems.push(p),
  );
  stream.push(text);
  stream.end();
  return { records, problems };
}

/** readJsonLines a piece of text at a time: each line is parsed when its line break arrives (the last one at the end). */
export class JsonLinesStream {
  private partial = '';
  private line = 0;

  constructor(
    private readonly file: string,
    private readonly onRecord: (record: LocatedValue) => void,
    private readonly onProblem: (problem: InputProblem) => void,
  ) {}

  push(text: string): void {
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop()!;
    for (const part of parts) this.readLine(part);
  }

  end(): void {
    if (this.partial !== '') this.readLine(this.partial);
    this.partial = '';
  }

  private readLine(raw: string): void {
    const line = ++this.line;
    const lineText = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (lineText.trim() === '') return;
    try {
      const { value } = parseStrictJson(lineText, { firstLine: line });
      this.onRecord({ line, pointer: '', value, locate: () => line });
    } catch (e) {
      this.onProblem(syntaxProblem(e, this.file));
    }
  }
}

/** JSON Lines that must all parse: throws InputError listing every line that does not. */
export function parseJsonLines(text: string, file: string): LocatedValue[] {
  const { records, problems } = readJsonLines(text, file);
  if (problems.length > 0) throw new InputError(problems);
  return records;
}

/** A whole file holding one JSON value; lines are recorded down to `depth` levels for locating later problems. */
export function parseJsonDocument(text: string, file: string, depth = 3): LocatedValue {
  try {
    const { value, lines } = parseStrictJson(text, { trackLinesToDepth: depth });
    const locate = (pointer: string): number => {
      for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
        const line = lines.get(p);
        if (line !== undefined) return line;
        if (p === '') return 1;
      }
    };
    return { line: lines.get('') ?? 1, pointer: '', value, locate };
  } catch (e) {
    throw new InputError([syntaxProblem(e, file)]);
  }
}

/** The elements of a file that must hold one JSON array (e.g. items.json, export.json), each located. */
export function parseJsonArrayDocument(text: string, file: string, what: string): LocatedValue[] {
  const doc = parseJsonDocument(text, file);
  if (!Array.isArray(doc.value)) {
    throw new InputError([
      {
        file,
        line: doc.line,
        field: null,
        stage: 'schema',
        message: `the file must hold one JSON array of ${what}, not ${describeJsonType(doc.value)}`,
      },
    ]);
  }
  return doc.value.map((value, index) => ({
    line: doc.locate(`/${index}`),
    pointer: `/${index}`,
    value,
    locate: (pointer: string) => doc.locate(`/${index}${pointer}`),
  }));
}

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
