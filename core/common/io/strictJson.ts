import { childPointer } from './inputProblem';

/**
 * A strict JSON (RFC 8259) parser. JSON.parse silently keeps the last of duplicate keys and its errors do not
 * say why NaN is refused; this parser rejects both with a located message, and also rejects lone surrogates
 * (escaped or raw: they cannot be written back as UTF-8), text after the value, and Markdown fences.
 * A byte order mark is not JSON whitespace: the input stage strips one at the start of a file, nowhere else.
 */
export interface StrictJsonOptions {
  /** deeper nesting is rejected instead of risking the stack; default 256 */
  maxDepth?: number;
  /** record the line where each value starts for pointers up to this depth (0 = root only); default 0 */
  trackLinesToDepth?: number;
  /** line number of the text's first line in its file; default 1 */
  firstLine?: number;
}

export interface StrictJsonResult {
  value: unknown;
  /** JSON pointer → line where that value starts, for the depths asked for */
  lines: Map<string, number>;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
    /** pointer of the value being read when the error happened ("" = the top-level value) */
    readonly pointer: string,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_$][A-Za-z0-9_$]*/y;

export function parseStrictJson(text: string, options: StrictJsonOptions = {}): StrictJsonResult {
  return new StrictJsonParser(text, options).parseDocument();
}

/** Where a value inside a larger document starts, for reading one element of a document at a time. */
export interface StrictJsonValueAt {
  /** offset in `text` where the value (or whitespace before it) starts */
  start: number;
  /** the line of `start`, and the offset in `text` where that line begins (negative: the line began before `text`) */
  line: number;
  lineStart: number;
  /** keys and indexes from the document's root to the value: pointers, tracked depths and the depth limit count from the root */
  path: ReadonlyArray<string | number>;
}

/**
 * One value inside a document (an element of a top-level array read piece by piece): parsed exactly as
 * parseStrictJson parses it in place, with the same messages, lines, columns and pointers, stopping after the value.
 * Returns where it stopped (whitespace after the value skipped) and the line there.
 */
export function parseStrictJsonValueAt(
  text: string,
  at: StrictJsonValueAt,
  options: Omit<StrictJsonOptions, 'firstLine'> = {},
): StrictJsonResult & { end: number; line: number; lineStart: number } {
  return new StrictJsonParser(text, { ...options, firstLine: at.line }).parseValueAt(at);
}

/**
 * A place in JSON text: its offset, its line and where that line starts (columns count from there; negative when the
 * line began before `text`, in a reader that dropped what it had read). What the parser and a streaming reader share.
 */
export class JsonCursor {
  pos = 0;
  lineStart = 0;

  constructor(
    public text: string,
    public line = 1,
  ) {}

  /** Skips JSON whitespace, counting lines; false when the text ran out. */
  skipWhitespace(): boolean {
    const text = this.text;
    while (this.pos < text.length) {
      const c = text.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09 || c === 0x0d) this.pos++;
      else if (c === 0x0a) {
        this.pos++;
        this.line++;
        this.lineStart = this.pos;
      } else return true;
    }
    return false;
  }
}

class StrictJsonParser extends JsonCursor {
  private readonly maxDepth: number;
  private readonly trackDepth: number;
  private readonly lines = new Map<string, number>();
  /** keys and indexes from the root to the value being read; a pointer is built from it only when needed */
  private readonly path: Array<string | number> = [];

  constructor(text: string, options: StrictJsonOptions) {
    super(text, options.firstLine ?? 1);
    this.maxDepth = options.maxDepth ?? 256;
    this.trackDepth = options.trackLinesToDepth ?? 0;
  }

  parseValueAt(at: StrictJsonValueAt): StrictJsonResult & { end: number; line: number; lineStart: number } {
    this.pos = at.start;
    this.lineStart = at.lineStart;
    this.path.push(...at.path);
    this.skipWhitespace();
    const value = this.parseValue(at.path.length);
    this.skipWhitespace();
    return { value, lines: this.lines, end: this.pos, line: this.line, lineStart: this.lineStart };
  }

  parseDocument(): StrictJsonResult {
    this.skipWhitespace();
    if (this.text.startsWith('```', this.pos)) {
      this.fail('a Markdown code fence (```) is not JSON: the file must hold only the JSON value');
    }
    if (this.pos >= this.text.length) this.fail('no JSON value (empty)');
    const value = this.parseValue(0);
    this.skipWhitespace();
    if (this.pos < this.text.length) {
      const rest = this.text.startsWith('```', this.pos) ? ' (a Markdown code fence)' : '';
      this.fail(`unexpected text after the JSON value${rest}: exactly one JSON value is allowed`);
    }
    return { value, lines: this.lines };
  }

  private pointer(): string {
    let out = '';
    for (const key of this.path) out = childPointer(out, key);
    return out;
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(message, this.line, this.pos - this.lineStart + 1, this.pointer());
  }

  private parseValue(depth: number): unknown {
    if (depth <= this.trackDepth) this.lines.set(this.pointer(), this.line);
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x7b /* { */) return this.parseObject(depth);
    if (c === 0x5b /* [ */) return this.parseArray(depth);
    if (c === 0x22 /* " */) return this.parseString();
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
    if (Number.isNaN(c)) this.fail('unexpected end of input: a value is missing');
    WORD.lastIndex = this.pos;
    const word = WORD.exec(this.text)?.[0];
    if (word === 'true' || word === 'false' || word === 'null') {
      this.pos += word.length;
      return word === 'true' ? true : word === 'false' ? false : null;
    }
    if (word === 'NaN' || word === 'Infinity') this.fail(`${word} is not allowed: JSON numbers must be finite`);
    if (word !== undefined) this.fail(`unexpected word "${word.slice(0, 40)}": not a JSON value`);
    if (c === 0x27 /* ' */) this.fail('strings must use double quotes, not single quotes');
    if (c === 0xfeff) this.fail('byte order mark (U+FEFF) is only allowed at the very start of a file');
    this.fail(`unexpected character ${describeChar(this.text, this.pos)}: not a JSON value`);
  }

  private enter(depth: number): void {
    if (depth >= this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`);
  }

  private parseObject(depth: number): Record<string, unknown> {
    this.enter(depth);
    this.pos++;
    const result: Record<string, unknown> = {};
    const keyLines = new Map<string, number>();
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d /* } */) {
      this.pos++;
      return result;
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 0x22) {
        if (this.text.charCodeAt(this.pos) === 0x7d) this.fail('trailing comma before "}"');
        this.fail(`expected a double-quoted key, found ${describeChar(this.text, this.pos)}`);
      }
      const keyLine = this.line;
      const key = this.parseString();
      this.path.push(key);
      const firstLine = keyLines.get(key);
      if (firstLine !== undefined) {
        this.fail(`duplicate key "${key}" (first on line ${firstLine}); JSON.parse would silently keep the last one`);
      }
      keyLines.set(key, keyLine);
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x3a /* : */) this.fail(`expected ":" after key "${key}"`);
      this.pos++;
      this.skipWhitespace();
      const value = this.parseValue(depth + 1);
      // "__proto__" must become an own property, as with JSON.parse, never the prototype
      if (key === '__proto__') Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      else result[key] = value;
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.pos);
      if (next === 0x2c /* , */) {
        this.path.pop();
        this.pos++;
        this.skipWhitespace();
        continue;
      }
      if (next === 0x7d) {
        this.path.pop();
        this.pos++;
        return result;
      }
      if (Number.isNaN(next)) {
        this.path.pop();
        this.fail('unexpected end of input: "}" is missing');
      }
      this.fail(`expected "," or "}" after the value of "${key}", found ${describeChar(this.text, this.pos)}`);
    }
  }

  private parseArray(depth: number): unknown[] {
    this.enter(depth);
    this.pos++;
    const result: unknown[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d /* ] */) {
      this.pos++;
      return result;
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) === 0x5d) this.fail('trailing comma before "]"');
      this.path.push(result.length);
      result.push(this.parseValue(depth + 1));
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.pos);
      if (next === 0x2c) {
        this.path.pop();
        this.pos++;
        this.skipWhitespace();
        continue;
      }
      if (next === 0x5d) {
        this.path.pop();
        this.pos++;
        return result;
      }
      if (Number.isNaN(next)) {
        this.path.pop();
        this.fail('unexpected end of input: "]" is missing');
      }
      this.fail(`expected "," or "]" after element ${result.length - 1}, found ${describeChar(this.text, this.pos)}`);
    }
  }

  private parseNumber(): number {
    if (this.text.startsWith('-Infinity', this.pos)) this.fail('-Infinity is not allowed: JSON numbers must be finite');
    if (this.text.startsWith('-NaN', this.pos)) this.fail('NaN is not allowed: JSON numbers must be finite');
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text)?.[0];
    if (match === undefined || match === '-') this.fail('invalid number: a digit must follow "-"');
    const after = this.text.charCodeAt(this.pos + match.length);
    if (after >= 0x30 && after <= 0x39 && /^-?0$/.test(match)) this.fail('invalid number: leading zeros are not allowed');
    if (after === 0x2e /* . */ || after === 0x65 || after === 0x45) {
      this.fail(`invalid number "${this.text.slice(this.pos, this.pos + match.length + 1)}": digits must follow "." and the exponent`);
    }
    const value = Number(match);
    if (!Number.isFinite(value)) this.fail(`number ${match.slice(0, 40)} is out of range (it would become Infinity)`);
    this.pos += match.length;
    return value;
  }

  private parseString(): string {
    const text = this.text;
    this.pos++; // opening quote
    let out = '';
    let chunkStart = this.pos;
    for (;;) {
      if (this.pos >= text.length) this.fail('unterminated string: the closing " is missing');
      const c = text.charCodeAt(this.pos);
      if (c === 0x22) {
        out += text.slice(chunkStart, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) {
        this.fail(`control character U+${c.toString(16).padStart(4, '0').toUpperCase()} must be escaped inside a string`);
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const low = text.charCodeAt(this.pos + 1);
        if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
          this.pos += 2;
          continue;
        }
        this.fail(`lone surrogate U+${c.toString(16).toUpperCase()} is not valid Unicode`);
      }
      if (c !== 0x5c /* \ */) {
        this.pos++;
        continue;
      }
      out += text.slice(chunkStart, this.pos);
      const e = text[this.pos + 1];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const unit = this.readHex4(this.pos + 2);
          if (unit >= 0xd800 && unit <= 0xdbff) {
            const low = text.startsWith('\\u', this.pos + 6) ? this.readHex4(this.pos + 8) : -1;
            if (low < 0xdc00 || low > 0xdfff) this.fail(`lone surrogate \\u${unit.toString(16).toUpperCase()} is not valid Unicode`);
            out += String.fromCharCode(unit, low);
            this.pos += 6;
          } else if (unit >= 0xdc00 && unit <= 0xdfff) {
            this.fail(`lone surrogate \\u${unit.toString(16).toUpperCase()} is not valid Unicode`);
          } else {
            out += String.fromCharCode(unit);
          }
          this.pos += 4;
          break;
        }
        default:
          this.fail(`invalid escape "\\${e ?? ''}" in a string`);
      }
      this.pos += 2;
      chunkStart = this.pos;
    }
  }

  private readHex4(at: number): number {
    const hex = this.text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail(`invalid \\u escape "\\u${hex}": four hex digits are required`);
    return parseInt(hex, 16);
  }
}

function describeChar(text: string, pos: number): string {
  const c = text.codePointAt(pos);
  if (c === undefined) return 'end of input';
  const ch = String.fromCodePoint(c);
  return c < 0x20 || c === 0x7f ? `U+${c.toString(16).padStart(4, '0').toUpperCase()}` : `"${ch}"`;
}
