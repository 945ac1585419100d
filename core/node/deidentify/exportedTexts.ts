import path from 'node:path';
import { QDPX_LIMITS, unzipBounded } from '../archives/boundedUnzip';
import { recordTexts } from '../../common/deidentify/leakCheck';
import type { SpanMatcher } from '../../common/deidentify/spanMatcher';
import type { InputProblem } from '../../common/io/inputProblem';
import { ProjectError } from '../fs/projectError';
import { foldedKey } from '../../common/text/textFold';
import { say } from '../../common/refusal/refusalMessage';

/** One text an exported file carries, and where (file, member or row and field). */
export interface ExportedText {
  where: string;
  text: string;
  /** a dataset row that says it was de-identified (its deidentification_method cell), so a lone copy is checked */
  saysDeidentified?: boolean;
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** The text nodes of an XML document, entities decoded: what a tool shows as text (attributes are names and ids). */
export function xmlTextNodes(xml: string): string[] {
  return [...xml.matchAll(/>([^<]+)</gu)]
    .map((m) =>
      m[1]!.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/giu, (whole, e: string) =>
        e.startsWith('#x')
          ? String.fromCodePoint(parseInt(e.slice(2), 16))
          : e.startsWith('#')
            ? String.fromCodePoint(Number(e.slice(1)))
            : (XML_ENTITIES[e] ?? whole),
      ),
    )
    .filter((t) => t.trim() !== '');
}

/** Aloud's own note on a QDPX source, "(1234567 ms, sha256 …)": a duration and a hash, never what a person said. */
const QDE_RECORDING_NOTE = /\(\d+ ms, sha256 (?:[0-9a-f]{64}|unknown)\)/gu;

/** The texts of a REFI-QDA project.qde: its XML text nodes, without Aloud's duration-and-hash notes (a long recording's
 * duration in ms is seven digits, which the number pattern would take for an id). */
export function qdeTexts(xml: string): string[] {
  return xmlTextNodes(xml).map((t) => t.replace(QDE_RECORDING_NOTE, '()'));
}

/** The quoted strings of a Praat TextGrid ("" is a quote inside one): the tier names and every interval's text. */
function textGridStrings(text: string): string[] {
  return [...text.matchAll(/"((?:[^"]|"")*)"/gu)].map((m) => m[1]!.replace(/""/gu, '"'));
}

/** The cue texts of an SRT or WebVTT file: its lines without cue numbers, timings and the header. */
function cueLines(text: string): string {
  return text
    .split(/\r?\n/u)
    .filter((line) => !line.includes('-->') && !/^\d+$/u.test(line.trim()) && !line.startsWith('WEBVTT'))
    .join('\n');
}

/** A row of a dataset (metadata.jsonl, Parquet): its record texts, JSON cells (segments, notes, …) read as JSON. */
function rowTexts(row: Record<string, unknown>, where: string): ExportedText[] {
  const parsed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (typeof value === 'string' && /^[[{]/u.test(value)) {
      try {
        parsed[key] = JSON.parse(value);
        continue;
      } catch {
        // a text that starts with a bracket: a text
      }
    }
    parsed[key] = value;
  }
  const texts: ExportedText[] = recordTexts(parsed).map((t) => ({ where: `${where}.${t.field}`, text: t.text }));
  if (typeof row.deidentification_method === 'string' && row.deidentification_method !== '')
    texts.push({ where: `${where}.deidentification_method`, text: '', saysDeidentified: true });
  return texts;
}

/**
 * Every text a file of a de-identified export carries, by its name: EAF and QDPX (XML text nodes, a QDPX's
 * transcripts), TextGrid (quoted strings), SRT/WebVTT (cue lines), MAXQDA and plain transcripts (.txt), Hugging Face
 * rows (metadata.jsonl, Parquet: the record texts of each row). Null for a file of another kind (a WAV, a receipt,
 * a dataset card: its text is the project's and Aloud's, and dates in it are not what a pattern hides).
 */
export async function exportedTexts(file: string, bytes: Uint8Array): Promise<ExportedText[] | null> {
  const name = path.basename(file).toLowerCase();
  const utf8 = (): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (name.endsWith('.eaf')) return xmlTextNodes(utf8()).map((text) => ({ where: file, text }));
  if (name.endsWith('.qdpx')) {
    const out: ExportedText[] = [];
    // read under the same limits as every .qdpx Aloud opens: a bomb stops at its limit with one line, never inflates whole
    const wanted = (member: string): boolean => member === 'project.qde' || member.toLowerCase().endsWith('.txt');
    for (const [member, content] of unzipBounded(bytes, wanted, QDPX_LIMITS).entries) {
      const text = Buffer.from(content).toString('utf8');
      if (member === 'project.qde') for (const t of qdeTexts(text)) out.push({ where: `${file}!${member}`, text: t });
      else if (member.toLowerCase().endsWith('.txt')) out.push({ where: `${file}!${member}`, text });
    }
    return out;
  }
  if (name.endsWith('.textgrid')) return textGridStrings(utf8()).map((text) => ({ where: file, text }));
  if (name.endsWith('.srt') || name.endsWith('.vtt')) return [{ where: file, text: cueLines(utf8()) }];
  if (name.endsWith('.txt')) return [{ where: file, text: utf8() }];
  if (name === 'metadata.jsonl') {
    return utf8()
      .split('\n')
      .flatMap((line, i) => (line.trim() === '' ? [] : rowTexts(JSON.parse(line) as Record<string, unknown>, `${file}:${i + 1}`)));
  }
  if (name.endsWith('.parquet')) {
    const { parquetReadObjects } = await import('hyparquet');
    const copy = bytes.slice().buffer;
    const rows = (await parquetReadObjects({ file: copy })) as Array<Record<string, unknown>>;
    return rows.flatMap((row, i) => rowTexts(row, `${file}[row ${i + 1}]`));
  }
  return null;
}

/** What the texts still hold: one problem per listed term or pattern found, naming where and the class, never the text. */
export function leakProblems(
  texts: readonly ExportedText[],
  matcher: SpanMatcher,
  keptByReview: ReadonlySet<string> = new Set(),
): InputProblem[] {
  // a match a reviewer said is not to be hidden ("May" the month's name as a verb) stays in the text on purpose
  return texts.flatMap(({ where, text }) =>
    matcher
      .find(text)
      .filter((s) => !keptByReview.has(foldedKey(text.slice(s.start, s.end))))
      .map((leak) => ({
        file: where,
        line: null,
        field: null,
        stage: 'rule' as const,
        message: `a text holds a ${leak.class} at offset ${leak.start} that a de-identified export must not hold`,
      })),
  );
}

/**
 * The export's own check, by the same code as `aloud validate`: a de-identified file that still holds what it must not
 * is never written under a receipt that says "de-identified". One line; the texts themselves are never quoted.
 */
export function refuseLeaks(problems: readonly InputProblem[]): void {
  const first = problems[0];
  if (!first) return;
  throw new ProjectError(
    say('refusal.deidentify.suchTextTheExportRefused', {
      file: first.file,
      message: first.message,
      count: problems.length,
    }),
  );
}
