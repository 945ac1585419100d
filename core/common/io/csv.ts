import { InputError, type InputProblem } from './inputProblem';

/** One CSV record: the line where it starts (a quoted field may span lines) and its fields, unquoted. */
export interface CsvRow {
  line: number;
  fields: string[];
}

export interface CsvTable {
  header: string[];
  headerLine: number;
  rows: CsvRow[];
}

/** Raw control characters JSON would refuse in a string; CSV keeps the tab and the line breaks it is made of. */
const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

export interface CsvOptions {
  /**
   * 'refuse' (default): a raw control character (U+0000-U+001F but tab, CR and LF) in a field is a parse problem, as
   * JSON refuses one in a string. 'allow' is for reading back an export, whose text cells hold what sessions hold.
   */
  rawControls?: 'refuse' | 'allow';
}

/**
 * RFC 4180 CSV: comma separated, fields optionally in double quotes, "" for a quote inside quotes, records ended by
 * CRLF (LF alone is accepted too), line breaks allowed inside quoted fields. The first record is the header: names
 * must be non-empty and unique. Every row must have as many fields as the header. Empty lines carry nothing and are
 * skipped. Raw control characters in a field are refused (see CsvOptions).
 */
export function parseCsv(text: string, file: string, options: CsvOptions = {}): CsvTable {
  const rows: CsvRow[] = [];
  let header: CsvRow | null = null;
  const stream = new CsvStream(file, options, { onHeader: (h) => (header = h), onRow: (row) => rows.push(row) });
  stream.push(text);
  stream.end();
  const headerRecord = header as CsvRow | null;
  return { header: headerRecord!.fields, headerLine: headerRecord!.line, rows };
}

/** Header problems: every column needs a name, and names are unique. */
function headerProblems(header: CsvRow, file: string): InputProblem[] {
  const problems: InputProblem[] = [];
  const seen = new Map<string, number>();
  header.fields.forEach((name, i) => {
    if (name === '') problems.push({ file, line: header.line, field: null, stage: 'parse', message: `header column ${i + 1} has no name` });
    else if (seen.has(name))
      problems.push({
        file,
        line: header.line,
        field: name,
        stage: 'parse',
        message: `duplicate column "${name}" (columns ${seen.get(name)! + 1} and ${i + 1})`,
      });
    else seen.set(name, i);
  });
  return problems;
}

/**
 * parseCsv a piece of text at a time: records are cut only at a line break outside quotes, read by the same reader,
 * and handed on as they complete (the header first), so only one record is held. The header's problems and every
 * row of the wrong width are collected and thrown together at the end, as parseCsv throws them; a syntax error throws
 * at once with that one problem (parseCsv finds it before any width check). A record longer than maxRecordBytes
 * (UTF-16 units of text, at least its UTF-8 bytes' count in characters) is an input problem instead of being held.
 */
export class CsvStream {
  private buffer = '';
  /** where the unread text starts in `buffer`, how far the quote scan got, and whether it is inside quotes there */
  private scanPos = 0;
  private inQuotes = false;
  private line = 1;
  private header: CsvRow | null = null;
  private readonly problems: InputProblem[] = [];
  private readonly rawControls: 'refuse' | 'allow';

  constructor(
    private readonly file: string,
    options: CsvOptions,
    private readonly sink: { onHeader: (header: CsvRow) => void; onRow: (row: CsvRow) => void },
    private readonly maxRecordBytes = Number.POSITIVE_INFINITY,
  ) {
    this.rawControls = options.rawControls ?? 'refuse';
  }

  push(text: string): void {
    this.buffer += text;
    let cut = -1;
    for (let i = this.scanPos; i < this.buffer.length; i++) {
      const c = this.buffer.charCodeAt(i);
      if (c === 0x22) this.inQuotes = !this.inQuotes;
      else if (c === 0x0a && !this.inQuotes) cut = i + 1;
    }
    this.scanPos = this.buffer.length;
    if (cut > 0) {
      this.read(this.buffer.slice(0, cut));
      this.buffer = this.buffer.slice(cut);
      this.scanPos = this.buffer.length;
    } else if (this.buffer.length > this.maxRecordBytes) {
      // a quote left open runs to the end: the reader names the syntax error, if there is one, before the limit does
      readRecords(this.buffer, this.file, this.rawControls, this.line);
      throw new InputError([
        {
          file: this.file,
          line: this.line,
          field: null,
          stage: 'input',
          message: `the record from line ${this.line} is over the limit of ${this.maxRecordBytes} bytes a record`,
        },
      ]);
    }
  }

  end(): void {
    if (this.buffer.length > 0) this.read(this.buffer);
    this.buffer = '';
    if (!this.header)
      throw new InputError([
        {
          file: this.file,
          line: null,
          field: null,
          stage: 'parse',
          message: 'no header row: a CSV file must start with a row of column names',
        },
      ]);
    if (this.problems.length > 0) throw new InputError(this.problems);
  }

  /** rows read so far (without the header) */
  rows = 0;

  private read(text: string): void {
    const records = readRecords(text, this.file, this.rawControls, this.line);
    this.line += countLineBreaks(text);
    for (const record of records) {
      if (!this.header) {
        this.header = record;
        this.problems.push(...headerProblems(record, this.file));
        this.sink.onHeader(record);
        continue;
      }
      const width = this.header.fields.length;
      if (record.fields.length !== width) {
        this.problems.push({
          file: this.file,
          line: record.line,
          field: null,
          stage: 'parse',
          message: `row has ${record.fields.length} field${record.fields.length === 1 ? '' : 's'}, the header has ${width}`,
        });
      }
      this.rows++;
      this.sink.onRow(record);
    }
  }
}

function countLineBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function readRecords(text: string, file: string, rawControls: 'refuse' | 'allow', firstLine = 1): CsvRow[] {
  const records: CsvRow[] = [];
  const fail = (line: number, message: string): never => {
    throw new InputError([{ file, line, field: null, stage: 'parse', message }]);
  };
  let pos = 0;
  let line = firstLine;
  const n = text.length;
  while (pos < n) {
    const recordLine = line;
    // an empty line: skip it (but keep counting lines)
    if (text[pos] === '\n' || (text[pos] === '\r' && text[pos + 1] === '\n')) {
      pos += text[pos] === '\r' ? 2 : 1;
      line++;
      continue;
    }
    const fields: string[] = [];
    for (;;) {
      let field = '';
      if (text[pos] === '"') {
        const quoteLine = line;
        pos++;
        for (;;) {
          const q = text.indexOf('"', pos);
          if (q < 0) fail(quoteLine, 'unterminated quoted field: the closing " is missing');
          const chunk = text.slice(pos, q);
          for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) line++;
          field += chunk;
          if (text[q + 1] === '"') {
            field += '"';
            pos = q + 2;
            continue;
          }
          pos = q + 1;
          break;
        }
        const after = text[pos];
        if (after !== undefined && after !== ',' && after !== '\n' && !(after === '\r' && text[pos + 1] === '\n')) {
          fail(line, `unexpected ${JSON.stringify(after)} after a closing quote: a quoted field must end at "," or the line end`);
        }
      } else {
        const start = pos;
        while (pos < n) {
          const c = text[pos];
          if (c === ',' || c === '\n') break;
          if (c === '\r') {
            if (text[pos + 1] === '\n') break;
            fail(line, 'bare carriage return outside quotes: end lines with CRLF or LF');
          }
          if (c === '"') fail(line, 'a double quote inside an unquoted field: quote the whole field and write the quote twice ("")');
          pos++;
        }
        field = text.slice(start, pos);
      }
      if (rawControls === 'refuse') {
        const control = RAW_CONTROL.exec(field);
        if (control) {
          const code = `U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
          const at = recordLine + (field.slice(0, control.index).match(/\n/g)?.length ?? 0);
          fail(
            at,
            `field ${fields.length + 1} holds a raw control character (${code}); a CSV field may hold text, tabs and line breaks only (JSON refuses the same)`,
          );
        }
      }
      fields.push(field);
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === '\r') pos++;
      if (text[pos] === '\n') {
        pos++;
        line++;
      }
      break;
    }
    records.push({ line: recordLine, fields });
  }
  return records;
}

/** One CSV record, quoted where RFC 4180 requires it (comma, quote, CR or LF inside), without the line break. */
export function formatCsvRecord(fields: readonly string[]): string {
  return fields.map((f) => (/[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(',');
}

/** A whole CSV document with CRLF line breaks, as RFC 4180 specifies. */
export function formatCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((r) => `${formatCsvRecord(r)}\r\n`).join('');
}

/** A cell a spreadsheet would run as a formula (OWASP CSV injection): = + - @, tab or CR first, after any apostrophes. */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * Defuses a text cell for spreadsheets (OWASP "CSV injection"): one apostrophe in front of a cell that starts with
 * = + - @ tab or CR, so Excel, LibreOffice and Sheets show it as text instead of running it. Cells that already start
 * with apostrophes before such a character get one more, so `unescapeCsvFormula` restores every value exactly.
 */
export function escapeCsvFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** The inverse of escapeCsvFormula, for reading an export back (validate). */
export function unescapeCsvFormula(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}
