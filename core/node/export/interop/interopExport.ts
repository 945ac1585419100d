import { spansWithinTakes } from '../../../common/signals/takeSignals';
import { describeDeidentification } from '../../../common/deidentified/deidentifyReceipt';
import { createHash } from 'node:crypto';
import { readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { EXPORT_SCHEMA_VERSION, exportGaps, type ExportRecord } from '../../../common/export/exportRecord';
import { serializeExport } from '../../../common/export/exportFormats';
import { validateExportText } from '../../../common/export/exportValidation';
import { eafDocument } from '../../../common/export/interop/eafDocument';
import { datasetCard, hfColumns, hfRow, type HfColumn } from '../../../common/export/interop/hfDataset';
import { formatGoldFile, goldRecords } from '../../../common/adjudication/goldRecord';
import { readAdjudication } from '../../adjudication/projectAdjudication';
import {
  interopReceiptFileName,
  type InteropFileEntry,
  type InteropFormat,
  type InteropReceipt,
} from '../../../common/export/interop/interopFormats';
import { buildItemTimeline } from '../../../common/export/interop/itemTimeline';
import { maxqdaTranscript } from '../../../common/export/interop/maxqdaTranscript';
import { qdpxProject } from '../../../common/export/interop/qdpxProject';
import { textGridDocument } from '../../../common/export/interop/textGridDocument';
import { xmlForbiddenCharacter } from '../../../common/io/xmlText';
import { InputError, type InputProblem } from '../../../common/io/inputProblem';
import type { Item } from '../../../common/items/item';
import type { ItemSessionState } from '../../../common/session/itemState';
import { energyPauseSpans } from '../../../common/signals/audioSignals';
import { pausesBetween, vadSpeechRuns } from '../../../common/signals/vadSignals';
import { decodeWav } from '../../audio/wavFile';
import { writeFileAtomic } from '../../fs/atomicFile';
import { ExportStaging, mapConcurrently } from '../../exportFiles/exportStaging';
import { resolveInside } from '../../fs/resolveInside';
import { stableGuid } from '../../exportFiles/stableGuid';
import { sha256Hex } from '../../fs/sha256';
import { ProjectError } from '../../fs/projectError';
import { itemsPath, type OpenProject } from '../../project/projectFolder';
import { encodeFileName, SessionNameError } from '../../session/sessionPaths';
import type { WholeRecordingVad } from '../../../common/signals/speechProbe';
import { openVoiceActivity } from '../../engine/sessionEngine';
import { appVersion } from '../../exportFiles/appVersion';
import { buildExportRecords, exportInputs, projectFacts, type ExportProgress } from '../exportSessions';
import { checkExportTarget } from '../../exportFiles/exportTarget';
import type { SessionSource } from '../../session/sessionSource';
import { xsdProblems } from '../../exportFiles/xsdValidation';
import { loadCodebook } from '../../coding/projectCoding';
import { deidentifiedInterop, type WavMasks } from '../../deidentify/deidentifiedInterop';
import { exportedTexts, leakProblems, qdeTexts, refuseLeaks } from '../../deidentify/exportedTexts';
import { DEIDENTIFIED_PROPERTY, DEIDENTIFIED_SENTENCE } from '../../../common/deidentified/deidentifiedMark';
import type { SpanMatcher } from '../../../common/deidentify/spanMatcher';

export interface InteropExportOptions {
  project: OpenProject;
  /** only this annotator; default every annotator with a session */
  annotator?: string;
  format: InteropFormat;
  /** the export folder (created when missing; its parent must exist) */
  outDir: string;
  sessions: SessionSource;
  /** replace files in the folder that no earlier export of this format wrote */
  force?: boolean;
  now?: () => Date;
  /** records built, then recordings written: done of total */
  onProgress?: (progress: ExportProgress) => void;
  /** the voice-activity model, to place the VAD pauses the records count; without it those tiers stay empty (a warning says so) */
  vad?: WholeRecordingVad | null;
  /** hide what deidentify.yaml lists: placeholders in every text, the recordings' hidden spans silenced (or toned) */
  deidentify?: boolean;
  /** recordings whose files are made, checked and staged together (memory grows with it); default 200 */
  recordingsPerBatch?: number;
}

export interface InteropExportResult {
  out: string;
  receipt_file: string;
  receipt: InteropReceipt;
  /** "12 recordings of 2 annotators in 25 files; 8 records without audio" */
  summary: string;
  warnings: string[];
}

/** A file of the export: text, bytes, or a session WAV copied as it is (its sha256 checked against the record's). */
type PlannedFile = { path: string } & (
  | { text: string }
  | { bytes: Uint8Array }
  | { wav: string; sha256: string }
  | { qdpx: { xml: string; files: Array<{ path: string; content: { text: string } | { wav: string; sha256: string } }> } }
);

const stateKey = (annotator: string, itemId: string): string => `${annotator}\u0000${itemId}`;

/** Recordings whose files are made, checked and staged together: memory holds one batch of documents, not the export. */
const RECORDINGS_PER_BATCH = 200;
/** Files written (and fsynced) into the staging folder at once. */
const FILES_AT_ONCE = 8;

/** What an export writes, in order, and its files made batch by batch (a whole-project document is one batch). */
interface ExportPlan {
  paths: string[];
  batches: () => AsyncGenerator<PlannedFile[]>;
}

/**
 * `aloud export --format eaf|textgrid|qdpx|hf|maxqda --out DIR`: from the same records as every export (the v2
 * records of the sessions' fold, validated the same way), files for ELAN, Praat, QDA tools, Hugging Face or
 * MAXQDA/NVivo. The records and file names are checked first; then the documents are made a batch at a time, each
 * batch checked (characters XML cannot hold, the formats' XSDs, leaks of a de-identified export) and written into a
 * hidden staging folder; only when every file is made and checked are they renamed into DIR, with
 * `<format>.receipt.json` (sha256 of every file) last. A refusal at any point leaves DIR as it was.
 */
export async function exportInterop(options: InteropExportOptions): Promise<InteropExportResult> {
  const { project, format, outDir } = options;
  const now = options.now ?? (() => new Date());
  await checkExportTarget(project, outDir, 'folder', { force: options.force ?? false });
  const { items, sessions, coders } = await exportInputs(project, outDir, options.sessions, options.annotator);
  const exportedAt = now().toISOString();

  // progress counted in records, as every export says it ("12 of 20 records"): building them, then the documents,
  // then moving the files into place, each a third of the way
  const n = sessions.length * items.length;
  const progress = (phase: 0 | 1 | 2, done: number, of: number): void =>
    options.onProgress?.({ done: Math.floor((phase * n + (done * n) / Math.max(1, of)) / 3), total: n });
  const built = await buildExportRecords(project, items, sessions, exportedAt, (p) => progress(0, p.done, p.total), coders);
  const deidentified = options.deidentify ? await deidentifiedInterop(project, built.records) : null;
  const { records, masks } = deidentified ?? { records: built.records, masks: null };
  const recordWarnings = built.warnings;
  const checked = validateExportText(serializeExport(records, 'jsonl'), `${format} export`, 'jsonl', projectFacts(project, items));
  if (checked.problems.length > 0) throw new InputError(checked.problems);

  const recorded = records.filter((r) => r.audio !== null && r.audio.sha256 !== null);
  if (recorded.length === 0) {
    throw new ProjectError(
      `${project.dir}: no recordings to export (${records.length} records, none with its WAV in the project); ${format} files are made of the audio and its transcript; labels without audio export as jsonl, json or csv`,
    );
  }
  const names = fileNamesOf(project, items, recorded, format);
  if (format === 'eaf' || format === 'qdpx') {
    const problems = xmlCharacterProblems(project, items, recorded, format);
    if (problems.length > 0) throw new InputError(problems);
  }

  const states = new Map<string, ItemSessionState>();
  for (const s of sessions) for (const state of s.items) states.set(stateKey(s.annotator, state.item_id), state);
  const warnings: string[] = [...sessions.flatMap((s) => s.warnings), ...recordWarnings];
  const version = await appVersion();
  const labels = project.config.schema.labels.map((l) => l.name);
  const pauseMisses = { vadMissing: 0 };
  const perBatch = Math.max(1, options.recordingsPerBatch ?? RECORDINGS_PER_BATCH);

  /** The files of one recording: its WAV copy and the document made from its record and audio. */
  const recordingFiles = async (r: ExportRecord): Promise<PlannedFile[]> => {
    const name = names.get(stateKey(r.annotator, r.item_id))!;
    const wav: PlannedFile = { path: `${name}.wav`, wav: r.audio!.path, sha256: r.audio!.sha256! };
    if (format === 'maxqda') return [wav, { path: `${name}.txt`, text: maxqdaTranscript(r.segments, r.annotator) }];
    const state = states.get(stateKey(r.annotator, r.item_id)) ?? null;
    const pauses = await pauseSpansOf(
      project,
      r,
      (state?.recordings ?? []).map((rec) => rec.offset_ms),
      options.vad ?? null,
      warnings,
      pauseMisses,
    );
    const timeline = buildItemTimeline({
      record: r,
      labels,
      recordings: state?.recordings ?? [],
      reasoningShownAudioMs: state?.reasoning?.audio_ms ?? null,
      energyPauses: pauses.energy,
      vadPauses: pauses.vad,
      longPauseMs: project.config.thinkaloud.long_pause_ms,
      fillers: project.config.thinkaloud.fillers,
      hesitation: project.config.thinkaloud,
    });
    if (format === 'textgrid') return [wav, { path: `${name}.TextGrid`, text: textGridDocument(timeline) }];
    const xml = eafDocument(timeline, {
      author: r.annotator,
      date: exportedAt,
      mediaUrl: pathToFileURL(path.resolve(outDir, ...wav.path.split('/'))).href,
      relativeMediaUrl: `./${path.posix.basename(wav.path)}`,
      properties: [
        ['aloud:project', project.config.name],
        ['aloud:item_id', r.item_id],
        ['aloud:final_label', r.final_label ?? ''],
        ['aloud:blind_label', r.blind_label ?? ''],
        ['aloud:app_version', version],
        ...(deidentified ? [[DEIDENTIFIED_PROPERTY, DEIDENTIFIED_SENTENCE] as [string, string]] : []),
      ],
    });
    return [wav, { path: `${name}.eaf`, text: xml }];
  };

  let plan: ExportPlan;
  if (format === 'eaf' || format === 'textgrid' || format === 'maxqda') {
    const extension = format === 'eaf' ? 'eaf' : format === 'textgrid' ? 'TextGrid' : 'txt';
    plan = {
      paths: recorded.flatMap((r) => {
        const name = names.get(stateKey(r.annotator, r.item_id))!;
        return [`${name}.wav`, `${name}.${extension}`];
      }),
      batches: async function* () {
        for (let start = 0; start < recorded.length; start += perBatch) {
          const batch: PlannedFile[] = [];
          for (const [i, r] of recorded.slice(start, start + perBatch).entries()) {
            progress(1, start + i, recorded.length);
            batch.push(...(await recordingFiles(r)));
          }
          yield batch;
        }
      },
    };
  } else if (format === 'hf') {
    // the gold split: one gold record per item of the whole project; not in a one-annotator or de-identified dataset
    // (the lead's typed rationales and flags are free text no de-identification pass has read)
    let gold: string | null = null;
    if (options.annotator !== undefined || options.deidentify)
      warnings.push('the dataset has no gold split (gold/gold.jsonl): it is made for the whole project and without --deidentify only');
    else gold = formatGoldFile(goldRecords(project.config.name, (await readAdjudication(project, options.sessions)).queue), 'jsonl');
    plan = wholePlan(hfDataset(project, items, records, recorded, names, version, exportedAt, gold));
  } else {
    const loaded = await loadCodebook(project);
    if ('problem' in loaded && !loaded.missing) warnings.push(`the codebook is not in the .qdpx: ${loaded.problem}`);
    const qdpx = qdpxProject({
      project: project.config.name,
      labels: project.config.schema.labels,
      items,
      records,
      codebook: 'codebook' in loaded ? { codes: loaded.codebook.codes, version: loaded.version } : null,
      guidOf: (key) => stableGuid(project.config.name, key),
      appVersion: version,
      createdAt: exportedAt,
      deidentified: deidentified !== null,
    });
    const byPath = new Map(recorded.map((r) => [r.audio!.path, r.audio!.sha256!]));
    plan = wholePlan([
      {
        path: `${names.get('')!}.qdpx`,
        qdpx: {
          xml: qdpx.xml,
          files: qdpx.files.map((f) => ({
            path: f.path,
            content: 'wav' in f.content ? { wav: f.content.wav, sha256: byPath.get(f.content.wav)! } : f.content,
          })),
        },
      },
    ]);
  }

  const receiptFile = path.join(outDir, interopReceiptFileName(format));
  const earlier = await earlierFiles(receiptFile);
  await refuseForeignFiles(outDir, plan.paths, earlier, options.force ?? false);

  const staging = await ExportStaging.open(outDir);
  const written: InteropFileEntry[] = [];
  const wavCopies: Array<{ path: string; wav: string }> = [];
  try {
    for await (const batch of plan.batches()) {
      // the checks before a file leaves: only characters XML allows, the format's XSD, nothing a de-identified export hides
      await refuseInvalidXml(format, batch);
      if (deidentified) {
        markDeidentified(batch);
        refuseLeaks(await plannedLeaks(batch, deidentified.matcher, deidentified.keptByReview));
      }
      written.push(...(await mapConcurrently(batch, FILES_AT_ONCE, (file) => stagePlanned(project, staging, file, masks))));
      for (const file of batch) if ('wav' in file) wavCopies.push({ path: file.path, wav: file.wav });
    }
    if (pauseMisses.vadMissing > 0) {
      warnings.push(
        `${pauseMisses.vadMissing} recording(s) have VAD pauses but no voice-activity model is installed here, so their "pauses (VAD)" tiers are empty (the counts are in the records)`,
      );
    }

    // every file made and checked: the earlier receipt goes first (it must never vouch for new files), then the files
    // move into place, the receipt last
    progress(2, 0, 1);
    await unlink(receiptFile).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
    await staging.commit(written.map((w) => w.path));
  } catch (e) {
    await staging.discard();
    throw e;
  }
  const writtenPaths = new Set(written.map((w) => w.path));
  for (const old of earlier.values()) {
    if (writtenPaths.has(old.path)) continue;
    // a file of the earlier export that this one does not write: removed only while it is still what that export wrote
    const target = path.join(outDir, ...old.path.split('/'));
    const bytes = await readFile(target).catch(() => null);
    if (bytes && sha256Hex(bytes) === old.sha256) await unlink(target);
  }

  const receipt: InteropReceipt = {
    receipt_version: 1,
    kind: 'interop',
    format,
    schema_version: EXPORT_SCHEMA_VERSION,
    project: project.config.name,
    records: records.length,
    recordings: recorded.length,
    annotators: sessions.map((s) => s.annotator),
    files: written,
    gaps: records.flatMap(exportGaps),
    warnings,
    app_version: version,
    created_at: now().toISOString(),
    ...(deidentified ? { deidentification: deidentified.receipt(wavCopies) } : {}),
  };
  await writeFileAtomic(receiptFile, `${JSON.stringify(receipt, null, 2)}\n`);
  options.onProgress?.({ done: n, total: n });
  const withoutAudio = records.length - recorded.length;
  const summary = `${recorded.length} recording${recorded.length === 1 ? '' : 's'} of ${receipt.annotators.length} annotator${receipt.annotators.length === 1 ? '' : 's'} in ${written.length} file${written.length === 1 ? '' : 's'}${withoutAudio > 0 ? `; ${withoutAudio} record${withoutAudio === 1 ? '' : 's'} without audio not in them` : ''}${receipt.deidentification ? `; ${describeDeidentification(receipt.deidentification)}` : ''}`;
  return { out: outDir, receipt_file: receiptFile, receipt, summary, warnings };
}

/** A plan of files all made at once (a dataset's rows and card, a .qdpx's one project document). */
function wholePlan(planned: PlannedFile[]): ExportPlan {
  return {
    paths: planned.map((f) => f.path),
    batches: async function* () {
      yield planned;
    },
  };
}

/** The XML documents of a batch (an .eaf, a .qdpx's project.qde) refused unless XML can carry every character and the format's XSD passes. */
async function refuseInvalidXml(format: InteropFormat, batch: readonly PlannedFile[]): Promise<void> {
  const documents =
    format === 'eaf'
      ? batch.flatMap((f) => ('text' in f && f.path.endsWith('.eaf') ? [{ file: f.path, xml: f.text }] : []))
      : format === 'qdpx'
        ? batch.flatMap((f) => ('qdpx' in f ? [{ file: `${f.path}/project.qde`, xml: f.qdpx.xml }] : []))
        : [];
  if (documents.length === 0) return;
  const problems: InputProblem[] = documents.flatMap((d) => {
    const bad = xmlForbiddenCharacter(d.xml);
    return bad === null
      ? []
      : [{ file: d.file, line: null, field: null, stage: 'rule' as const, message: `holds ${bad}, which XML 1.0 cannot carry` }];
  });
  if (problems.length === 0) problems.push(...(await xsdProblems(format === 'eaf' ? 'eaf' : 'qde', documents)));
  if (problems.length > 0) throw new InputError(problems);
}

/** `exportInterop` with the installed voice-activity model, freed after (only ELAN and Praat files have a tier for VAD pauses). */
export async function exportInteropWithInstalledVad(options: Omit<InteropExportOptions, 'vad'>): Promise<InteropExportResult> {
  const voice = options.format === 'eaf' || options.format === 'textgrid' ? openVoiceActivity() : null;
  try {
    return await exportInterop({ ...options, vad: voice?.probe ?? null });
  } finally {
    voice?.probe?.free();
  }
}

/**
 * The file name stem of each recording (`<annotator>/<item>`, encoded as the session store encodes names) and, under
 * the key '', the .qdpx's (the project name). Every item id of the project must make a file name (the export is all
 * or nothing): a name that cannot is refused with the item named.
 */
function fileNamesOf(
  project: OpenProject,
  items: readonly Item[],
  recorded: readonly ExportRecord[],
  format: InteropFormat,
): Map<string, string> {
  const names = new Map<string, string>();
  const items_file = path.relative(project.dir, itemsPath(project)) || itemsPath(project);
  const encode = (name: string, what: string, where: string): string => {
    try {
      return encodeFileName(name, what);
    } catch (e) {
      if (e instanceof SessionNameError)
        throw new ProjectError(`${where}: ${e.message}; ${format} files are named by it, so nothing was written (rename it)`);
      throw e;
    }
  };
  if (format === 'qdpx') {
    let stem: string;
    try {
      stem = encodeFileName(project.config.name, 'project name');
    } catch {
      stem = 'project';
    }
    names.set('', stem);
    return names;
  }
  for (const item of items)
    encode(item.id, 'item id', `${items_file}: item ${JSON.stringify(item.id.length > 60 ? `${item.id.slice(0, 60)}…` : item.id)}`);
  for (const r of recorded)
    names.set(
      stateKey(r.annotator, r.item_id),
      `${encode(r.annotator, 'annotator name', `annotator ${JSON.stringify(r.annotator)}`)}/${encodeFileName(r.item_id, 'item id')}`,
    );
  return names;
}

/** Every text an XML export would carry that XML 1.0 cannot: located by annotator, item and field, never dropped or replaced. */
function xmlCharacterProblems(
  project: OpenProject,
  items: readonly Item[],
  recorded: readonly ExportRecord[],
  format: InteropFormat,
): InputProblem[] {
  const problems: InputProblem[] = [];
  const config = path.join(project.dir, 'aloud.yaml');
  const say = (file: string, field: string, text: string): void => {
    const bad = xmlForbiddenCharacter(text);
    if (bad !== null)
      problems.push({
        file,
        line: null,
        field,
        stage: 'rule',
        message: `holds ${bad}, a character XML 1.0 cannot carry, so no .${format} can hold it; remove it (Aloud neither drops nor replaces it)`,
      });
  };
  say(config, 'name', project.config.name);
  project.config.schema.labels.forEach((l, i) => say(config, `schema.labels[${i}].name`, l.name));
  if (format === 'qdpx') {
    const file = itemsPath(project);
    for (const item of items) {
      say(file, `${item.id}.id`, item.id);
      if (item.context !== undefined) say(file, `${item.id}.context`, item.context);
    }
  }
  for (const r of recorded) {
    const walk = (value: unknown, field: string): void => {
      if (typeof value === 'string') say(`${r.annotator} / ${r.item_id}`, field, value);
      else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${field}[${i}]`));
      else if (value !== null && typeof value === 'object')
        for (const [k, v] of Object.entries(value)) walk(v, field === '' ? k : `${field}.${k}`);
    };
    walk(r, '');
  }
  return problems;
}

/** The energy and VAD pauses a record counts, as spans, when the audio gives exactly what the record says (else null and a warning). */
/** The pauses of the record's audio within each take (as its signals were computed), or null with a warning when they disagree with the record. */
async function pauseSpansOf(
  project: OpenProject,
  r: ExportRecord,
  takeStartsMs: readonly number[],
  vad: WholeRecordingVad | null,
  warnings: string[],
  misses: { vadMissing: number },
): Promise<{ energy: Array<{ t0_ms: number; t1_ms: number }> | null; vad: Array<{ t0_ms: number; t1_ms: number }> | null }> {
  const t = project.config.thinkaloud;
  const wav = decodeWav(await readFile(await resolveInside(project.dir, path.join(...r.audio!.path.split('/')), 'read')), r.audio!.path);
  const where = `${r.annotator} / ${r.item_id}`;
  const same = (spans: ReadonlyArray<{ t0_ms: number; t1_ms: number }>, stats: { count: number; total_ms: number }): boolean =>
    spans.length === stats.count && Math.abs(spans.reduce((sum, p) => sum + (p.t1_ms - p.t0_ms), 0) - stats.total_ms) < 1e-6;
  let energy: Array<{ t0_ms: number; t1_ms: number }> | null = null;
  const recordedPauses = r.signals?.pauses ?? null;
  if (recordedPauses) {
    const options = {
      chunk_seconds: t.chunk_seconds,
      silence_threshold_dbfs: t.silence_threshold_dbfs,
      min_pause_ms: t.min_pause_ms,
      long_pause_ms: t.long_pause_ms,
    };
    const spans = spansWithinTakes(
      wav.samples,
      wav.sampleRate,
      takeStartsMs,
      (take) => energyPauseSpans(take, wav.sampleRate, options),
      shiftSpan,
    );
    if (same(spans, recordedPauses)) energy = spans;
    else
      warnings.push(
        `${where}: the audio gives ${spans.length} energy pauses under today's aloud.yaml, the record ${recordedPauses.count}; the "pauses (energy)" tier is left empty rather than disagree with the record`,
      );
  }
  let voice: Array<{ t0_ms: number; t1_ms: number }> | null = null;
  const recordedVad = r.signals?.vad_pauses ?? null;
  if (recordedVad && !vad) misses.vadMissing++;
  if (recordedVad && vad) {
    const windowMs = (vad.windowSamples * 1000) / wav.sampleRate;
    const spans = spansWithinTakes(
      wav.samples,
      wav.sampleRate,
      takeStartsMs,
      (take) => pausesBetween(vadSpeechRuns(vad.probabilitiesOf(take), vad.windowSamples, wav.sampleRate, {}), windowMs, t.min_pause_ms),
      shiftSpan,
    );
    if (same(spans, recordedVad)) voice = spans;
    else
      warnings.push(
        `${where}: the voice-activity model gives ${spans.length} pauses, the record ${recordedVad.count} (another VAD model?); the "pauses (VAD)" tier is left empty`,
      );
  }
  return { energy, vad: voice };
}

/** A span moved to where its take begins on the item's audio. */
const shiftSpan = (span: { t0_ms: number; t1_ms: number }, offsetMs: number) => ({
  t0_ms: span.t0_ms + offsetMs,
  t1_ms: span.t1_ms + offsetMs,
});

/** The gold split of a Hugging Face export: `aloud export --gold` records as JSON Lines. */
const GOLD_SPLIT_FILE = 'gold/gold.jsonl';

/**
 * The marker of a de-identified file where its format has room for one the EAF does not already carry as a property:
 * a comment line in a TextGrid (Praat skips what follows "!"), the first line of a MAXQDA transcript, a paragraph of
 * the dataset card.
 */
function markDeidentified(planned: PlannedFile[]): void {
  for (const file of planned) {
    if (!('text' in file)) continue;
    const lower = file.path.toLowerCase();
    if (lower.endsWith('.textgrid'))
      file.text = file.text.replace('Object class = "TextGrid"\n', `Object class = "TextGrid"\n! ${DEIDENTIFIED_SENTENCE}\n`);
    else if (lower.endsWith('.txt')) file.text = `${DEIDENTIFIED_SENTENCE}\n\n${file.text}`;
    else if (lower === 'readme.md') file.text = `${file.text.trimEnd()}\n\n${DEIDENTIFIED_SENTENCE}.\n`;
  }
}

/** What validate would find in the planned files: the same texts of each file, the same matcher. */
async function plannedLeaks(planned: readonly PlannedFile[], matcher: SpanMatcher, kept: ReadonlySet<string>): Promise<InputProblem[]> {
  const problems: InputProblem[] = [];
  for (const file of planned) {
    if ('wav' in file) continue;
    if ('qdpx' in file) {
      problems.push(
        ...leakProblems(
          qdeTexts(file.qdpx.xml).map((text) => ({ where: `${file.path}!project.qde`, text })),
          matcher,
          kept,
        ),
      );
      for (const f of file.qdpx.files)
        if ('text' in f.content) problems.push(...leakProblems([{ where: `${file.path}!${f.path}`, text: f.content.text }], matcher, kept));
      continue;
    }
    const bytes = 'text' in file ? Buffer.from(file.text, 'utf8') : file.bytes;
    problems.push(...leakProblems((await exportedTexts(file.path, bytes)) ?? [], matcher, kept));
  }
  return problems;
}

function hfDataset(
  project: OpenProject,
  items: readonly Item[],
  records: readonly ExportRecord[],
  recorded: readonly ExportRecord[],
  names: ReadonlyMap<string, string>,
  version: string,
  createdAt: string,
  gold: string | null,
): PlannedFile[] {
  const columns = hfColumns();
  const rows = recorded.map((r) => hfRow(r, `audio/${names.get(stateKey(r.annotator, r.item_id))!}.wav`, columns));
  const parquetFile = 'parquet/records.parquet';
  const card = datasetCard({
    project: project.config.name,
    rows: rows.length,
    annotators: [...new Set(recorded.map((r) => r.annotator))],
    items: new Set(recorded.map((r) => r.item_id)).size,
    labels: project.config.schema.labels.map((l) => l.name),
    languages: project.config.thinkaloud.languages,
    columns,
    models: [...new Map(recorded.flatMap((r) => (r.model ? [[`${r.model.name}\u0000${r.model.sha256}`, r.model] as const] : []))).values()],
    parserVersions: [...new Set(recorded.flatMap((r) => (r.parser_version ? [r.parser_version] : [])))],
    thinkaloud: project.config.thinkaloud,
    withoutAudio: records.length - recorded.length,
    appVersion: version,
    createdAt,
    parquetFile,
    goldFile: gold === null ? null : GOLD_SPLIT_FILE,
  });
  return [
    ...(gold === null ? [] : [{ path: GOLD_SPLIT_FILE, text: gold }]),
    ...recorded.map((r) => ({
      path: `audio/${names.get(stateKey(r.annotator, r.item_id))!}.wav`,
      wav: r.audio!.path,
      sha256: r.audio!.sha256!,
    })),
    { path: 'metadata.jsonl', text: rows.map((row) => `${JSON.stringify(row)}\n`).join('') },
    { path: parquetFile, bytes: parquetOf(columns, rows, version) },
    { path: 'README.md', text: card },
  ];
}

const PARQUET_TYPES = { string: 'STRING', json: 'STRING', int32: 'INT32', float64: 'DOUBLE', bool: 'BOOLEAN' } as const;

function parquetOf(columns: readonly HfColumn[], rows: ReadonlyArray<Record<string, unknown>>, version: string): Uint8Array {
  const buffer = parquetWriteBuffer({
    columnData: columns.map((c) => ({ name: c.name, data: rows.map((row) => row[c.name] ?? null), type: PARQUET_TYPES[c.type] })),
    createdBy: `Aloud ${version}`,
  });
  return new Uint8Array(buffer);
}

/** The files an earlier export of this format wrote into the folder, by path (its receipt's list). */
async function earlierFiles(receiptFile: string): Promise<Map<string, InteropFileEntry>> {
  const text = await readFile(receiptFile, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (text === null) return new Map();
  let files: unknown;
  try {
    files = (JSON.parse(text) as { files?: unknown }).files;
  } catch {
    throw new ProjectError(`${receiptFile}: is not a receipt Aloud wrote (not JSON); move it away, or pass --force`);
  }
  if (!Array.isArray(files) || !files.every((f) => typeof f?.path === 'string' && typeof f?.sha256 === 'string')) {
    throw new ProjectError(`${receiptFile}: is not a receipt Aloud wrote (no files list); move it away, or pass --force`);
  }
  return new Map((files as InteropFileEntry[]).map((f) => [f.path, f]));
}

/** Files already in the folder that this export would replace are refused unless an earlier export of it wrote them (or --force). */
async function refuseForeignFiles(
  outDir: string,
  paths: readonly string[],
  earlier: ReadonlyMap<string, InteropFileEntry>,
  force: boolean,
): Promise<void> {
  if (force) return;
  const foreign: string[] = [];
  for (const file of paths) {
    if (earlier.has(file)) continue;
    if (
      await stat(path.join(outDir, ...file.split('/'))).then(
        () => true,
        () => false,
      )
    )
      foreign.push(file);
  }
  if (foreign.length > 0) {
    throw new ProjectError(
      `--out ${outDir}: ${foreign[0]}${foreign.length > 1 ? ` and ${foreign.length - 1} more` : ''} already exist${foreign.length > 1 ? '' : 's'} and no earlier export wrote them; choose another folder or pass --force to replace them`,
    );
  }
}

/** A session WAV's bytes, refused when they are no longer what the record's sha256 says (changed during the export). */
async function sessionWav(project: OpenProject, relative: string, sha256: string, masks: WavMasks | null): Promise<Buffer> {
  const bytes = await readFile(await resolveInside(project.dir, path.join(...relative.split('/')), 'read'));
  if (sha256Hex(bytes) !== sha256)
    throw new ProjectError(`${relative}: changed while exporting (its sha256 is no longer the one recorded); export again`);
  // de-identified: only the masked copy leaves the project
  return masks ? masks.masked(relative, bytes) : bytes;
}

/** A file of the export made in the staging folder, with the entry the receipt gives it. */
async function stagePlanned(
  project: OpenProject,
  staging: ExportStaging,
  file: PlannedFile,
  masks: WavMasks | null,
): Promise<InteropFileEntry> {
  if ('qdpx' in file) return { path: file.path, ...(await writeQdpx(project, staging, file.path, file.qdpx, masks)) };
  const bytes =
    'text' in file
      ? Buffer.from(file.text, 'utf8')
      : 'bytes' in file
        ? file.bytes
        : await sessionWav(project, file.wav, file.sha256, masks);
  await staging.write(file.path, bytes);
  return { path: file.path, sha256: sha256Hex(bytes), bytes: bytes.length };
}

/**
 * A .qdpx as the standard lays it out: a zip with `project.qde` and `Sources/<guid>.<ext>`, written as a stream
 * (recordings stored, texts deflated) into the staging folder, fsynced, moved into place with every export file.
 */
async function writeQdpx(
  project: OpenProject,
  staging: ExportStaging,
  relative: string,
  qdpx: Extract<PlannedFile, { qdpx: unknown }>['qdpx'],
  masks: WavMasks | null,
): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  await staging.writeStreamed(relative, async (handle) => {
    const pending: Uint8Array[] = [];
    let failure: Error | null = null;
    const zip = new Zip((error, chunk) => {
      if (error) failure = error;
      else pending.push(chunk);
    });
    const flush = async (): Promise<void> => {
      if (failure) throw failure;
      for (const chunk of pending.splice(0)) {
        hash.update(chunk);
        bytes += chunk.length;
        await handle.write(chunk);
      }
    };
    const add = async (name: string, data: Uint8Array, stored: boolean): Promise<void> => {
      const entry = stored ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
      zip.add(entry);
      entry.push(data, true);
      await flush();
    };
    await add('project.qde', Buffer.from(qdpx.xml, 'utf8'), false);
    for (const f of qdpx.files) {
      if ('text' in f.content) await add(f.path, Buffer.from(f.content.text, 'utf8'), false);
      else await add(f.path, await sessionWav(project, f.content.wav, f.content.sha256, masks), true);
    }
    zip.end();
    await flush();
  });
  return { sha256: hash.digest('hex'), bytes };
}
