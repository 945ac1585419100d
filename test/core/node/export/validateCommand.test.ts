import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { serializeExport } from '../../../../core/common/export/exportFormats';
import { buildExportReceipt } from '../../../../core/common/export/exportReceipt';
import type { InputProblem } from '../../../../core/common/io/inputProblem';
import { loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { cli } from '../../../helpers/cli';
import { validRecords } from '../../common/export/exportFixtures';
import { recordSession } from './recordSession';

let dir: string;
const valid = serializeExport(validRecords(), 'jsonl');

async function validate(
  name: string,
  content: string | Buffer,
  ...args: string[]
): Promise<{ code: number; problems: InputProblem[]; file: string }> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  const run = await cli('validate', file, ...args);
  return { code: run.code, problems: run.code === 2 ? [] : (JSON.parse(run.out) as InputProblem[]), file };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'aloud-validate-'));
});

describe('aloud validate', () => {
  it('exit 0 and an empty list for a valid export (LF or CRLF, with or without a leading BOM)', async () => {
    for (const [name, content] of [
      ['ok.jsonl', valid],
      ['crlf.jsonl', valid.replace(/\n/g, '\r\n')],
      ['bom.jsonl', `\ufeff${valid}`],
    ] as const) {
      const { code, problems } = await validate(name, content);
      expect(problems, name).toEqual([]);
      expect(code).toBe(0);
    }
  });

  it.each([
    [
      'invalid UTF-8 on line 2',
      'bad-utf8.jsonl',
      () => Buffer.concat([Buffer.from(valid.split('\n')[0]! + '\n'), Buffer.from([0x7b, 0xff, 0x7d, 0x0a])]),
      [],
      2,
    ],
    ['a file over --max-file-bytes', 'big.jsonl', () => valid, ['--max-file-bytes', '100'], null],
    ['a line over --max-line-bytes', 'long.jsonl', () => valid, ['--max-line-bytes', '2KiB'], 1],
    ['an unknown file type', 'export.txt', () => valid, [], null],
  ] as const)('reports %s at the input stage', async (_name, file, content, args, line) => {
    const { code, problems } = await validate(file, content(), ...args);
    expect(code).toBe(1);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: path.join(dir, file), line, field: null, stage: 'input' });
  });

  it('a missing file or a bad option is a usage error (exit 2, one line)', async () => {
    for (const args of [
      [path.join(dir, 'nope.jsonl')],
      [],
      [path.join(dir, 'ok.jsonl'), '--max-line-bytes', 'lots'],
      [path.join(dir, 'ok.jsonl'), '--bogus'],
    ]) {
      const run = await cli('validate', ...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.err.trim().split('\n')).toHaveLength(1);
    }
  });

  it('checks the receipt beside the file: parse, schema and the rule that it describes this file', async () => {
    const file = path.join(dir, 'with-receipt.jsonl');
    await writeFile(file, valid);
    const receiptFile = `${file}.receipt.json`;
    await writeFile(receiptFile, '{"receipt_version": 1,');
    let run = await cli('validate', file);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out)).toEqual([expect.objectContaining({ file: receiptFile, stage: 'parse', line: 1 })]);

    await writeFile(receiptFile, JSON.stringify({ receipt_version: 1 }));
    run = await cli('validate', file);
    expect((JSON.parse(run.out) as InputProblem[]).every((p) => p.stage === 'schema' && p.file === receiptFile)).toBe(true);

    const { createHash } = await import('node:crypto');
    // counts and gaps as the records give them (validate recounts them), but for another file and one record too many
    const receipt = {
      ...buildExportReceipt({
        file: 'other.jsonl',
        format: 'jsonl',
        sha256: createHash('sha256').update(valid).digest('hex'),
        bytes: Buffer.byteLength(valid),
        records: validRecords(),
        project: validRecords()[0]!.project,
        appVersion: '0.1.0',
        createdAt: '2026-01-01T00:00:00Z',
      }),
      records: 3,
    };
    await writeFile(receiptFile, JSON.stringify(receipt, null, 2));
    run = await cli('validate', file);
    expect(run.code).toBe(1);
    expect((JSON.parse(run.out) as InputProblem[]).map((p) => [p.stage, p.field])).toEqual([
      ['rule', 'file'],
      ['rule', 'records'],
    ]);
    await writeFile(receiptFile, JSON.stringify({ ...receipt, file: 'with-receipt.jsonl', records: 2 }, null, 2));
    run = await cli('validate', file);
    expect(run.out.trim()).toBe('[]');
    expect(run.code).toBe(0);
  });

  it('with --project: an item removed from the project since the export is a rule problem', async () => {
    const proj = path.join(dir, 'proj');
    expect((await cli('init', '--project', proj, '--demo')).code).toBe(0);
    await recordSession(await loadProjectConfig(proj), 'ann', [{ id: 'demo-02', click: 'Polite' }]);
    const out = path.join(proj, 'e.jsonl');
    expect((await cli('export', '--project', proj, '--format', 'jsonl', '--out', out)).code).toBe(0);
    const items = (await readFile(path.join(proj, 'items.jsonl'), 'utf8')).split('\n');
    await writeFile(path.join(proj, 'items.jsonl'), items.filter((l) => !l.includes('"demo-02"')).join('\n'));
    const run = await cli('validate', out, '--project', proj);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out)).toEqual([
      expect.objectContaining({ stage: 'rule', line: 2, field: 'item_id', message: 'item "demo-02" does not exist in the project' }),
    ]);
    expect((await cli('validate', out)).code).toBe(0);
  });
});
