import { MODEL_FIELDS, type Item } from '../../common/items/item';
import type { LabelSchemaContext } from '../../common/reasoning/modelLabel';
import { formatFromFileName, parseItemsText } from '../../common/items/itemsSource';
import { InputError, type InputProblem } from '../../common/io/inputProblem';
import { saidProblem } from '../../common/io/inputProblem';
import { say, type RefusalMessage } from '../../common/refusal/refusalMessage';
import type { InputLimits } from '../../common/io/inputText';
import { readInputFile } from '../fs/inputFile';
import { ProjectError } from '../fs/projectError';

/** A rejected items file: the message is the first problem (file:line: ...), `problems` has them all. */
export class ItemsFileError extends ProjectError {
  constructor(
    readonly problems: InputProblem[],
    message: string | RefusalMessage,
  ) {
    super(message);
  }
}

function asProjectError(e: unknown): never {
  if (e instanceof InputError) throw new ItemsFileError(e.problems, e.say ?? e.message);
  throw e;
}

/** Items as JSON Lines through the strict parse, schema and rule stages (the text has passed the input stage). */
export function parseItemsJsonl(text: string, file: string, schema?: LabelSchemaContext): Item[] {
  try {
    return parseItemsText(text, file, 'jsonl', schema);
  } catch (e) {
    return asProjectError(e);
  }
}

/** Reads an items file (.jsonl, .json or .csv) through every strict stage; a missing file is an error. */
export async function readItemsFile(file: string, limits?: InputLimits, schema?: LabelSchemaContext): Promise<Item[]> {
  const format = formatFromFileName(file);
  try {
    if (format === null) {
      throw new InputError([saidProblem({ file, line: null, field: null, stage: 'input' }, say('refusal.items.unknownFileType'))]);
    }
    const input = await readInputFile(file, { lineBased: format !== 'json', ...(limits ? { limits } : {}) });
    return parseItemsText(input.text, file, format, schema);
  } catch (e) {
    return asProjectError(e);
  }
}

/** The project's items file format: one JSON object per line, id and text first, metadata under "meta". */
export function formatItemsJsonl(items: readonly Item[]): string {
  return items
    .map((item) => {
      const model = Object.fromEntries(MODEL_FIELDS.flatMap((key) => (item[key] !== undefined ? [[key, item[key]]] : [])));
      return `${JSON.stringify({ id: item.id, text: item.text, ...(item.context !== undefined ? { context: item.context } : {}), ...model, ...(item.meta ? { meta: item.meta } : {}) })}\n`;
    })
    .join('');
}
