import { cp, mkdtemp, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { expect } from 'vitest';
import { parseDeidentifyList } from '../../../core/common/deidentify/deidentifyList';
import { SpanMatcher } from '../../../core/common/deidentify/spanMatcher';
import { wavSamples } from '../../../core/node/deidentify/deidentifyProject';
import { appendReviewDecision } from '../../../core/node/deidentify/reviewLog';
import { sha256Hex } from '../../../core/node/fs/sha256';
import type { OpenProject } from '../../../core/node/project/projectFolder';
import { cli } from '../../helpers/cli';
import { recordSession } from '../../core/node/export/recordSession';
import { freshProject } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';

const LIST =
  'version: census\nterms:\n  - {text: Sarah Miller, class: PERSON}\n  - {text: Sarah, class: PERSON}\n  - {text: Miller, class: PERSON}\n  - {text: Müller, class: PERSON}\n  - {text: Jonas Weber, class: PERSON}\n  - {text: May, class: PERSON}\n';

/** What bob said on demo-01, one utterance a second (100–900 ms of each second is its segment). */
const SAID = [
  'Uh, I spoke with Jonas',
  'Weber about it',
  'Frau Mu\u0308ller rief an',
  'write to jonas dot weber at example dot com',
  'call five five five, one two three four',
  'I think Sarah said so',
  'it may be May',
];

interface Ctx {
  project: OpenProject;
  root: string;
  /** a de-identified jsonl export and its masked recording */
  jsonl: string;
  wav: Buffer;
  matcher: SpanMatcher;
}

const cases: Array<HostileCase<Ctx>> = [];
const add = (name: string, run: (ctx: Ctx) => Promise<void> | void) => cases.push({ name, run });

async function exportJsonl(ctx: Pick<Ctx, 'project' | 'root'>, name: string): Promise<string> {
  const out = path.join(ctx.root, name);
  const run = await cli('export', '--project', ctx.project.dir, '--format', 'jsonl', '--out', out, '--deidentify');
  expect(run.code, run.err).toBe(0);
  return out;
}

/** validate FILE --project on a copy where the first placeholder is put back as `form`: must fail naming the class. */
async function caughtPutBack(ctx: Ctx, file: string, form: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  expect(text).toContain('[PERSON-1]');
  const copy = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-putback-')), path.basename(file));
  await writeFile(copy, text.replace('[PERSON-1]', form));
  for (const sibling of ['.receipt.json']) await cp(`${file}${sibling}`, `${copy}${sibling}`).catch(() => undefined);
  const run = await cli('validate', copy, '--project', ctx.project.dir);
  expect(run.code, run.out).toBe(1);
  expect(run.out).toMatch(/holds a PERSON/u);
}

// the look-alikes of a listed name, each put back in place of a placeholder
const LOOK_ALIKES: Array<[string, string]> = [
  ['NFD (u + combining diaeresis)', 'Mu\u0308ller'],
  ['full-width', '\uff33\uff41\uff52\uff41\uff48'],
  ['mathematical bold', '\u{1d412}\u{1d41a}\u{1d42b}\u{1d41a}\u{1d421}'],
  ['small capitals', 'S\u1d00\u0280\u1d00\u029c'],
  ['zero-width space', 'Sar\u200bah'],
  ['soft hyphen', 'Sar\u00adah'],
  ['zero-width joiner', 'Sa\u200drah'],
  ['Cyrillic а', 'S\u0430rah'],
  ['combining accent', 'Sa\u0301rah'],
  ['underscore between the words', 'Sarah_Miller'],
  ['dotless ı', 'M\u0131ller'],
];
for (const [cls, form] of LOOK_ALIKES) {
  add(`a de-identified export hides a look-alike of a listed name (${cls})`, (ctx) => {
    expect(ctx.matcher.find(`so ${form} said`).map((s) => s.class)).toEqual(['PERSON']);
  });
  add(`validate --project catches a look-alike (${cls}) put back in place of a placeholder`, async (ctx) => {
    await caughtPutBack(ctx, ctx.jsonl, form);
  });
}

add('a listed full name said across a pause (two utterances) is hidden in both, and both stretches of audio are silent', async (ctx) => {
  const text = await readFile(ctx.jsonl, 'utf8');
  expect(text).not.toMatch(/Jonas|Weber/u);
  const record = JSON.parse(text.split('\n')[0]!) as { segments: Array<{ text: string }> };
  expect(record.segments.slice(0, 2).map((s) => s.text)).toEqual(['Uh, I spoke with [PERSON-1]', '[PERSON-1] about it']);
  const pcm = wavSamples(ctx.wav, 'masked').pcm;
  // "Jonas" ends utterance 0 (share 17/22 of 100–900 ms), "Weber" opens utterance 1
  for (const ms of [100 + (800 * 19.5) / 22, 1000 + 100 + (800 * 2.5) / 14]) expect(pcm[Math.round(ms * 16)], `${ms} ms`).toBe(0);
});
add('NFD Mu\u0308ller with Müller listed is hidden, and validate finds nothing left', async (ctx) => {
  expect(await readFile(ctx.jsonl, 'utf8')).not.toMatch(/Mu\u0308ller|Müller/u);
  expect((await cli('validate', ctx.jsonl, '--project', ctx.project.dir)).out).toBe('[]\n');
});
add('a spoken e-mail address is hidden whole (not "jonas dot [EMAIL-1]")', async (ctx) => {
  const text = await readFile(ctx.jsonl, 'utf8');
  expect(text).toContain('write to [EMAIL-1]');
  expect(text).not.toMatch(/jonas dot/u);
});
add('a phone number said digit by digit is hidden', async (ctx) => {
  const text = await readFile(ctx.jsonl, 'utf8');
  expect(text).toContain('call [PHONE-1]');
});
add("a reviewer's rejected match stays, and the export's own check does not count it as a leak", async (ctx) => {
  const records = (await readFile(ctx.jsonl, 'utf8')).split('\n')[0]!;
  const original = (JSON.parse(records) as { segments: Array<{ text: string }> }).segments;
  expect(original[6]!.text).toMatch(/^it \[PERSON-\d+\] be \[PERSON-\d+\]$/u);
  const verbatim = SAID[6]!;
  const start = verbatim.indexOf('may');
  await appendReviewDecision(ctx.project, 'bob', {
    item_id: 'demo-01',
    decision: 'reject',
    span: { utterance: 6, segment: 0, layer: 'verbatim', start, end: start + 3 },
    class: 'PERSON',
    text_sha256: sha256Hex(verbatim),
    reviewer: 'rita',
  });
  const out = await exportJsonl(ctx, 'reviewed.jsonl');
  const segments = (JSON.parse((await readFile(out, 'utf8')).split('\n')[0]!) as { segments: Array<{ text: string }> }).segments;
  expect(segments[6]!.text).toMatch(/^it may be \[PERSON-\d+\]$/u);
  await unlink(path.join(ctx.project.dir, 'sessions', 'bob', 'deidentify.jsonl')).catch(() => undefined);
});
add(
  'every file of a de-identified export says so inside; a copy without its receipt is still checked (EAF, TextGrid, MAXQDA, dataset rows)',
  async (ctx) => {
    for (const format of ['eaf', 'textgrid', 'maxqda', 'hf'] as const) {
      const out = path.join(ctx.root, `out-${format}`);
      const run = await cli('export', '--project', ctx.project.dir, '--format', format, '--out', out, '--deidentify');
      expect(run.code, run.err).toBe(0);
      const files = (await readdir(out, { recursive: true })).map(String);
      const file = path.join(
        out,
        files.find((f) => /\.(eaf|textgrid|txt)$/iu.test(f) || f === 'metadata.jsonl')!,
      );
      const loose = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-loose-')), path.basename(file));
      await cp(file, loose);
      if (format === 'hf') await cp(path.join(out, 'README.md'), path.join(path.dirname(loose), 'README.md'));
      expect((await cli('validate', loose, '--project', ctx.project.dir)).out, format).toBe('[]\n');
      await writeFile(loose, (await readFile(loose, 'utf8')).replace('[PERSON-1]', 'S\u0430rah'));
      expect((await cli('validate', loose, '--project', ctx.project.dir)).out, format).toMatch(/holds a PERSON/u);
    }
  },
);
for (const format of ['jsonl', 'json', 'csv', 'qdpx'] as const) {
  add(
    `a de-identified ${format} copied without its receipt says so inside: valid as written, a Cyrillic look-alike put back is caught`,
    async (ctx) => {
      const out = path.join(ctx.root, format === 'qdpx' ? 'receiptless-qdpx' : `receiptless.${format}`);
      const run = await cli('export', '--project', ctx.project.dir, '--format', format, '--out', out, '--deidentify');
      expect(run.code, run.err).toBe(0);
      const file =
        format === 'qdpx'
          ? path.join(
              out,
              (await readdir(out)).find((f) => f.endsWith('.qdpx'))!,
            )
          : out;
      // only the file, in a folder of its own: no receipt beside it or one folder up
      const loose = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-receiptless-')), path.basename(file));
      await cp(file, loose);
      expect((await cli('validate', loose, '--project', ctx.project.dir)).out, format).toBe('[]\n');
      if (format === 'qdpx') {
        // the transcripts (sources/*.txt) and the project's codings: every text member
        const zip = unzipSync(new Uint8Array(await readFile(loose)));
        let putBack = 0;
        for (const [name, content] of Object.entries(zip)) {
          if (name.endsWith('.wav')) continue;
          const text = Buffer.from(content).toString('utf8');
          putBack += text.split('[PERSON-1]').length - 1;
          zip[name] = new Uint8Array(Buffer.from(text.replaceAll('[PERSON-1]', 'S\u0430rah')));
        }
        expect(putBack).toBeGreaterThan(0);
        await writeFile(loose, zipSync(zip));
      } else await writeFile(loose, (await readFile(loose, 'utf8')).replaceAll('[PERSON-1]', 'S\u0430rah'));
      const tampered = await cli('validate', loose, '--project', ctx.project.dir);
      expect(tampered.code, tampered.out).toBe(1);
      expect(tampered.out, format).toMatch(/holds a PERSON/u);
    },
  );
}
add(
  "hf/metadata.jsonl of an export that is not de-identified is read as a dataset's rows, not misread as a records export",
  async (ctx) => {
    const out = path.join(ctx.root, 'plain-hf');
    expect((await cli('export', '--project', ctx.project.dir, '--format', 'hf', '--out', out)).code).toBe(0);
    const run = await cli('validate', path.join(out, 'metadata.jsonl'), '--project', ctx.project.dir);
    expect(run.code, run.out).toBe(0);
    expect(run.err).toMatch(/Hugging Face dataset's rows \(not a records export\)/u);
  },
);
add('a deidentify.yaml of 100,000 terms loads and matches (an automaton, not a regex of alternatives)', () => {
  const letters = 'bcdfghjkpqstxzyr';
  const word = (n: number): string => [...n.toString(16).padStart(5, '0')].map((d) => letters[parseInt(d, 16)]).join('');
  const yaml = `terms:\n${Array.from({ length: 100_000 }, (_, i) => `  - {text: "Na${word(i)}", class: PERSON}\n`).join('')}`;
  const matcher = new SpanMatcher(parseDeidentifyList(yaml));
  expect(matcher.find(`so Na${word(99_999)} said`).map((s) => s.class)).toEqual(['PERSON']);
});

export const deidentificationGroup = hostileGroup<Ctx>({
  surface: 'de-identification',
  area: 'names, look-alikes, pauses and spoken contact data in de-identified exports',
  async setup() {
    const { project, root } = await freshProject();
    await writeFile(path.join(project.dir, 'deidentify.yaml'), LIST);
    await recordSession(project, 'bob', [{ id: 'demo-01', said: SAID }]);
    const jsonl = await exportJsonl({ project, root }, 'records.jsonl');
    const wav = await readFile(path.join(root, 'records.jsonl.audio', 'bob', 'demo-01.wav'));
    return { project, root, jsonl, wav, matcher: new SpanMatcher(parseDeidentifyList(LIST)) };
  },
  cases,
});
