import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InputProblem } from '../../../../core/common/io/inputProblem';
import { cli } from '../../../helpers/cli';

async function newProject(): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-import-reason-')), 'proj');
  expect((await cli('init', '--project', dir)).code).toBe(0);
  return dir;
}

async function source(dir: string, name: string, content: string): Promise<string> {
  const file = path.join(path.dirname(dir), name);
  await writeFile(file, content);
  return file;
}

describe('aloud import with model reasoning', () => {
  it('resolves model_label against the project schema and keeps reasoning and steps in the items file', async () => {
    const dir = await newProject();
    const file = await source(
      dir,
      'in.jsonl',
      [
        JSON.stringify({ id: 'r1', text: 'No.', model_steps: ['It refuses.', 'So rude.'], model_label: 'rude' }),
        JSON.stringify({ id: 'r2', text: 'Thanks!', model_reasoning: '1. Thanks.\n2. Polite.', model_label: 'Polite' }),
      ].join('\n'),
    );
    const run = await cli('import', '--project', dir, '--items', file, '--json');
    expect(run.code, run.err).toBe(0);
    const written = (await readFile(path.join(dir, 'items.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(written).toEqual([
      { id: 'r1', text: 'No.', model_steps: ['It refuses.', 'So rude.'], model_label: 'Impolite' },
      { id: 'r2', text: 'Thanks!', model_reasoning: '1. Thanks.\n2. Polite.', model_label: 'Polite' },
    ]);
    // the same file again is unchanged (the resolved label compares equal to itself)
    const again = JSON.parse((await cli('import', '--project', dir, '--items', file, '--json')).out) as { items_unchanged: number };
    expect(again.items_unchanged).toBe(2);
  });

  it('refuses a model label the schema does not have, naming file, line and field, and writes nothing', async () => {
    const dir = await newProject();
    const file = await source(
      dir,
      'bad.jsonl',
      `${JSON.stringify({ id: 'a', text: 'x' })}\n${JSON.stringify({ id: 'b', text: 'y', model_label: 'purple' })}\n`,
    );
    const run = await cli('import', '--project', dir, '--items', file, '--json');
    expect(run.code).not.toBe(0);
    const problems = (JSON.parse(run.out) as { problems: InputProblem[] }).problems;
    expect(problems[0]).toMatchObject({ file, line: 2, field: 'model_label', stage: 'rule' });
    expect(await readFile(path.join(dir, 'items.jsonl'), 'utf8')).toBe('');
  });

  it('a conversation CSV may leave reasoning and model_label cells empty', async () => {
    const dir = await newProject();
    const csv =
      'message_id,parent_id,role,text,session_id,reasoning,model_label\r\nu1,,user,Refund?,s,,\r\na1,u1,assistant,No.,s,They ask. I refuse.,rude\r\na2,u1,assistant,Sure!,s,,\r\n';
    const file = await source(dir, 'conv.csv', csv);
    const run = await cli('import', '--project', dir, '--items', file, '--kind', 'conversations', '--json');
    expect(run.code, run.err).toBe(0);
    const written = (await readFile(path.join(dir, 'items.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(written.map((i) => [i.id, i.model_reasoning, i.model_label])).toEqual([
      ['a1', 'They ask. I refuse.', 'Impolite'],
      ['a2', undefined, undefined],
    ]);
  });
});
