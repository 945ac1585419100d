import type { ValidateFunction } from 'ajv/dist/2020.js';
import { InputError, type InputProblem } from './inputProblem';
import { parseJsonDocument } from './jsonInput';
import { schemaProblems } from './schemaProblems';

/** What a records receipt says of the file it describes, its records and where they came from. */
export interface RecordsFileReceipt {
  receipt_version: 1;
  /** the export's file name, without folder */
  file: string;
  sha256: string;
  bytes: number;
  records: number;
  project: string;
  app_version: string;
  created_at: string;
}

/** The counts every records receipt has, kept as records go by: the records, and the distinct annotators and items. */
export class RecordsTally {
  records = 0;
  private readonly annotators = new Set<string>();
  private readonly items = new Set<string>();

  protected countRecord(annotator: string, itemId: string): void {
    this.records++;
    this.annotators.add(annotator);
    this.items.add(itemId);
  }

  protected distinct(): { annotators: number; items: number } {
    return { annotators: this.annotators.size, items: this.items.size };
  }
}

/**
 * The stages every receipt goes through: parse, its schema, then the rule that it describes this very file (sha256,
 * bytes, name). Returns the problems so far, and — when the schema passed — the receipt and a `rule` that adds a
 * located problem for the checks a kind of receipt adds.
 */
export function checkReceipt<R extends { sha256: string; bytes: number; file: string }>(
  receiptText: string,
  receiptFile: string,
  validate: ValidateFunction,
  actual: { fileName: string; sha256: string; bytes: number },
): { problems: InputProblem[]; receipt: R | null; rule: (pointer: string, message: string) => void } {
  const problems: InputProblem[] = [];
  const none = { problems, receipt: null, rule: () => undefined };
  let doc;
  try {
    doc = parseJsonDocument(receiptText, receiptFile, 2);
  } catch (e) {
    if (e instanceof InputError) return { ...none, problems: e.problems };
    throw e;
  }
  if (!validate(doc.value)) return { ...none, problems: schemaProblems(validate.errors, receiptFile, doc) };
  const located = doc;
  const rule = (pointer: string, message: string): void => {
    problems.push({ file: receiptFile, line: located.locate(pointer), field: pointer.slice(1).replace('/', '.'), stage: 'rule', message });
  };
  const receipt = doc.value as unknown as R;
  if (receipt.sha256 !== actual.sha256)
    rule('/sha256', `the export's sha256 is ${actual.sha256}, the receipt says ${receipt.sha256}: the file changed after export`);
  if (receipt.bytes !== actual.bytes) rule('/bytes', `the export has ${actual.bytes} bytes, the receipt says ${receipt.bytes}`);
  if (receipt.file !== actual.fileName) rule('/file', `the receipt is for "${receipt.file}", not "${actual.fileName}"`);
  return { problems, receipt, rule };
}
