import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseCodebook } from '../../../../core/common/codebook/codebook';
import { DEMO_PROJECT_DIR } from '../../../../core/node/project/projectFolder';
import { cli } from '../../../helpers/cli';
import { xsdProblems } from '../../../../core/node/exportFiles/xsdValidation';
import { QDE_XSD } from '../export/interop/interopSessions';

/** A project as a QDA tool exports it: braces around GUIDs, codes nested three deep, a folder code that is not codable, a source. */
const PROJECT_QDE = `<?xml version="1.0" encoding="utf-8"?>
<Project xmlns="urn:QDA-XML:project:1.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" name="Think-aloud study" origin="ATLAS.ti 23" creationDateTime="2024-03-01T10:00:00Z">
  <Users><User guid="{6F2A1C3E-0D4B-4E5F-8A9B-1C2D3E4F5A6B}" name="Lead"/></Users>
  <CodeBook>
    <Codes>
      <Code guid="{0A1B2C3D-4E5F-4061-8273-94A5B6C7D8E9}" name="Reasons" isCodable="false" color="#336699">
        <Description>Why the annotator chose the label.</Description>
        <Code guid="1b2c3d4e-5f60-4172-8394-a5b6c7d8e9f0" name="Cites the guideline" isCodable="true">
          <Description>Names a rule of the guidelines &amp; applies it.</Description>
          <Code guid="2c3d4e5f-6071-4283-94a5-b6c7d8e9f0a1" name="Quotes the rule" isCodable="true"/>
        </Code>
        <Code guid="3d4e5f60-7182-4394-a5b6-c7d8e9f0a1b2" name="Considers feelings" isCodable="true"><Description>Talks about how the customer would feel.</Description></Code>
      </Code>
      <Code guid="4e5f6071-8293-44a5-b6c7-d8e9f0a1b2c3" name="Doubts" isCodable="true"><Description>Says the label is uncertain.</Description></Code>
    </Codes>
  </CodeBook>
  <Sources>
    <TextSource guid="5f607182-93a4-45b6-c7d8-e9f0a1b2c3d4" name="protocol 1" plainTextPath="internal://5f607182-93a4-45b6-c7d8-e9f0a1b2c3d4.txt"/>
  </Sources>
</Project>
`;

async function project(): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-codebook-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  return dir;
}

async function qdpx(dir: string, qde: string): Promise<string> {
  const file = path.join(dir, '..', 'study.qdpx');
  await writeFile(
    file,
    zipSync({ 'project.qde': strToU8(qde), 'Sources/5f607182-93a4-45b6-c7d8-e9f0a1b2c3d4.txt': strToU8('I think this is polite.') }),
  );
  return file;
}

describe('aloud import --codebook', () => {
  it('the fixture is a project as the standard defines it', async () => {
    if (!existsSync(QDE_XSD)) return;
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-qde-')), 'project.qde');
    await writeFile(file, PROJECT_QDE);
    execFileSync('xmllint', ['--noout', '--schema', QDE_XSD, file], { stdio: 'pipe' });
  });

  it('reads the CodeBook of a .qdpx with its nesting and descriptions into codebook.yaml', async () => {
    const dir = await project();
    const run = await cli('import', '--project', dir, '--codebook', await qdpx(dir, PROJECT_QDE), '--json');
    expect(run.code, run.err).toBe(0);
    expect(JSON.parse(run.out)).toMatchObject({
      source_kind: 'project',
      codes: 5,
      top_level: 2,
      nested: 3,
      depth: 3,
      not_codable: ['Reasons'],
      without_definition: ['Quotes the rule'],
      replaced: false,
    });
    const codebook = parseCodebook(await readFile(path.join(dir, 'codebook.yaml'), 'utf8'));
    expect(codebook.codes).toEqual([
      { name: 'Reasons', definition: 'Why the annotator chose the label.', guid: '{0A1B2C3D-4E5F-4061-8273-94A5B6C7D8E9}' },
      {
        name: 'Cites the guideline',
        definition: 'Names a rule of the guidelines & applies it.',
        parent: 'Reasons',
        guid: '1b2c3d4e-5f60-4172-8394-a5b6c7d8e9f0',
      },
      { name: 'Quotes the rule', definition: '', parent: 'Cites the guideline', guid: '2c3d4e5f-6071-4283-94a5-b6c7d8e9f0a1' },
      {
        name: 'Considers feelings',
        definition: 'Talks about how the customer would feel.',
        parent: 'Reasons',
        guid: '3d4e5f60-7182-4394-a5b6-c7d8e9f0a1b2',
      },
      { name: 'Doubts', definition: 'Says the label is uncertain.', guid: '4e5f6071-8293-44a5-b6c7-d8e9f0a1b2c3' },
    ]);

    const again = await cli('import', '--project', dir, '--codebook', await qdpx(dir, PROJECT_QDE));
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/already has a codebook; pass --replace/);
    expect((await cli('import', '--project', dir, '--codebook', await qdpx(dir, PROJECT_QDE), '--replace')).code).toBe(0);
  });

  it('reads a .qdc codebook with a namespace prefix', async () => {
    const dir = await project();
    const qdc = path.join(dir, '..', 'codes.qdc');
    await writeFile(
      qdc,
      `<?xml version="1.0" encoding="utf-8"?>\n<qda:CodeBook xmlns:qda="urn:QDA-XML:codebook:1.0" origin="MAXQDA"><qda:Codes><qda:Code guid="0a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9" name="Reads again" isCodable="true"><qda:Description>Rereads the reply.</qda:Description><qda:Code guid="1b2c3d4e-5f60-4172-8394-a5b6c7d8e9f0" name="Aloud" isCodable="true"/></qda:Code></qda:Codes></qda:CodeBook>\n`,
    );
    const run = await cli('import', '--project', dir, '--codebook', qdc);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^2 codes read from .*codes\.qdc \(1 top-level, 1 nested, 2 levels\); 1 without a description/);
    expect(parseCodebook(await readFile(path.join(dir, 'codebook.yaml'), 'utf8')).codes).toEqual([
      { name: 'Reads again', definition: 'Rereads the reply.', guid: '0a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9' },
      { name: 'Aloud', definition: '', parent: 'Reads again', guid: '1b2c3d4e-5f60-4172-8394-a5b6c7d8e9f0' },
    ]);
  });

  it('a project without a CodeBook is valid REFI-QDA (the XSD shipped with Aloud says so), so it is not refused as a schema problem', async () => {
    const withoutCodebook = PROJECT_QDE.replace(/<CodeBook>[\s\S]*<\/CodeBook>\n/, '');
    expect(await xsdProblems('qde', [{ file: 'project.qde', xml: withoutCodebook }])).toEqual([]);
    const dir = await project();
    const run = await cli('import', '--project', dir, '--codebook', await qdpx(dir, withoutCodebook));
    expect(run.code).toBe(2);
    expect(run.err).toContain('stage input');
    expect(run.err).not.toContain('stage schema');
  });

  it('refuses what is not a REFI-QDA codebook, located, and writes nothing', async () => {
    const dir = await project();
    const cases: Array<[string, RegExp]> = [
      [
        PROJECT_QDE.replace('urn:QDA-XML:project:1.0', 'urn:example'),
        /the root element is <Project> in namespace urn:example: a REFI-QDA codebook is/,
      ],
      [
        PROJECT_QDE.replace('name="Doubts" isCodable="true"', 'name="Doubts"'),
        /study\.qdpx: isCodable is missing \(the standard requires true or false\) \(field "Doubts", stage schema\)/,
      ],
      [
        PROJECT_QDE.replace('4e5f6071-8293-44a5-b6c7-d8e9f0a1b2c3', '3d4e5f60-7182-4394-a5b6-c7d8e9f0a1b2'),
        /guid 3d4e5f60-7182-4394-a5b6-c7d8e9f0a1b2 is also the guid of Reasons \/ Considers feelings/,
      ],
      [
        PROJECT_QDE.replace('name="Doubts"', 'name="Considers feelings"'),
        /duplicate code name "Considers feelings" \(also Reasons \/ Considers feelings\); Aloud's codebook names each code once/,
      ],
      [PROJECT_QDE.replace('</CodeBook>', '</CodeBok>'), /:\d+: not well-formed XML/],
      // valid against the XSD (CodeBook is optional), so not a schema problem: what is missing, and what to do
      [
        PROJECT_QDE.replace(/<CodeBook>[\s\S]*<\/CodeBook>\n/, ''),
        /study\.qdpx: the project is a REFI-QDA project without a codebook \(it has no <CodeBook>, which the standard allows\): there are no codes to import; export the codebook .* \(field "Project", stage input\)/,
      ],
    ];
    for (const [qde, message] of cases) {
      const run = await cli('import', '--project', dir, '--codebook', await qdpx(dir, qde));
      expect(run.code, run.out).toBe(2);
      expect(run.err.trimEnd().split('\n')).toHaveLength(1);
      expect(run.err).toMatch(message);
      expect(existsSync(path.join(dir, 'codebook.yaml'))).toBe(false);
    }
  });
});
