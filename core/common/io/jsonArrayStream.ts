import { InputError } from './inputProblem';
import { describeJsonType, syntaxProblem, type LocatedValue } from './jsonInput';
import { JsonCursor, JsonSyntaxError, parseStrictJson, parseStrictJsonValueAt } from './strictJson';

/** UTF-8 length of text[from, to) without encoding it. */
export function utf8Length(text: string, from = 0, to = text.length): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

type State = 'start' | 'first' | 'element' | 'after' | 'comma' | 'done' | 'scalar';

/**
 * A file holding one JSON array (an export .json, items.json), read a piece of text at a time: each element is
 * parsed by the strict parser in place (parseStrictJsonValueAt), so every message, line, column and pointer is the
 * one parseJsonArrayDocument gives on the whole text, and handed on as soon as it is complete; only one element is
 * held at a time. The first syntax error throws InputError with that one parse problem, as parseJsonDocument does; a
 * document that is valid JSON but not an array throws the same schema problem as parseJsonArrayDocument. An element
 * longer than maxRecordBytes (UTF-8) throws an input problem instead of being held.
 */
export class JsonArrayStream {
  /** the text held (one element and what follows it), the place read up to, its line and that line's start */
  private readonly at = new JsonCursor('');
  private state: State = 'start';
  private index = 0;
  /** the element being scanned: where it starts, how far the scan got and its nesting and string state there */
  private scanFrom = -1;
  private scanPos = 0;
  private scanDepth = 0;
  private inString = false;
  private escaped = false;

  constructor(
    private readonly file: string,
    private readonly what: string,
    private readonly onElement: (element: LocatedValue) => void,
    private readonly maxRecordBytes = Number.POSITIVE_INFINITY,
  ) {}

  /** The next piece of the document's text (a BOM at the very start already removed by the input stage). */
  push(text: string): void {
    this.at.text += text;
    this.advance(false);
    this.compact();
  }

  /** The end of the document: whatever is open now is an error, as at the end of the whole text. */
  end(): void {
    this.advance(true);
    if (this.state === 'scalar') {
      // not an array: the whole value was held (bounded by maxRecordBytes), read as parseJsonArrayDocument reads it
      let value: unknown;
      try {
        // from the start of its line, so columns count as in the whole text (only whitespace comes before it)
        value = parseStrictJson(this.at.text.slice(Math.max(0, this.at.lineStart)), { firstLine: this.at.line }).value;
      } catch (e) {
        throw new InputError([syntaxProblem(e, this.file)]);
      }
      throw new InputError([
        {
          file: this.file,
          line: this.at.line,
          field: null,
          stage: 'schema',
          message: `the file must hold one JSON array of ${this.what}, not ${describeJsonType(value)}`,
        },
      ]);
    }
    if (this.state === 'start') this.fail('no JSON value (empty)');
    if (this.state === 'after') this.fail('unexpected end of input: "]" is missing');
    if (this.state === 'first' || this.state === 'comma') this.fail('unexpected end of input: a value is missing', [this.index]);
  }

  /** elements read so far */
  get elements(): number {
    return this.index;
  }

  private fail(message: string, path: ReadonlyArray<string | number> = []): never {
    const pointer = path.map((p) => `/${p}`).join('');
    throw new InputError([
      syntaxProblem(new JsonSyntaxError(message, this.at.line, this.at.pos - this.at.lineStart + 1, pointer), this.file),
    ]);
  }

  private advance(atEnd: boolean): void {
    for (;;) {
      if (this.state === 'scalar') {
        if (
          Number.isFinite(this.maxRecordBytes) &&
          (this.at.text.length - this.at.pos) * 3 > this.maxRecordBytes &&
          utf8Length(this.at.text, this.at.pos) > this.maxRecordBytes
        )
          this.tooLong();
        return;
      }
      if (this.state === 'element') {
        if (!this.elementComplete(atEnd)) return;
        this.readElement();
        continue;
      }
      if (!this.at.skipWhitespace()) return;
      const c = this.at.text.charCodeAt(this.at.pos);
      switch (this.state) {
        case 'start':
          if (this.at.text.startsWith('```', this.at.pos))
            this.fail('a Markdown code fence (```) is not JSON: the file must hold only the JSON value');
          if (c !== 0x5b /* [ */) {
            // the document is one other value: held whole to be told apart (a syntax error, or valid JSON of another type)
            if (!atEnd && this.at.text.length - this.at.pos < 3 && '```'.startsWith(this.at.text.slice(this.at.pos))) return;
            this.state = 'scalar';
            continue;
          }
          this.at.pos++;
          this.state = 'first';
          continue;
        case 'first':
          if (c === 0x5d /* ] */) {
            this.at.pos++;
            this.state = 'done';
            continue;
          }
          this.startElement();
          continue;
        case 'comma':
          if (c === 0x5d) this.fail('trailing comma before "]"');
          this.startElement();
          continue;
        case 'after':
          if (c === 0x2c /* , */) {
            this.at.pos++;
            this.state = 'comma';
            continue;
          }
          if (c === 0x5d) {
            this.at.pos++;
            this.state = 'done';
            continue;
          }
          this.fail(`expected "," or "]" after element ${this.index - 1}, found ${describeChar(this.at.text, this.at.pos)}`, [
            this.index - 1,
          ]);
          break;
        case 'done': {
          const rest = this.at.text.startsWith('```', this.at.pos) ? ' (a Markdown code fence)' : '';
          if (!rest && !atEnd && this.at.text.length - this.at.pos < 3 && '```'.startsWith(this.at.text.slice(this.at.pos))) return;
          this.fail(`unexpected text after the JSON value${rest}: exactly one JSON value is allowed`);
        }
      }
    }
  }

  private startElement(): void {
    this.state = 'element';
    this.scanFrom = this.at.pos;
    this.scanPos = this.at.pos;
    this.scanDepth = 0;
    this.inString = false;
    this.escaped = false;
  }

  /**
   * Whether the element starting at scanFrom is wholly in the buffer: the scan (strings and nesting only; the strict
   * parser judges the rest) reached a "," or "]" outside any string and bracket, or the text ended. A scan that ends
   * late only holds more text; the parser then reads the element and stops at its true end.
   */
  private elementComplete(atEnd: boolean): boolean {
    const text = this.at.text;
    let i = this.scanPos;
    for (; i < text.length; i++) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          continue;
        }
        // to the string's next quote at native speed; it ends the string unless an odd run of backslashes escapes it
        const quote = text.indexOf('"', i);
        const end = quote < 0 ? text.length : quote;
        let backslashes = 0;
        while (end - backslashes - 1 >= i && text.charCodeAt(end - backslashes - 1) === 0x5c) backslashes++;
        if (quote < 0) {
          this.escaped = backslashes % 2 === 1;
          i = text.length;
          break;
        }
        if (backslashes % 2 === 0) this.inString = false;
        i = quote;
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.scanDepth++;
      else if (c === 0x7d || c === 0x5d) {
        if (this.scanDepth === 0) break;
        this.scanDepth--;
      } else if (c === 0x2c && this.scanDepth === 0) break;
    }
    this.scanPos = i;
    if (i < text.length || atEnd) return true;
    if ((i - this.scanFrom) * 3 > this.maxRecordBytes && utf8Length(text, this.scanFrom, i) > this.maxRecordBytes) this.tooLong();
    return false;
  }

  private tooLong(): never {
    const what = this.state === 'scalar' ? 'the JSON value' : `element ${this.index}`;
    throw new InputError([
      {
        file: this.file,
        line: this.at.line,
        field: this.state === 'scalar' ? null : `[${this.index}]`,
        stage: 'input',
        message: `${what} (from line ${this.at.line}) is over the limit of ${this.maxRecordBytes} bytes a record`,
      },
    ]);
  }

  private readElement(): void {
    const where = { start: this.at.pos, line: this.at.line, lineStart: this.at.lineStart, path: [this.index] };
    let parsed;
    try {
      // the element's own line only: the lines of its fields are worked out if a problem asks for one (below)
      parsed = parseStrictJsonValueAt(this.at.text, where, { trackLinesToDepth: 1 });
    } catch (e) {
      throw new InputError([syntaxProblem(e, this.file)]);
    }
    const prefix = `/${this.index}`;
    const line = parsed.lines.get(prefix) ?? this.at.line;
    // the element's text, kept only as long as its LocatedValue is: to parse it again with lines to depth 3 on demand
    const text = this.at.text.slice(where.start, parsed.end);
    let lines: Map<string, number> | null = null;
    const locate = (pointer: string): number => {
      if (pointer === '') return line;
      lines ??= parseStrictJsonValueAt(
        text,
        { ...where, start: 0, lineStart: where.lineStart - where.start },
        { trackLinesToDepth: 3 },
      ).lines;
      for (let p = prefix + pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
        const found = lines.get(p);
        if (found !== undefined) return found;
        if (p === prefix || p === '') return line;
      }
    };
    const element: LocatedValue = { line, pointer: prefix, value: parsed.value, locate };
    this.at.pos = parsed.end;
    this.at.line = parsed.line;
    this.at.lineStart = parsed.lineStart;
    this.index++;
    this.state = 'after';
    this.onElement(element);
  }

  /** Drops the text already read, keeping positions and columns right. */
  private compact(): void {
    const keep = this.state === 'element' ? this.scanFrom : this.at.pos;
    if (keep < 65_536 || this.state === 'scalar') return;
    this.at.text = this.at.text.slice(keep);
    this.at.pos -= keep;
    this.at.lineStart -= keep;
    if (this.state === 'element') {
      this.scanFrom -= keep;
      this.scanPos -= keep;
    }
  }
}

function describeChar(text: string, pos: number): string {
  const c = text.codePointAt(pos);
  if (c === undefined) return 'end of input';
  const ch = String.fromCodePoint(c);
  return c < 0x20 || c === 0x7f ? `U+${c.toString(16).padStart(4, '0').toUpperCase()}` : `"${ch}"`;
}
