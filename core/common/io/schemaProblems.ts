import type { ErrorObject } from 'ajv/dist/2020.js';
import { childPointer, pointerToField, type InputProblem } from './inputProblem';
import type { LocatedValue } from './jsonInput';

/**
 * Ajv errors of one value → schema-stage problems with field paths relative to the file and their lines.
 * Ajv reports an unknown key at its parent and a missing key at the object; both are moved onto the key.
 */
export function schemaProblems(errors: readonly ErrorObject[] | null | undefined, file: string, record: LocatedValue): InputProblem[] {
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    let pointer = e.instancePath;
    let message = `${e.message ?? 'is invalid'}`;
    if (e.keyword === 'additionalProperties') {
      const key = String((e.params as { additionalProperty: string }).additionalProperty);
      pointer = childPointer(pointer, key);
      message = 'unknown field (no additional properties are allowed)';
    } else if (e.keyword === 'required') {
      const key = String((e.params as { missingProperty: string }).missingProperty);
      pointer = childPointer(pointer, key);
      message = 'required field is missing';
    } else if (e.keyword === 'enum') {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues;
      message = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (e.keyword === 'const') {
      message = `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    } else if (e.keyword === 'type') {
      message = `must be ${String((e.params as { type: string | string[] }).type).replace(',', ' or ')}, not ${describeValue(valueAt(record.value, pointer))}`;
    }
    const field = pointerToField(record.pointer + pointer);
    const key = `${field ?? ''}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ file, line: record.locate(pointer), field, stage: 'schema', message });
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

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}
