import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InteropReceipt } from '../../../../core/common/export/interop/interopFormats';
import { sha256Hex } from '../../../../core/node/fs/sha256';
import { cli } from '../../../helpers/cli';
import { canSpeak, spokenNameProject } from './deidentifySpoken';

// the phone number as said ("555" alone may occur in a sha256 or a GUID)
const NAMES = /sarah|leipzig|555 ?1234/iu;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe.skipIf(!canSpeak)('aloud export --deidentify for ELAN, Praat, REFI-QDA, Hugging Face and MAXQDA', () => {
  let dir: string;
  let maskedSha256: string;

  beforeAll(async () => {
    ({ dir } = await spokenNameProject());
    const out = path.join(path.dirname(dir), 'records.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', out, '--deidentify')).code).toBe(0);
    maskedSha256 = sha256Hex(await readFile(path.join(path.dirname(dir), 'records.jsonl.audio', 'bob', 'demo-01.wav')));
  }, 240_000);

  for (const format of ['eaf', 'textgrid', 'maxqda', 'hf', 'qdpx'] as const) {
    it(`${format}: placeholders in every text it carries, only the masked recording, a receipt that says so`, async () => {
      const out = path.join(path.dirname(dir), `out-${format}`);
      const run = await cli('export', '--project', dir, '--format', format, '--out', out, '--deidentify');
      expect(run.err).not.toMatch(/NOT de-identified/u);
      expect(run.code).toBe(0);
      // the summary says it is de-identified, as a de-identified file's does
      expect(run.out).toMatch(/; de-identified \(list version /u);
      const files = await filesUnder(out);
      let placeholders = 0;
      let wavs = 0;
      for (const file of files) {
        const bytes = await readFile(file);
        if (file.endsWith('.wav')) {
          wavs++;
          expect(sha256Hex(bytes), file).toBe(maskedSha256);
        } else if (file.endsWith('.qdpx')) {
          const zip = unzipSync(new Uint8Array(bytes));
          for (const [name, content] of Object.entries(zip)) {
            if (name.endsWith('.wav')) {
              wavs++;
              expect(sha256Hex(content), name).toBe(maskedSha256);
            } else {
              const text = Buffer.from(content).toString('utf8');
              expect(text, name).not.toMatch(NAMES);
              placeholders += (text.match(/\[PERSON-1\]/gu) ?? []).length;
            }
          }
        } else if (!file.endsWith('.parquet')) {
          // (the parquet holds the very rows of metadata.jsonl, checked here as text)
          const text = bytes.toString('utf8');
          expect(text, file).not.toMatch(NAMES);
          placeholders += (text.match(/\[PERSON-1\]/gu) ?? []).length;
        }
        expect(path.relative(out, file)).not.toMatch(NAMES);
      }
      expect(wavs).toBe(1);
      expect(placeholders).toBeGreaterThan(0);
      const receipt = JSON.parse(await readFile(path.join(out, `${format}.receipt.json`), 'utf8')) as InteropReceipt;
      expect(receipt.deidentification).toMatchObject({
        deidentified: true,
        list_version: '7',
        spans_by_class: { PERSON: 3, PHONE: 2, PLACE: 1 },
      });
    }, 120_000);
  }

  it('validate checks a de-identified .eaf and .qdpx for listed terms and patterns, and the hidden audio beside the .eaf', async () => {
    const eaf = path.join(path.dirname(dir), 'out-eaf', 'bob', 'demo-01.eaf');
    const qdpx = (await readdir(path.join(path.dirname(dir), 'out-qdpx'))).find((f) => f.endsWith('.qdpx'))!;
    expect((await cli('validate', eaf, '--project', dir)).out).toBe('[]\n');
    expect((await cli('validate', path.join(path.dirname(dir), 'out-qdpx', qdpx), '--project', dir)).out).toBe('[]\n');
    const { writeFile } = await import('node:fs/promises');
    const xml = await readFile(eaf, 'utf8');
    await writeFile(eaf, xml.replace('[PLACE-1]', 'Leipzig'));
    const wav = path.join(path.dirname(eaf), 'demo-01.wav');
    const audio = await readFile(wav);
    const receipt = JSON.parse(await readFile(path.join(path.dirname(dir), 'out-eaf', 'eaf.receipt.json'), 'utf8')) as InteropReceipt;
    const range = receipt.deidentification!.hidden_audio[0]!.ranges[0]!;
    audio.writeInt16LE(777, 44 + 2 * range.start);
    await writeFile(wav, audio);
    const run = await cli('validate', eaf, '--project', dir);
    expect(run.code).toBe(1);
    const messages = (JSON.parse(run.out) as Array<{ message: string }>).map((p) => p.message);
    expect(messages.some((m) => /^a text holds a PLACE at offset \d+ that a de-identified export must not hold$/u.test(m))).toBe(true);
    expect(messages).toContain(`sample ${range.start} lies in a hidden span (${range.start}–${range.end}) but is not silence`);
  });

  it('every de-identified file says so inside, so validate checks a copy without its receipt, in every format, and a look-alike put back', async () => {
    const { cp, writeFile } = await import('node:fs/promises');
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const loose = await mkdtemp(path.join(tmpdir(), 'aloud-deid-copy-'));
    const root = path.dirname(dir);
    // a fresh EAF: the test before put a name back into the first one
    expect((await cli('export', '--project', dir, '--format', 'eaf', '--out', path.join(root, 'out-eaf-2'), '--deidentify')).code).toBe(0);
    const copies: Array<[string, string]> = [
      [path.join(root, 'out-eaf-2', 'bob', 'demo-01.eaf'), 'copy.eaf'],
      [path.join(root, 'out-textgrid', 'bob', 'demo-01.TextGrid'), 'copy.TextGrid'],
      [path.join(root, 'out-maxqda', 'bob', 'demo-01.txt'), 'copy.txt'],
    ];
    for (const [from, to] of copies) {
      const target = path.join(loose, to);
      await cp(from, target);
      expect((await cli('validate', target, '--project', dir)).out, to).toBe('[]\n');
      const text = await readFile(target, 'utf8');
      expect(text, to).toContain('de-identified by Aloud');
      // Cyrillic "а" for "a": a look-alike put back where the placeholder was
      await writeFile(target, text.replace('[PERSON-1]', 'S\u0430rah'));
      const run = await cli('validate', target, '--project', dir);
      expect(run.code, to).toBe(1);
      expect(run.out, to).toMatch(/holds a PERSON/u);
    }
    // the dataset's rows beside its card (a copy of the folder, no receipt)
    const hf = path.join(loose, 'hf');
    await cp(path.join(root, 'out-hf'), hf, { recursive: true });
    const { unlink } = await import('node:fs/promises');
    await unlink(path.join(hf, 'hf.receipt.json'));
    expect((await cli('validate', path.join(hf, 'metadata.jsonl'), '--project', dir)).out).toBe('[]\n');
    expect((await cli('validate', path.join(hf, 'parquet', 'records.parquet'), '--project', dir)).out).toBe('[]\n');
    const rows = await readFile(path.join(hf, 'metadata.jsonl'), 'utf8');
    await writeFile(path.join(hf, 'metadata.jsonl'), rows.replace('[PERSON-1]', '\uff33\uff41\uff52\uff41\uff48'));
    expect((await cli('validate', path.join(hf, 'metadata.jsonl'), '--project', dir)).out).toMatch(/holds a PERSON/u);
  });

  it('refuses when an item id would carry a hidden term into a file name, and writes nothing', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(dir, 'deidentify.yaml'), 'terms:\n  - {text: Sarah, class: PERSON}\n  - {text: demo-01, class: ORG}\n');
    const out = path.join(path.dirname(dir), 'refused');
    const run = await cli('export', '--project', dir, '--format', 'maxqda', '--out', out, '--deidentify');
    expect(run.code).not.toBe(0);
    expect(run.err).toMatch(/item id "demo-01" holds what deidentify.yaml hides as ORG.*nothing was written/u);
    await expect(readdir(out)).rejects.toThrow();
  });
});
