import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { firstUnmaskedSample } from '../../common/deidentify/audioMask';
import type { DeidentificationReceipt } from '../../common/deidentify/deidentifyReceipt';
import { leaksIn } from '../../common/deidentify/leakCheck';
import { SpanMatcher } from '../../common/deidentify/spanMatcher';
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

  private constructor(
    private readonly file: string,
    private readonly receiptFile: string,
    private readonly statement: DeidentificationReceipt,
    private readonly matcher: SpanMatcher,
  ) {}

  static async open(file: string, receiptFile: string, statement: DeidentificationReceipt, project: OpenProject | undefined): Promise<DeidentifiedExportCheck> {
    const loaded = project ? await loadDeidentifyList(project) : null;
    const matcher = new SpanMatcher({ terms: loaded?.list.terms ?? [], patterns: statement.patterns, languages: statement.languages as Array<'en' | 'de'> });
    return new DeidentifiedExportCheck(file, receiptFile, statement, matcher);
  }

  private rule(where: string, field: string | null, message: string): void {
    this.problems.push({ file: where, line: null, field, stage: 'rule', message });
  }

  record(record: Record<string, unknown>): void {
    const n = ++this.index;
    for (const leak of leaksIn(record, this.matcher)) {
      this.rule(this.file, leak.field, `record ${n} (${String(record.annotator)} / ${String(record.item_id)}): ${leak.field} holds a ${leak.class} at offset ${leak.at} that a de-identified export must not hold`);
    }
    const audio = (record.audio ?? (typeof record.audio_path === 'string' ? { path: record.audio_path, sha256: record.audio_sha256 } : null)) as { path: string; sha256: string | null } | null;
    if (audio && typeof audio.sha256 === 'string') this.audio.push({ annotator: String(record.annotator), item_id: String(record.item_id), sha256: audio.sha256 });
  }

  async finish(): Promise<InputProblem[]> {
    const folder = path.dirname(path.resolve(this.file));
    const listed = new Map(this.statement.hidden_audio.map((h) => [`${h.annotator}\u0000${h.item_id}`, h]));
    for (const a of this.audio) {
      const where = `${a.annotator} / ${a.item_id}`;
      const entry = listed.get(`${a.annotator}\u0000${a.item_id}`);
      if (!entry) {
        this.rule(this.receiptFile, 'deidentification.hidden_audio', `${where}: its recording is not among the de-identified ones: it may still hold what was hidden`);
        continue;
      }
      let bytes: Buffer;
      try {
        bytes = await readFile(await resolveInside(folder, path.join(...entry.path.split('/')), 'read'));
      } catch (e) {
        this.rule(this.receiptFile, 'deidentification.hidden_audio', `${where}: ${entry.path} cannot be read beside the export (${(e as Error).message})`);
        continue;
      }
      if (sha256Hex(bytes) !== a.sha256) this.rule(this.file, 'audio', `${where}: ${entry.path} is not the recording the record names (its sha256 differs)`);
      const { pcm } = wavSamples(bytes, entry.path);
      for (const range of entry.ranges) {
        const at = firstUnmaskedSample(pcm, range, this.statement.audio, entry.sample_rate);
        if (at !== null) this.rule(entry.path, 'audio', `${where}: sample ${at} (${((at * 1000) / entry.sample_rate).toFixed(1)} ms) lies in a hidden span (${range.start}–${range.end}) but is not ${this.statement.audio}`);
      }
    }
    return this.problems;
  }
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** The text nodes of an XML document, entities decoded: what a tool shows as text (attributes are names and ids). */
export function xmlTextNodes(xml: string): string[] {
  return [...xml.matchAll(/>([^<]+)</gu)]
    .map((m) => m[1]!.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/giu, (whole, e: string) => (e.startsWith('#x') ? String.fromCodePoint(parseInt(e.slice(2), 16)) : e.startsWith('#') ? String.fromCodePoint(Number(e.slice(1))) : (XML_ENTITIES[e] ?? whole))))
    .filter((t) => t.trim() !== '');
}

/**
 * `aloud validate FILE.eaf|FILE.qdpx` of a de-identified interop export (its receipt, beside it or one folder up,
 * says so): no listed term or pattern in the file's texts (the EAF's annotations and properties; the QDPX's
 * project.qde texts and transcripts), and, for an EAF, the hidden ranges of the recording beside it silent or tone.
 */
export async function deidentifiedInteropProblems(file: string, format: 'eaf' | 'qdpx', project: OpenProject | undefined): Promise<InputProblem[]> {
  const { unzipSync } = await import('fflate');
  let receiptFolder = path.dirname(path.resolve(file));
  let statement: DeidentificationReceipt | null = null;
  for (const dir of [receiptFolder, path.dirname(receiptFolder)]) {
    statement = await receiptDeidentification(path.join(dir, `${format}.receipt.json`));
    if (statement) {
      receiptFolder = dir;
      break;
    }
  }
  if (!statement) return [];
  const loaded = project ? await loadDeidentifyList(project) : null;
  const matcher = new SpanMatcher({ terms: loaded?.list.terms ?? [], patterns: statement.patterns, languages: statement.languages as Array<'en' | 'de'> });
  const bytes = await readFile(file);
  const texts: Array<{ where: string; text: string }> = [];
  if (format === 'eaf') for (const text of xmlTextNodes(bytes.toString('utf8'))) texts.push({ where: file, text });
  else {
    for (const [name, content] of Object.entries(unzipSync(new Uint8Array(bytes)))) {
      const text = Buffer.from(content).toString('utf8');
      if (name === 'project.qde') for (const t of xmlTextNodes(text)) texts.push({ where: `${file}!${name}`, text: t });
      else if (name.endsWith('.txt')) texts.push({ where: `${file}!${name}`, text });
    }
  }
  const problems: InputProblem[] = [];
  for (const { where, text } of texts) {
    for (const leak of matcher.find(text)) problems.push({ file: where, line: null, field: null, stage: 'rule', message: `a text holds a ${leak.class} that a de-identified export must not hold` });
  }
  if (format === 'eaf') {
    const wav = path.relative(receiptFolder, path.resolve(file)).replace(/\\/gu, '/').replace(/\.eaf$/iu, '.wav');
    const entry = statement.hidden_audio.find((h) => h.path === wav);
    if (!entry) problems.push({ file, line: null, field: null, stage: 'rule', message: `${wav} is not among the de-identified recordings of the receipt` });
    else {
      const audio = await readFile(path.join(receiptFolder, ...wav.split('/')));
      const { pcm } = wavSamples(audio, wav);
      for (const range of entry.ranges) {
        const at = firstUnmaskedSample(pcm, range, statement.audio, entry.sample_rate);
        if (at !== null) problems.push({ file: wav, line: null, field: 'audio', stage: 'rule', message: `sample ${at} lies in a hidden span (${range.start}–${range.end}) but is not ${statement.audio}` });
      }
    }
  }
  return problems;
}
