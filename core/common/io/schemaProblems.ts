import type { ErrorObject } from 'ajv/dist/2020.js';
import { childPointer, pointerToField, SAID_BESIDE, type InputProblem } from './inputProblem';
import type { LocatedValue } from './jsonInput';
import { englishRefusal, say, type RefusalValue } from '../refusal/refusalMessage';
import { ajvMessage, oneOfValues } from './schemaMessages';

/**
 * Ajv errors of one value → schema-stage problems with field paths relative to the file and their lines.
 * Ajv reports an unknown key at its parent and a missing key at the object; both are moved onto the key.
 */
export function schemaProblems(errors: readonly ErrorObject[] | null | undefined, file: string, record: LocatedValue): InputProblem[] {
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    let pointer = e.instancePath;
    let said: RefusalValue = ajvMessage(e);
    if (e.keyword === 'additionalProperties') {
      const key = String((e.params as { additionalProperty: string }).additionalProperty);
      pointer = childPointer(pointer, key);
      said = say('refusal.schema.unknownField');
    } else if (e.keyword === 'required') {
      const key = String((e.params as { missingProperty: string }).missingProperty);
      pointer = childPointer(pointer, key);
      said = say('refusal.schema.requiredField');
    } else if (e.keyword === 'enum') {
      said = oneOfValues((e.params as { allowedValues: unknown[] }).allowedValues);
    } else if (e.keyword === 'const') {
      said = say('refusal.schema.constValue', { value: JSON.stringify((e.params as { allowedValue: unknown }).allowedValue) });
    } else if (e.keyword === 'type') {
      const [first = '', ...more] = String((e.params as { type: string | string[] }).type).split(',');
      const type = more.length === 0 ? first : say('refusal.schema.typeOr', { first, second: more.join(',') });
      said = say('refusal.schema.typeNot', { type, actual: describeValue(valueAt(record.value, pointer)) });
    }
    const message = typeof said === 'object' ? englishRefusal(said) : String(said);
    const field = pointerToField(record.pointer + pointer);
    const key = `${field ?? ''}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const problem: InputProblem = { file, line: record.locate(pointer), field, stage: 'schema', message };
    if (typeof said === 'object') SAID_BESIDE.set(problem, said);
    problems.push(problem);
  }
  return problems;
}

function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function describeValue(value: unknown): RefusalValue {
  if (value === null) return 'null';
  if (Array.isArray(value)) return say('refusal.schema.value.array');
  return typeof value === 'object' ? say('refusal.schema.value.object') : typeof value;
}
