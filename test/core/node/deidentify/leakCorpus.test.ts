/**
 * The leak corpus: hundreds of attempts to get a listed name or spoken contact data out of a "de-identified" export
 * (case and width, NFD, mathematical and small-capital letters, invisibles, combining marks, Cyrillic look-alikes,
 * underscores, dotless i, a capital I for an l, German forms, a name said across a pause, e-mail addresses and phone
 * numbers said as words, in English and German). One project, each format exported once; the oracle is the exact
 * text of each attempt, so the test fails when a rule of the fold or a pattern is taken away. The audio: every
 * stretch where an attempt was said is silence in the masked recording, and every format carries that recording.
 */
import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { wavSamples } from '../../../../core/node/deidentify/deidentifyProject';
import { sha256Hex } from '../../../../core/node/fs/sha256';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { cli } from '../../../helpers/cli';
import { recordSession } from '../export/recordSession';

const LIST = `version: corpus
terms:
  - {text: Sarah Miller, class: PERSON}
  - {text: Jonas Weber, class: PERSON}
  - {text: Müller, class: PERSON}
  - {text: Jürgen Groß, class: PERSON}
  - {text: Zoë Schäfer, class: PERSON}
  - {text: Björn Weiß, class: PERSON}
  - {text: Sarah, class: PERSON}
  - {text: Miller, class: PERSON}
  - {text: Jonas, class: PERSON}
  - {text: Weber, class: PERSON}
  - {text: Leipzig, class: PLACE}
  - {text: Köln, class: PLACE}
`;

const NAMES = ['Sarah Miller', 'Jonas Weber', 'Müller', 'Jürgen Groß', 'Zoë Schäfer', 'Björn Weiß', 'Sarah', 'Miller', 'Leipzig', 'Köln'];
const TWO_WORD = NAMES.filter((n) => n.includes(' '));

const mapLetters = (text: string, upper: number, lower: number): string =>
  [...text]
    .map((c) =>
      /[A-Z]/u.test(c)
        ? String.fromCodePoint(upper + c.charCodeAt(0) - 65)
        : /[a-z]/u.test(c)
          ? String.fromCodePoint(lower + c.charCodeAt(0) - 97)
          : c,
    )
    .join('');
const SMALL_CAPS: Readonly<Record<string, string>> = {
  a: 'ᴀ',
  b: 'ʙ',
  c: 'ᴄ',
  d: 'ᴅ',
  e: 'ᴇ',
  g: 'ɢ',
  h: 'ʜ',
  i: 'ɪ',
  j: 'ᴊ',
  k: 'ᴋ',
  l: 'ʟ',
  m: 'ᴍ',
  n: 'ɴ',
  o: 'ᴏ',
  p: 'ᴘ',
  r: 'ʀ',
  s: 'ꜱ',
  t: 'ᴛ',
  u: 'ᴜ',
  w: 'ᴡ',
  z: 'ᴢ',
};
const CYRILLIC: Readonly<Record<string, string>> = {
  a: '\u0430',
  e: '\u0435',
  o: '\u043e',
  c: '\u0441',
  p: '\u0440',
  x: '\u0445',
  y: '\u0443',
  i: '\u0456',
  S: '\u0405',
  J: '\u0408',
  M: '\u041c',
  K: '\u041a',
  W: '\u051c',
};
const insertAt = (text: string, at: number, what: string): string => text.slice(0, at) + what + text.slice(at);

/** Each way of writing a name that must still be hidden: [form class, the text]. */
function formsOf(name: string): Array<[string, string]> {
  const forms: Array<[string, string]> = [
    ['plain', name],
    ['upper case', name.toUpperCase()],
    ['lower case', name.toLowerCase()],
    ['NFD', name.normalize('NFD')],
    ['full-width', mapLetters(name, 0xff21, 0xff41)],
    ['mathematical bold', mapLetters(name, 0x1d400, 0x1d41a)],
    ['small capitals', name[0] + [...name.slice(1)].map((c) => SMALL_CAPS[c] ?? c).join('')],
    ['zero-width space', insertAt(name, 2, '\u200b')],
    ['soft hyphen', insertAt(name, 2, '\u00ad')],
    ['zero-width joiner', insertAt(name, 2, '\u200d')],
    ['word joiner', insertAt(name, 3, '\u2060')],
    ['Cyrillic look-alikes', [...name].map((c) => CYRILLIC[c] ?? c).join('')],
    ['combining accent', insertAt(name, 2, '\u0301')],
    ['dotless i', name.replace(/i/gu, '\u0131')],
    ['capital I for l', name.replace(/l/gu, 'I')],
    ['ß as ss', name.replace(/ß/gu, 'ss')],
  ];
  if (name.includes(' '))
    forms.push(
      ['underscore', name.replace(' ', '_')],
      ['hyphen', name.replace(' ', '-')],
      ['dot', name.replace(' ', '.')],
      ['two spaces', name.replace(' ', '  ')],
    );
  // a form that writes the name as it is is no new attempt
  return forms.filter(([, text], i) => i === 0 || text !== name);
}

interface Attempt {
  kind: string;
  /** one utterance, or two for what is said across a pause */
  said: string[];
  /** per utterance: the exact texts that must not leave the project */
  secrets: string[][];
}

function corpus(): Attempt[] {
  const attempts: Attempt[] = [];
  const templates: Array<(x: string) => string> = [(x) => `I think ${x} said so`, (x) => `Ich glaube, ${x} hat das gesagt`];
  for (const name of NAMES) {
    for (const [cls, form] of formsOf(name)) {
      // the whole form and each of its words: half a name hidden is a name leaked
      const words = form.split(/[\s_.-]+/u).filter((w) => w.length >= 3);
      for (const t of templates) attempts.push({ kind: `look-alike: ${cls}`, said: [t(form)], secrets: [[form, ...words]] });
    }
  }
  // a full name said across a pause: two utterances, plain and disguised
  for (const name of TWO_WORD) {
    const [first, last] = name.split(' ') as [string, string];
    const pairs: Array<[string, string]> = [
      [first, last],
      [first.toUpperCase(), last.toLowerCase()],
      [mapLetters(first, 0xff21, 0xff41), last.normalize('NFD')],
      [insertAt(first, 2, '\u200b'), [...last].map((c) => CYRILLIC[c] ?? c).join('')],
    ];
    for (const [a, b] of pairs) {
      attempts.push({ kind: 'split across utterances (en)', said: [`Uh, I spoke with ${a}`, `${b} about it`], secrets: [[a], [b]] });
      attempts.push({
        kind: 'split across utterances (de)',
        said: [`Also, ich habe mit ${a}`, `${b} darüber gesprochen`],
        secrets: [[a], [b]],
      });
    }
  }
  // e-mail addresses said as words, English and German; the whole address is hidden, the name before "at" too
  const mails = [
    (a: string, b: string) => `${a} dot ${b} at example dot com`,
    (a: string, b: string) => `${a} underscore ${b} at uni dash leipzig dot de`,
    (a: string, b: string) => `${a} dash ${b} at example dot org`,
    (a: string, b: string) => `${a} punkt ${b} ät beispiel punkt de`,
    (a: string, b: string) => `${a} Punkt ${b} Klammeraffe firma punkt de`,
    (a: string, b: string) => `${a} unterstrich ${b} ät beispiel punkt de`,
    (a: string, b: string) => `${a} bindestrich ${b} at beispiel punkt com`,
  ];
  for (const [a, b] of [
    ['jonas', 'weber'],
    ['sarah', 'miller'],
    ['anna', 'kowalski'],
    ['lea', 'brandt'],
  ] as const) {
    for (const mail of mails) {
      const address = mail(a, b);
      attempts.push({ kind: 'spoken e-mail', said: [`write to ${address} please`], secrets: [[address, `${a} `]] });
    }
  }
  // phone numbers said digit by digit
  const phones = [
    'five five five one two three four',
    'five five five, one two three four',
    'plus four nine, three zero, one two three four five six seven',
    'zero one seven six, double five, one two three four',
    'oh two oh, seven nine four six, zero zero one eight',
    'null drei null, eins zwei drei vier fünf sechs',
    'null eins sieben zwo, acht acht neun, vier vier eins',
    'plus vier neun, null, drei null, fünf fünf fünf sechs',
    'eins eins zwei drei, vier fünf sechs sieben',
    'nine eight seven six five four three two one',
  ];
  for (const phone of phones) {
    attempts.push({ kind: 'spoken phone number (en/de)', said: [`my number is ${phone} thanks`], secrets: [[phone]] });
    attempts.push({ kind: 'spoken phone number (en/de)', said: [`meine Nummer ist ${phone}, danke`], secrets: [[phone]] });
  }
  // written contact data in compatibility forms and with invisibles
  for (const [said, secret] of [
    ['call \uff15\uff15\uff15 \uff11\uff12\uff13\uff14 now', '\uff15\uff15\uff15 \uff11\uff12\uff13\uff14'],
    ['ruf \uff10\uff13\uff10 \uff11\uff12\uff13\uff14\uff15\uff16\uff17 an', '\uff11\uff12\uff13\uff14\uff15\uff16\uff17'],
    ['mail anna@exa\u200bmple.com today', 'anna@exa\u200bmple.com'],
    ['mail jonas.mu\u0308ller@beispiel.de bitte', 'jonas.mu\u0308ller@beispiel.de'],
  ] as const)
    attempts.push({ kind: 'written contact data, look-alike', said: [said], secrets: [[secret]] });
  return attempts;
}

const ATTEMPTS = corpus();
const SAMPLE_RATE = 16_000;
const FORMATS = ['jsonl', 'json', 'csv', 'eaf', 'textgrid', 'qdpx', 'maxqda', 'hf', 'txt', 'srt', 'vtt'] as const;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

const decodeXml = (xml: string): string =>
  xml
    .replace(/&#x([0-9a-f]+);/giu, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/gu, (_, d: string) => String.fromCodePoint(Number(d)));

/** Every text an export wrote (Parquet rows as JSON, QDPX members), and every WAV's sha256 and samples. */
async function exportContents(files: readonly string[]): Promise<{ texts: Array<[string, string]>; wavs: Array<[string, Buffer]> }> {
  const texts: Array<[string, string]> = [];
  const wavs: Array<[string, Buffer]> = [];
  for (const file of files) {
    const bytes = await readFile(file);
    if (file.endsWith('.wav')) wavs.push([file, bytes]);
    else if (file.endsWith('.qdpx')) {
      for (const [name, content] of Object.entries(unzipSync(new Uint8Array(bytes)))) {
        if (name.endsWith('.wav')) wavs.push([`${file}!${name}`, Buffer.from(content)]);
        else texts.push([`${file}!${name}`, decodeXml(Buffer.from(content).toString('utf8'))]);
      }
    } else if (file.endsWith('.parquet')) {
      const { parquetReadObjects } = await import('hyparquet');
      const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
      texts.push([file, JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))]);
    } else texts.push([file, decodeXml(bytes.toString('utf8'))]);
  }
  return { texts, wavs };
}

describe('the leak corpus: nothing a list names leaves a de-identified export, in any format or in the audio', () => {
  let root: string;
  let dir: string;
  /** per attempt: where each utterance was said (item and utterance index) */
  const placed: Array<Array<{ item: string; utterance: number }>> = [];

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'aloud-leak-corpus-'));
    dir = path.join(root, 'proj');
    await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
    await writeFile(path.join(dir, 'deidentify.yaml'), LIST);
    const project = await loadProjectConfig(dir);
    const items = await loadProjectItems(project);
    // the attempts spread over the demo items, an attempt's utterances kept together in one item
    const said = new Map(items.map((i) => [i.id, [] as string[]]));
    const perItem = Math.ceil(ATTEMPTS.reduce((n, a) => n + a.said.length, 0) / items.length) + 2;
    let k = 0;
    for (const attempt of ATTEMPTS) {
      if (said.get(items[k]!.id)!.length + attempt.said.length > perItem) k++;
      const list = said.get(items[k]!.id)!;
      placed.push(attempt.said.map((text) => ({ item: items[k]!.id, utterance: list.push(text) - 1 })));
    }
    await recordSession(
      project,
      'bob',
      items.map((i) => ({ id: i.id, said: said.get(i.id)!, click: project.config.schema.labels[0]!.name, complete: true })),
    );
  }, 240_000);

  it(`has at least 300 attempts (${ATTEMPTS.length}) of every class`, () => {
    expect(ATTEMPTS.length).toBeGreaterThanOrEqual(300);
    const kinds = new Set(ATTEMPTS.map((a) => a.kind));
    for (const k of [
      'look-alike: NFD',
      'look-alike: full-width',
      'look-alike: mathematical bold',
      'look-alike: small capitals',
      'look-alike: zero-width space',
      'look-alike: soft hyphen',
      'look-alike: zero-width joiner',
      'look-alike: Cyrillic look-alikes',
      'look-alike: combining accent',
      'look-alike: underscore',
      'look-alike: dotless i',
      'look-alike: ß as ss',
      'split across utterances (de)',
      'spoken e-mail',
      'spoken phone number (en/de)',
    ])
      expect(kinds, k).toContain(k);
  });

  it('0 leaks in every format and in the audio', async () => {
    const leaks: string[] = [];
    let maskedWavs: Map<string, Buffer> | null = null;
    for (const format of FORMATS) {
      const records = ['jsonl', 'json', 'csv'].includes(format);
      const out = path.join(root, records ? `out.${format}` : `out-${format}`);
      const run = await cli('export', '--project', dir, '--format', format, '--out', out, '--deidentify');
      expect(run.code, `${format}: ${run.err}`).toBe(0);
      const files = records ? [out, ...(await filesUnder(`${out}.audio`).catch(() => []))] : await filesUnder(out);
      const { texts, wavs } = await exportContents(files);
      for (const [file, text] of texts) {
        ATTEMPTS.forEach((a, i) => {
          for (const secret of a.secrets.flat())
            if (text.includes(secret))
              leaks.push(`${format} ${path.relative(root, file)}: attempt ${i} (${a.kind}) ${JSON.stringify(secret)}`);
        });
      }
      if (format === 'jsonl') {
        // the attempts reached the export, each as placeholders
        expect((texts[0]![1].match(/\[(?:PERSON|PLACE|EMAIL|PHONE)-\d+\]/gu) ?? []).length).toBeGreaterThanOrEqual(ATTEMPTS.length);
        maskedWavs = new Map(wavs.map(([file, bytes]) => [path.basename(file, '.wav'), bytes]));
        expect(maskedWavs.size).toBe(20);
        // where each attempt was said: its share of the utterance's segment (100–900 ms of each second), silent
        ATTEMPTS.forEach((a, i) => {
          a.said.forEach((text, u) => {
            const { item, utterance } = placed[i]![u]!;
            const wav = wavSamples(maskedWavs!.get(item)!, item).pcm;
            for (const secret of a.secrets[u]!) {
              const at = text.indexOf(secret);
              if (at < 0) continue;
              const ms = utterance * 1000 + 100 + (800 * (at + secret.length / 2)) / text.length;
              const centre = Math.round((ms * SAMPLE_RATE) / 1000);
              for (let s = centre - 40; s <= centre + 40; s++)
                if (wav[s] !== 0) {
                  leaks.push(`audio ${item} utterance ${utterance}: attempt ${i} (${a.kind}) is audible at sample ${s}`);
                  break;
                }
            }
          });
        });
      } else {
        // every recording any other format carries is one of the masked ones
        const masked = new Set([...maskedWavs!.values()].map((b) => sha256Hex(b)));
        for (const [file, bytes] of wavs)
          if (!masked.has(sha256Hex(bytes))) leaks.push(`${format} ${path.relative(root, file)}: not a masked recording`);
      }
    }
    expect(leaks.slice(0, 20)).toEqual([]);
    // validate agrees: the records export holds nothing the list or a pattern hides
    expect((await cli('validate', path.join(root, 'out.jsonl'), '--project', dir)).out).toBe('[]\n');
    // and so it does of copies without their receipt, checked by what the files say inside
    for (const format of ['jsonl', 'json', 'csv'] as const) {
      const loose = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-leak-copy-')), `out.${format}`);
      await cp(path.join(root, `out.${format}`), loose);
      expect((await cli('validate', loose, '--project', dir)).out, format).toBe('[]\n');
    }
    const qdpx = (await readdir(path.join(root, 'out-qdpx'))).find((f) => f.endsWith('.qdpx'))!;
    const looseQdpx = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-leak-copy-')), qdpx);
    await cp(path.join(root, 'out-qdpx', qdpx), looseQdpx);
    expect((await cli('validate', looseQdpx, '--project', dir)).out, 'qdpx').toBe('[]\n');
  }, 300_000);
});
