import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordTexts } from '../../../../core/common/deidentify/leakCheck';
import type { DeidentificationReceipt } from '../../../../core/common/deidentified/deidentifyReceipt';
import type { ExportRecordV2 } from '../../../../core/common/export/exportRecord';
import { wavDataRange } from '../../../../core/node/deidentify/deidentifyProject';
import { cli } from '../../../helpers/cli';
import { canSpeak, spokenNameProject } from './deidentifySpoken';

if (!canSpeak) console.warn('[de-identification export test] SKIPPED: espeak-ng and sox are needed to speak the name');

/** RMS level of 16-bit samples in dBFS (−Infinity for digital silence). */
function rmsDbfs(bytes: Buffer, offset: number, start: number, end: number): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += (bytes.readInt16LE(offset + 2 * i) / 32768) ** 2;
  return 10 * Math.log10(sum / Math.max(1, end - start));
}

// the phone number as said ("555" alone may occur in a sha256 or a GUID)
const NAMES = /sarah|leipzig|555 ?1234/iu;

describe.skipIf(!canSpeak)('aloud export --deidentify (a spoken name, the scripted engine with token times)', () => {
  let dir: string;
  let out: string;
  let record: ExportRecordV2;
  let receipt: { deidentification: DeidentificationReceipt; sha256: string };

  beforeAll(async () => {
    const study = await spokenNameProject();
    dir = study.dir;
    expect(study.utterances).toBe(2);
    out = path.join(path.dirname(dir), 'study.jsonl');
    const run = await cli('export', '--project', dir, '--format', 'jsonl', '--out', out, '--deidentify', '--json');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const records = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExportRecordV2);
    record = records.find((r) => r.annotator === 'bob' && r.item_id === 'demo-01')!;
    receipt = JSON.parse(await readFile(`${out}.receipt.json`, 'utf8'));
  }, 240_000);

  it('replaces the name in every text field, numbered consistently across the two utterances, the phone number split over two tokens too', () => {
    expect(record.transcript).toBe(
      ' This sounds like my manager [PERSON-1] from [PLACE-1]. I would call [PERSON-1] at [PHONE-1], I label this polite.',
    );
    expect(record.segments.map((s) => s.text)).toEqual([
      ' This sounds like my manager [PERSON-1] from [PLACE-1].',
      ' I would call [PERSON-1] at [PHONE-1], I label this polite.',
    ]);
    // the scripted engine's tokens are words: "555" and " 1234" are two tokens, one placeholder
    expect(record.segments[1]!.tokens!.map((t) => t.text)).toContain(' [PHONE-1]');
    expect(record.notes.map((n) => n.text)).toEqual(['[PERSON-1] sounded upset; her number [PHONE-1] is in the notes']);
    const texts = recordTexts(record as unknown as Record<string, unknown>);
    expect(texts.length).toBeGreaterThan(5);
    for (const t of texts) expect(t.text, t.field).not.toMatch(NAMES);
  });

  it('keeps the commitment, its label and time, its quote carrying the placeholders at its offsets', () => {
    expect(record.final_label).toBe('Polite');
    const c = record.commitments.at(-1)!;
    expect(c.label).toBe('Polite');
    expect(record.transcript!.slice(c.start, c.end)).toBe(c.quote);
    expect(c.t_ms).not.toBeNull();
    expect(record.label_history.at(-1)!.label).toBe('Polite');
  });

  it('silences the hidden spans (below −60 dBFS) in a copy of the recording of the same length, every other byte identical', async () => {
    const masked = await readFile(path.join(path.dirname(out), ...record.audio!.path.split('/')));
    const original = await readFile(path.join(dir, 'sessions', 'bob', 'audio', 'demo-01.wav'));
    expect(masked.length).toBe(original.length);
    expect(record.audio!.path).toBe('study.jsonl.audio/bob/demo-01.wav');
    const hidden = receipt.deidentification.hidden_audio.find((h) => h.item_id === 'demo-01')!;
    // the three names, the second Sarah and the phone number: four spans, merged where their margins meet
    expect(hidden.ranges.length).toBeGreaterThanOrEqual(3);
    const { offset } = wavDataRange(masked, 'masked');
    const inside = new Uint8Array(masked.length);
    for (const r of hidden.ranges) {
      expect(rmsDbfs(masked, offset, r.start, r.end)).toBeLessThan(-60);
      // what was there was speech: the spans fall on the words, not on the pauses
      expect(rmsDbfs(original, offset, r.start, r.end)).toBeGreaterThan(-45);
      inside.fill(1, offset + 2 * r.start, offset + 2 * r.end);
    }
    let differing = 0;
    for (let i = 0; i < masked.length; i++) {
      if (inside[i]) continue;
      if (masked[i] !== original[i]) differing++;
    }
    expect(differing).toBe(0);
  });

  it('says in its receipt that it is de-identified, with the list version and the spans per class', () => {
    expect(receipt.deidentification).toMatchObject({ deidentified: true, list_version: '7', terms: 2, audio: 'silence', margin_ms: 150 });
    // segments: PERSON twice, PLACE, PHONE; the note: PERSON, PHONE
    expect(receipt.deidentification.spans_by_class).toEqual({ PERSON: 3, PHONE: 2, PLACE: 1 });
  });

  it('validates, and validate catches a name planted in a tampered export and a hidden span made audible again', async () => {
    const ok = await cli('validate', out, '--project', dir);
    expect(ok.out).toBe('[]\n');
    expect(ok.code).toBe(0);

    const text = await readFile(out, 'utf8');
    const tampered = path.join(path.dirname(out), 'tampered.jsonl');
    await writeFile(tampered, text.replaceAll('call [PERSON-1] at', 'call Sarah at'));
    await writeFile(`${tampered}.receipt.json`, await readFile(`${out}.receipt.json`));
    const leak = await cli('validate', tampered, '--project', dir);
    expect(leak.code).toBe(1);
    const problems = JSON.parse(leak.out) as Array<{ field: string; message: string }>;
    expect(problems.filter((p) => /holds a PERSON/u.test(p.message)).map((p) => p.field)).toEqual(
      expect.arrayContaining(['transcript', 'segments[1].text']),
    );
    // the problem never repeats the hidden text
    expect(problems.every((p) => !/sarah/iu.test(p.message))).toBe(true);

    const wavFile = path.join(path.dirname(out), 'study.jsonl.audio', 'bob', 'demo-01.wav');
    const masked = await readFile(wavFile);
    const range = receipt.deidentification.hidden_audio[0]!.ranges[0]!;
    const { offset } = wavDataRange(masked, 'masked');
    masked.writeInt16LE(1000, offset + 2 * (range.start + 10));
    await writeFile(wavFile, masked);
    const audible = await cli('validate', out, '--project', dir);
    expect(audible.code).toBe(1);
    expect(audible.out).toMatch(new RegExp(`sample ${range.start + 10} .*lies in a hidden span`, 'u'));
  });

  it('writes de-identified transcripts (txt, srt, vtt) with the same placeholders, and its receipt says so', async () => {
    for (const format of ['txt', 'srt', 'vtt']) {
      const folder = path.join(path.dirname(dir), `transcripts-${format}`);
      const run = await cli('export', '--project', dir, '--format', format, '--out', folder, '--deidentify');
      expect(run.code).toBe(0);
      const text = await readFile(path.join(folder, 'bob', `demo-01.${format}`), 'utf8');
      expect(text).not.toMatch(NAMES);
      expect(text).toContain('I would call [PERSON-1] at [PHONE-1], I label this polite.');
      const receipt = JSON.parse(await readFile(path.join(folder, 'transcripts.receipt.json'), 'utf8'));
      expect(receipt.deidentification).toMatchObject({ deidentified: true, list_version: '7' });
    }
  });

  it('an export without --deidentify of a project with a list says so in one line', async () => {
    const plain = await cli('export', '--project', dir, '--format', 'csv', '--out', path.join(path.dirname(dir), 'plain.csv'));
    expect(plain.code).toBe(0);
    expect(plain.err.split('\n').filter((l) => /NOT de-identified/u.test(l))).toHaveLength(1);
  });
});

describe.skipIf(!canSpeak)('aloud export --deidentify as CSV, hidden audio as a tone', () => {
  it(
    'writes placeholders in the CSV cells, a 1 kHz tone in the hidden spans, and validate reads both back',
    { timeout: 240_000 },
    async () => {
      const { dir } = await spokenNameProject();
      await writeFile(
        path.join(dir, 'deidentify.yaml'),
        'terms:\n  - {text: Sarah, class: PERSON}\n  - {text: Leipzig, class: PLACE}\naudio: tone\nmargin_ms: 50\n',
      );
      const out = path.join(path.dirname(dir), 'study.csv');
      const run = await cli('export', '--project', dir, '--format', 'csv', '--out', out, '--deidentify');
      expect(run.code).toBe(0);
      expect(run.out).toMatch(/de-identified \(list version unversioned: 3 PERSON, 2 PHONE, 1 PLACE; audio: tone, margin 50 ms\)/u);
      const csv = await readFile(out, 'utf8');
      expect(csv).not.toMatch(NAMES);
      expect(csv).toContain(
        'This sounds like my manager [PERSON-1] from [PLACE-1]. I would call [PERSON-1] at [PHONE-1], I label this polite.',
      );
      expect((await cli('validate', out, '--project', dir)).out).toBe('[]\n');

      const receipt = JSON.parse(await readFile(`${out}.receipt.json`, 'utf8')) as { deidentification: DeidentificationReceipt };
      const hidden = receipt.deidentification.hidden_audio[0]!;
      const masked = await readFile(path.join(path.dirname(out), ...hidden.path.split('/')));
      const { offset } = wavDataRange(masked, 'masked');
      for (const r of hidden.ranges) expect(rmsDbfs(masked, offset, r.start, r.end)).toBeCloseTo(-23, 0);

      await writeFile(out, csv.replace('manager [PERSON-1]', 'manager SARAH'));
      const leak = await cli('validate', out, '--project', dir);
      expect(leak.code).toBe(1);
      expect(JSON.parse(leak.out).filter((p: { message: string }) => /transcript holds a PERSON/u.test(p.message))).toHaveLength(1);
    },
  );
});
