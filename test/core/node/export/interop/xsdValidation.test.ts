import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { XSD_FILES, xsdProblems } from '../../../../../core/node/exportFiles/xsdValidation';
import { EAF_XSD, QDE_XSD } from './interopSessions';

const EAF = `<?xml version="1.0" encoding="UTF-8"?>
<ANNOTATION_DOCUMENT AUTHOR="a" DATE="2024-01-01T00:00:00Z" FORMAT="3.0" VERSION="3.0">
  <HEADER TIME_UNITS="milliseconds"/>
  <TIME_ORDER><TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="0"/><TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="10"/></TIME_ORDER>
  <TIER LINGUISTIC_TYPE_REF="text" TIER_ID="t">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2"><ANNOTATION_VALUE>x</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="text" TIME_ALIGNABLE="true"/>
</ANNOTATION_DOCUMENT>
`;

describe('XSD validation without Debian tools (libxml2 as WebAssembly)', () => {
  it.skipIf(!existsSync(EAF_XSD))("ships the formats' own schemas unchanged", async () => {
    expect(await readFile(XSD_FILES.eaf, 'utf8')).toBe(await readFile(EAF_XSD, 'utf8'));
    expect(await readFile(XSD_FILES.qde, 'utf8')).toBe(await readFile(QDE_XSD, 'utf8'));
  });

  it('passes a valid document and locates what the schema refuses, per document', async () => {
    const broken = EAF.replace('TIME_SLOT_REF2="ts2"', 'TIME_SLOT_REF2="ts9"').replace(' AUTHOR="a"', '');
    const problems = await xsdProblems('eaf', [
      { file: 'good.eaf', xml: EAF },
      { file: 'bad.eaf', xml: broken },
    ]);
    expect(problems.length).toBeGreaterThanOrEqual(2);
    expect(problems.every((p) => p.file === 'bad.eaf' && p.stage === 'schema')).toBe(true);
    expect(problems.map((p) => p.message).join('\n')).toMatch(/AUTHOR/);
    expect(problems.map((p) => p.message).join('\n')).toMatch(/ts9/);
    expect(problems.find((p) => /AUTHOR/.test(p.message))!.line).toBe(2);
  });

  it('thousands of documents are validated in batches (one run of 3,000 EAFs ran out of memory), each problem on its own document', async () => {
    const noAuthor = EAF.replace(' AUTHOR="a"', '');
    const documents = Array.from({ length: 1200 }, (_, i) => ({ file: `doc-${i}.eaf`, xml: i % 400 === 399 ? noAuthor : EAF }));
    const problems = await xsdProblems('eaf', documents);
    expect([...new Set(problems.map((p) => p.file))]).toEqual(['doc-399.eaf', 'doc-799.eaf', 'doc-1199.eaf']);
  }, 120_000);
});
