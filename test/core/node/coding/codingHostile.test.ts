import { readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../../helpers/cli';
import { codingStudy } from './codingStudy';

describe('coding input from outside', () => {
  it('a codebook.yaml that is a link out of the project is refused, naming the file', async () => {
    const { dir } = await codingStudy();
    const outside = path.join(dir, '..', 'elsewhere.yaml');
    await writeFile(outside, 'codes:\n  - {name: A, definition: a}\n');
    await unlink(path.join(dir, 'codebook.yaml'));
    await symlink(outside, path.join(dir, 'codebook.yaml'));
    const run = await cli('agreement', '--project', dir, '--codes', '--json');
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/codebook\.yaml: .*(outside|link)/);
  });

  it('a codings table with a control character or a formula is read as text and located; units.csv escapes formulas', async () => {
    const { dir } = await codingStudy();
    const bad = path.join(dir, '..', 'bad.csv');
    await writeFile(bad, 'item,annotator,unit,coder,code,memo\r\ndemo-01,ana,u0,bob,Doubts,a\u0007b\r\n');
    const refused = await cli('import', '--project', dir, '--codings', bad);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/bad\.csv:2:.*control character/);
    const formula = path.join(dir, '..', 'formula.csv');
    await writeFile(formula, 'item,annotator,unit,coder,code,memo\r\ndemo-01,ana,u0,bob,Doubts,"=HYPERLINK(""x"")"\r\n');
    expect((await cli('import', '--project', dir, '--codings', formula)).code).toBe(0);
    const out = path.join(dir, '..', 'records.csv');
    expect((await cli('export', '--project', dir, '--format', 'csv', '--out', out)).code).toBe(0);
    const units = await readFile(path.join(dir, '..', 'records.units.csv'), 'utf8');
    expect(units).toContain('"bob=Doubts=\\=HYPERLINK(""x"")"');
    expect(JSON.parse((await cli('validate', path.join(dir, '..', 'records.units.csv'))).out)).toEqual([]);
  });
});
