import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { firstUnmaskedSample } from '../../common/deidentify/audioMask';
import type { DeidentificationReceipt } from '../../common/deidentified/deidentifyReceipt';
import { leaksIn } from '../../common/deidentify/leakCheck';
import { SpanMatcher } from '../../common/deidentify/spanMatcher';
import { saysDeidentified } from '../../common/deidentified/deidentifiedMark';
import { PATTERN_NAMES } from '../../common/deidentified/deidentifyTerms';
import { INTEROP_FORMATS, interopReceiptFileName } from '../../common/export/interop/interopFormats';
import { TRANSCRIPT_RECEIPT } from '../../common/export/transcriptFormats';
import { exportedTexts, leakProblems, type ExportedText } from './exportedTexts';
import type { InputProblem } from '../../common/io/inputProblem';
import { resolveInside } from '../fs/resolveInside';
import { sha256Hex } from '../fs/sha256';
import type { OpenProject } from '../project/projectFolder';
import { loadDeidentifyList, wavSamples } from './deidentifyProject';

/** The `deidentification` statement of a receipt file, when it has one (read leniently: the receipt's own check is elsewhere). */
export async function receiptDeidentification(receiptFile: string): Promise<DeidentificationReceipt | null> {
  try {
    const value = JSON.parse(await readFile(receiptFile, 'utf8')) as { deidentification?: DeidentificationReceipt };
    return value.deidentification?.deidentified === true ? value.deidentification : null;
  } catch {
    return null;
  }
}

/**
 * What a de-identified export must hold, checked as its records stream by: no listed term (the project's
 * deidentify.yaml, with --project) and no built-in pattern the receipt names in any text field of any record, and
 * every hidden audio range of every recording silent or tone, as the receipt says, in a WAV whose sha256 is the
 * record's. Problems name the record, the field and the class, never the text found.
 */
export class DeidentifiedExportCheck {
  private readonly problems: InputProblem[] = [];
  private readonly audio: Array<{ annotator: string; item_id: string; sha256: string }> = [];
  private index = 0;
  /** without a receipt: the first record that says it is de-identified and the first that does not */
  private firstMarked: number | null = null;
  private firstUnmarked: number | null = null;
  private listError: string | null = null;

  private constructor(
    private readonly file: string,
    private readonly receiptFile: string,
    /** null: no receipt beside the file; only the records that say they are de-identified are checked, their texts only */
    private readonly statement: DeidentificationReceipt | null,
    private readonly matcher: SpanMatcher,
  ) {}

  static async open(
    file: string,
    receiptFile: string,
    statement: DeidentificationReceipt,
    project: OpenProject | undefined,
  ): Promise<DeidentifiedExportCheck> {
    const loaded = project ? await loadDeidentifyList(project) : null;
    const matcher = new SpanMatcher({
      terms: loaded?.list.terms ?? [],
      patterns: statement.patterns,
      languages: statement.languages as Array<'en' | 'de'>,
    });
    return new DeidentifiedExportCheck(file, receiptFile, statement, matcher);
  }

  /**
   * The check of a records export with no receipt beside it: each record that says inside it was de-identified (v4's
   * `deidentification`, a CSV's `deidentified` column) is checked for the list's terms (with --project) and the
   * list's patterns (without a list, every pattern); its audio cannot be, the hidden ranges are only in the receipt.
   */
  static async openWithoutReceipt(file: string, project: OpenProject | undefined): Promise<DeidentifiedExportCheck> {
    // a list that cannot be read matters only when a record says it was de-identified by it
    let loaded = null;
    let listError: string | null = null;
    try {
      loaded = project ? await loadDeidentifyList(project) : null;
    } catch (e) {
      listError = (e as Error).message.split('\n')[0]!;
    }
    const matcher = loaded?.matcher ?? new SpanMatcher({ terms: [], patterns: [...PATTERN_NAMES], languages: ['en', 'de'] });
    const check = new DeidentifiedExportCheck(file, `${file}.receipt.json`, null, matcher);
    check.listError = listError;
    return check;
  }

  private rule(where: string, field: string | null, message: string): void {
    this.problems.push({ file: where, line: null, field, stage: 'rule', message });
  }

  /** Checks one record; true when it was checked as de-identified (its recording is then not the project's). */
  record(record: Record<string, unknown>): boolean {
    const n = ++this.index;
    if (this.statement === null) {
      if (!recordSaysDeidentified(record)) {
        this.firstUnmarked ??= n;
        return false;
      }
      this.firstMarked ??= n;
    }
    for (const leak of leaksIn(record, this.matcher)) {
      this.rule(
        this.file,
        leak.field,
        `record ${n} (${String(record.annotator)} / ${String(record.item_id)}): ${leak.field} holds a ${leak.class} at offset ${leak.at} that a de-identified export must not hold`,
      );
    }
    const audio = (record.audio ??
      (typeof record.audio_path === 'string' ? { path: record.audio_path, sha256: record.audio_sha256 } : null)) as {
      path: string;
      sha256: string | null;
    } | null;
    if (audio && typeof audio.sha256 === 'string')
      this.audio.push({ annotator: String(record.annotator), item_id: String(record.item_id), sha256: audio.sha256 });
    return true;
  }

  async finish(): Promise<InputProblem[]> {
    if (this.statement === null) {
      // one export is de-identified whole: a record that does not say so beside ones that do was put there by hand
      if (this.firstMarked !== null && this.listError !== null)
        this.rule(
          this.file,
          null,
          `record ${this.firstMarked} says it is de-identified, but the project's list cannot be read to check it: ${this.listError}`,
        );
      if (this.firstMarked !== null && this.firstUnmarked !== null)
        this.rule(
          this.file,
          'deidentification',
          `record ${this.firstUnmarked} does not say it is de-identified while record ${this.firstMarked} does: one export is de-identified whole, so this file was put together by hand`,
        );
      return this.problems;
    }
    const folder = path.dirname(path.resolve(this.file));
    const listed = new Map(this.statement.hidden_audio.map((h) => [`${h.annotator}\u0000${h.item_id}`, h]));
    for (const a of this.audio) {
      const where = `${a.annotator} / ${a.item_id}`;
      const entry = listed.get(`${a.annotator}\u0000${a.item_id}`);
      if (!entry) {
        this.rule(
          this.receiptFile,
          'deidentification.hidden_audio',
          `${where}: its recording is not among the de-identified ones: it may still hold what was hidden`,
        );
        continue;
      }
      let bytes: Buffer;
      try {
        bytes = await readFile(await resolveInside(folder, path.join(...entry.path.split('/')), 'read'));
      } catch (e) {
        this.rule(
          this.receiptFile,
          'deidentification.hidden_audio',
          `${where}: ${entry.path} cannot be read beside the export (${(e as Error).message})`,
        );
        continue;
      }
      if (sha256Hex(bytes) !== a.sha256)
        this.rule(this.file, 'audio', `${where}: ${entry.path} is not the recording the record names (its sha256 differs)`);
      const { pcm } = wavSamples(bytes, entry.path);
      for (const range of entry.ranges) {
        const at = firstUnmaskedSample(pcm, range, this.statement.audio, entry.sample_rate);
        if (at !== null)
          this.rule(
            entry.path,
            'audio',
            `${where}: sample ${at} (${((at * 1000) / entry.sample_rate).toFixed(1)} ms) lies in a hidden span (${range.start}–${range.end}) but is not ${this.statement.audio}`,
          );
      }
    }
    return this.problems;
  }
}

/** Whether a record says inside it was de-identified: v4's `deidentification` object, or a CSV row's `deidentified` cell. */
export function recordSaysDeidentified(record: Record<string, unknown>): boolean {
  const d = record.deidentification;
  return (typeof d === 'object' && d !== null) || record.deidentified === true;
}

/** The receipts a de-identified file may have beside it or one folder up: every interop format's and the transcripts'. */
const RECEIPT_NAMES = [...INTEROP_FORMATS.map((f) => interopReceiptFileName(f)), TRANSCRIPT_RECEIPT];

/** The de-identification statement of the receipt beside the file or one folder up, and that folder. */
async function nearbyStatement(
  file: string,
  names: readonly string[] = RECEIPT_NAMES,
): Promise<{ statement: DeidentificationReceipt; folder: string } | null> {
  const here = path.dirname(path.resolve(file));
  for (const dir of [here, path.dirname(here)]) {
    for (const name of names) {
      const statement = await receiptDeidentification(path.join(dir, name));
      if (statement) return { statement, folder: dir };
    }
  }
  return null;
}

/** Whether the file (or, for a dataset's rows, the dataset card beside it or one folder up) says it is de-identified. */
async function marked(file: string, bytes: Uint8Array): Promise<boolean> {
  if (saysDeidentified(Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1 << 20)).toString('utf8'))) return true;
  const here = path.dirname(path.resolve(file));
  for (const dir of [here, path.dirname(here)]) {
    const card = await readFile(path.join(dir, 'README.md'), 'utf8').catch(() => '');
    if (saysDeidentified(card)) return true;
  }
  return false;
}

/**
 * `aloud validate FILE` of any file a de-identified export writes (EAF, QDPX, TextGrid, MAXQDA and transcript texts,
 * SRT, WebVTT, a dataset's metadata.jsonl and Parquet), with or without its receipt: when the file says inside that
 * it is de-identified, or a receipt beside it (or one folder up) does, no term of the project's list (with --project)
 * and no pattern (the receipt's, else the list's, else every one) is in any of its texts. Null for a file of another
 * kind or one that is not de-identified (the caller checks it as what it is).
 */
export async function deidentifiedCopyProblems(file: string, project: OpenProject | undefined): Promise<InputProblem[] | null> {
  const bytes = await readFile(file);
  let texts: ExportedText[] | null;
  try {
    texts = await exportedTexts(file, bytes);
  } catch (e) {
    return [
      {
        file,
        line: null,
        field: null,
        stage: 'parse',
        message: `cannot be read as the export file its name says (${(e as Error).message.split('\n')[0]})`,
      },
    ];
  }
  if (texts === null) return null;
  const nearby = await nearbyStatement(file);
  // a QDPX is a zip: its marker is in the Project's Description, one of its texts; a dataset's rows each say so
  if (!nearby && !texts.some((t) => t.saysDeidentified === true || saysDeidentified(t.text)) && !(await marked(file, bytes))) return null;
  const loaded = project ? await loadDeidentifyList(project) : null;
  const matcher = new SpanMatcher({
    terms: loaded?.list.terms ?? [],
    patterns: nearby?.statement.patterns ?? loaded?.list.patterns ?? [...PATTERN_NAMES],
    languages: (nearby?.statement.languages as Array<'en' | 'de'> | undefined) ?? loaded?.list.languages ?? ['en', 'de'],
  });
  return leakProblems(texts, matcher);
}

/**
 * `aloud validate FILE.eaf|FILE.qdpx` of a de-identified interop export: its texts as every de-identified file's
 * (deidentifiedCopyProblems), and, for an EAF whose receipt is beside it or one folder up, the hidden ranges of the
 * recording beside it silent or tone.
 */
export async function deidentifiedInteropProblems(
  file: string,
  format: 'eaf' | 'qdpx',
  project: OpenProject | undefined,
): Promise<InputProblem[]> {
  const problems = (await deidentifiedCopyProblems(file, project)) ?? [];
  const nearby = format === 'eaf' ? await nearbyStatement(file, [interopReceiptFileName('eaf')]) : null;
  if (nearby) {
    const { statement, folder: receiptFolder } = nearby;
    const wav = path
      .relative(receiptFolder, path.resolve(file))
      .replace(/\\/gu, '/')
      .replace(/\.eaf$/iu, '.wav');
    const entry = statement.hidden_audio.find((h) => h.path === wav);
    if (!entry)
      problems.push({
        file,
        line: null,
        field: null,
        stage: 'rule',
        message: `${wav} is not among the de-identified recordings of the receipt`,
      });
    else {
      const audio = await readFile(path.join(receiptFolder, ...wav.split('/')));
      const { pcm } = wavSamples(audio, wav);
      for (const range of entry.ranges) {
        const at = firstUnmaskedSample(pcm, range, statement.audio, entry.sample_rate);
        if (at !== null)
          problems.push({
            file: wav,
            line: null,
            field: 'audio',
            stage: 'rule',
            message: `sample ${at} lies in a hidden span (${range.start}–${range.end}) but is not ${statement.audio}`,
          });
      }
    }
  }
  return problems;
}
