import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InputProblem } from '../../../../core/common/io/inputProblem';
import { loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { SessionStore } from '../../../../core/node/session/sessionStore';
import { cli } from '../../../helpers/cli';

let dir: string;
let out: string;
let exported: string;

async function validate(...args: string[]): Promise<{ code: number; problems: InputProblem[]; err: string }> {
  const run = await cli('validate', ...args);
  expect(run.code, run.err).not.toBe(2);
  return { code: run.code, problems: JSON.parse(run.out) as InputProblem[], err: run.err };
}

/** A copy of the export under another name, edited line by line, with no receipt beside it. */
async function edited(name: string, edit: (lines: string[]) => void): Promise<string> {
  const lines = exported.trimEnd().split('\n');
  edit(lines);
  const file = path.join(path.dirname(out), name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

beforeAll(async () => {
  dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-validate-prm-')), 'proj');
  expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
  const store = await SessionStore.open({ project: await loadProjectConfig(dir), annotator: 'ana' });
  try {
    await store.append('item_opened', { item_id: 'demo-03', text_sha256: null });
    await store.append('label_committed', {
      item_id: 'demo-03',
      label: 'Polite',
      source: 'key',
      quote: null,
      start: null,
      end: null,
      stem: null,
      audio_ms: null,
      utterance: null,
      parser_version: null,
      reviewer: null,
    });
    await store.append('reasoning_shown', {
      item_id: 'demo-03',
      steps: ['a', 'b', 'c'],
      model_label: 'Polite',
      split: 'numbered',
      reveal: 'after_blind',
      audio_samples: 0,
    });
    await store.append('step_judged', {
      item_id: 'demo-03',
      index: 2,
      reward: -1,
      source: 'key',
      kind: 'first_error',
      quote: null,
      start: null,
      end: null,
      utterance: null,
      audio_ms: null,
    });
  } finally {
    await store.close();
  }
  out = path.join(path.dirname(dir), 'prm.jsonl');
  expect((await cli('export', '--project', dir, '--format', 'process-reward', '--out', out)).code).toBe(0);
  exported = await readFile(out, 'utf8');
  // line 2 is ana's demo-03: first error at step 2
  expect(JSON.parse(exported.split('\n')[1]!)).toMatchObject({ instance_id: 'demo-03', mode: 'first_error' });
});

describe('aloud validate on a process-reward export', () => {
  it('passes the file as written, with its receipt, with and without --project', async () => {
    for (const args of [[out], [out, '--project', dir], [out, '--require-receipt']]) {
      const { code, problems, err } = await validate(...args);
      expect(problems, args.join(' ')).toEqual([]);
      expect(code).toBe(0);
      expect(err).not.toContain('no receipt');
    }
  });

  it('locates an edited record by file, line and field, at the schema and rule stages', async () => {
    const reward = await edited('reward.jsonl', (lines) => {
      lines[1] = lines[1]!.replace('"reward":-1', '"reward":2');
    });
    let run = await validate(reward);
    expect(run.code).toBe(1);
    expect(run.problems).toEqual([expect.objectContaining({ file: reward, line: 2, field: 'steps[1].reward', stage: 'schema' })]);

    const mode = await edited('mode.jsonl', (lines) => {
      lines[1] = lines[1]!.replace('"reward":-1', '"reward":0');
    });
    run = await validate(mode);
    expect(run.problems).toEqual([
      expect.objectContaining({ file: mode, line: 2, field: 'mode', stage: 'rule', message: expect.stringContaining('first_error') }),
    ]);

    const twice = await edited('twice.jsonl', (lines) => {
      lines.push(lines[1]!);
    });
    run = await validate(twice);
    expect(run.problems).toEqual([
      expect.objectContaining({
        file: twice,
        line: 6,
        field: 'instance_id',
        stage: 'rule',
        message: expect.stringContaining('first on line 2'),
      }),
    ]);

    const unknown = await edited('unknown.jsonl', (lines) => {
      lines[0] = lines[0]!.replace('"demo-01"', '"demo-99"');
    });
    expect((await validate(unknown)).problems).toEqual([]);
    run = await validate(unknown, '--project', dir);
    expect(run.problems).toEqual([
      expect.objectContaining({
        file: unknown,
        line: 1,
        field: 'instance_id',
        stage: 'rule',
        message: expect.stringContaining('"demo-99" does not exist in the project'),
      }),
    ]);
  });

  it('checks the receipt: the edited bytes, a receipt for another file, recounted records, and a missing receipt', async () => {
    const receiptFile = `${out}.receipt.json`;
    const receipt = JSON.parse(await readFile(receiptFile, 'utf8')) as Record<string, unknown> & { counts: Record<string, number> };
    try {
      await writeFile(out, exported.replace('"reward":-1', '"reward":0').replace('"first_error"', '"per_step"'));
      let run = await validate(out);
      expect(run.code).toBe(1);
      expect(run.problems.map((p) => [p.file, p.field, p.stage])).toEqual([
        [receiptFile, 'sha256', 'rule'],
        [receiptFile, 'bytes', 'rule'],
        [receiptFile, 'counts.first_error_records', 'rule'],
      ]);
      expect(run.problems[0]!.line).toBe(
        JSON.stringify(receipt, null, 2)
          .split('\n')
          .findIndex((l) => l.includes('"sha256"')) + 1,
      );

      await writeFile(out, exported);
      await writeFile(
        receiptFile,
        JSON.stringify({ ...receipt, file: 'other.jsonl', records: 3, counts: { ...receipt.counts, judged_steps: 7 } }, null, 2),
      );
      run = await validate(out);
      expect(run.problems.map((p) => p.field)).toEqual(['file', 'records', 'counts.judged_steps']);

      // a records-export receipt beside a process-reward file is not its receipt
      await writeFile(receiptFile, JSON.stringify({ ...receipt, kind: undefined, schema_version: 2 }, null, 2));
      run = await validate(out);
      expect(run.code).toBe(1);
      expect(run.problems.every((p) => p.file === receiptFile && p.stage === 'schema')).toBe(true);
    } finally {
      await writeFile(out, exported);
      await writeFile(receiptFile, JSON.stringify(receipt, null, 2));
    }
    const bare = await edited('bare.jsonl', () => {});
    const run = await validate(bare);
    expect(run.code).toBe(0);
    expect(run.err).toContain('no receipt');
    expect((await validate(bare, '--require-receipt')).problems).toEqual([
      expect.objectContaining({ file: `${bare}.receipt.json`, stage: 'input' }),
    ]);
  });
});
