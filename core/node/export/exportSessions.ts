import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { buildExportRecord, describeExportGaps, type ExportRecord } from '../../common/export/exportRecord';
import { exportTextWriter, type ExportFormat } from '../../common/export/exportFormats';
import { ExportReceiptTally, type ExportReceiptV1 } from '../../common/export/exportReceipt';
import type { ExportProjectFacts } from '../../common/export/exportRules';
import { ExportWriteCheck } from '../../common/export/exportValidation';
import type { Item } from '../../common/items/item';
import { InputError } from '../../common/io/inputProblem';
import { sha256Hex } from '../fs/sha256';
import { exportedWavSha256 } from '../audio/wavCheck';
import { ProjectError } from '../fs/projectError';
import { loadProjectItems, projectLabelSchema, type OpenProject } from '../project/projectFolder';
import { appVersion } from '../exportFiles/appVersion';
import { createReasoningExport, type ReasoningExportFields } from '../../common/export/reasoningExport';
import type { ItemSessionState } from '../../common/session/itemState';
import { writeExportPair, writeExportWithReceipt } from '../exportFiles/exportTarget';
import { allSessionNames, type AnnotatorStates, type SessionSource } from '../session/sessionSource';
import { normalizeAnnotatorName } from '../session/sessionPaths';
import { protocolKey, type ProtocolCoding } from '../../common/coding/codingFold';
import { protocolCodings, unitsCsv, unitsFileName, type UnitsReceiptV1 } from '../../common/export/codingExport';
import { unitsOfItem } from '../../common/coding/codingUnits';
import { deidentifiedRecords } from '../deidentify/deidentifiedRecords';
import { describeDeidentification } from '../../common/deidentified/deidentifyReceipt';

/** How far an export is: records built of all to build (the slow part: every referenced WAV is read and hashed). */
export interface ExportProgress {
  done: number;
  total: number;
}

export interface ExportOptions {
  /** called as records are built, and once more when the file and receipt are written */
  onProgress?: (progress: ExportProgress) => void;
  project: OpenProject;
  /** only this annotator; default every annotator with a session */
  annotator?: string;
  format: ExportFormat;
  out: string;
  sessions: SessionSource;
  /** replace a file at `out` that is not an earlier export (never the project's own data) */
  force?: boolean;
  now?: () => Date;
  /** CSV: the item's text, context and further fields in columns of their own (`--with-items`) */
  withItems?: boolean;
  /** hide what deidentify.yaml lists: placeholders in the texts, masked copies of the recordings beside the file */
  deidentify?: boolean;
}

export interface ExportResult {
  file: string;
  /** what the export holds and lacks, in words: "26 records; 12 have no audio, 13 have no label" */
  summary: string;
  receipt_file: string;
  receipt: ExportReceiptV1;
  /** session states for item ids the project no longer has: not exported, listed so nothing vanishes silently */
  skipped_states: Array<{ annotator: string; item_id: string }>;
  warnings: string[];
  /** CSV exports of coded protocols: the units file beside it (one row per unit) and its receipt */
  units_file?: string;
  units_receipt?: UnitsReceiptV1;
}

/** Each coder's work on a protocol, looked up by the protocol's annotator and item. */
export type CodingIndex = (annotator: string, itemId: string) => Array<{ coder: string; coding: ProtocolCoding }>;

/** The index of every coder's codings (one annotator's protocols are coded in the others' logs). */
export function codingIndex(coders: ReadonlyArray<Pick<AnnotatorStates, 'annotator' | 'codings'>>): CodingIndex {
  const index = new Map<string, Array<{ coder: string; coding: ProtocolCoding }>>();
  for (const c of coders) {
    for (const p of c.codings?.protocols ?? []) {
      const key = protocolKey(p.annotator, p.item_id);
      index.set(key, [...(index.get(key) ?? []), { coder: c.annotator, coding: p }]);
    }
  }
  return (annotator, itemId) => index.get(protocolKey(annotator, itemId)) ?? [];
}

/** Every session's codings, read one session at a time (only the codings are kept). */
export async function projectCodingIndex(project: OpenProject, source: SessionSource): Promise<CodingIndex> {
  const coders: Array<Pick<AnnotatorStates, 'annotator' | 'codings'>> = [];
  for (const name of await allSessionNames(source, project)) {
    const { annotator, codings } = await source.load(project, name);
    if ((codings?.protocols.length ?? 0) > 0) coders.push({ annotator, codings });
  }
  return codingIndex(coders);
}

/** What the rule stage needs to know about the project: its name, labels and each item's text and context hashes. */
export function projectFacts(project: OpenProject, items: readonly Item[]): ExportProjectFacts {
  return {
    name: project.config.name,
    labels: project.config.schema.labels.map((l) => l.name),
    items: new Map(
      items.map((i) => [i.id, { textSha256: sha256Hex(i.text), contextSha256: i.context === undefined ? null : sha256Hex(i.context) }]),
    ),
  };
}

/** What every record of one export shares: the project, its items and their hashes, the config's digest, the app version, the time. */
export interface ExportContext {
  project: OpenProject;
  items: readonly Item[];
  facts: ExportProjectFacts;
  configSha256: string;
  /** the aloud.yaml bytes the export is made under (kept whole in the receipt) */
  configText: string;
  appVersion: string;
  exportedAt: string;
  reasoningOf: (item: Item, state: ItemSessionState | null) => ReasoningExportFields;
  codingsOf: CodingIndex;
}

export async function exportContext(
  project: OpenProject,
  items: readonly Item[],
  exportedAt: string,
  codingsOf: CodingIndex = () => [],
): Promise<ExportContext> {
  return {
    codingsOf,
    project,
    items,
    facts: projectFacts(project, items),
    ...(await readFile(project.configPath).then((bytes) => ({ configSha256: sha256Hex(bytes), configText: bytes.toString('utf8') }))),
    appVersion: await appVersion(),
    exportedAt,
    reasoningOf: createReasoningExport(projectLabelSchema(project), project.config.reasoning),
  };
}

/**
 * One annotator's records, one per project item in item order (items the annotator never opened have null values),
 * built as they are asked for: each record's WAV is read and hashed when its record is built, and nothing is kept.
 * `warn` hears what the export should report (audio that disagrees with the log, labels given to a since-changed text).
 */
export async function* annotatorExportRecords(
  context: ExportContext,
  session: AnnotatorStates,
  warn: (warning: string) => void,
): AsyncGenerator<ExportRecord> {
  const { project } = context;
  // a coder who is not an annotator has no protocol of their own: no records (their codings are in the annotators')
  if (session.kind === 'coder') return;
  const byItem = new Map(session.items.map((s) => [s.item_id, s]));
  for (const item of context.items) {
    const state = byItem.get(item.id) ?? null;
    const hashes = context.facts.items.get(item.id)!;
    if (state?.item_text_sha256 && state.item_text_sha256 !== hashes.textSha256) {
      warn(
        `${session.annotator} labelled "${item.id}" when its text was different; the project's text has changed since (e.g. import --replace), so this record's labels are for the old text`,
      );
    }
    yield buildExportRecord({
      project: project.config.name,
      annotator: session.annotator,
      item,
      itemTextSha256: hashes.textSha256,
      itemContextSha256: hashes.contextSha256,
      state,
      notes: session.notes ?? [],
      sessionKind: session.kind ?? 'annotator',
      reasoning: context.reasoningOf(item, state),
      codings: state
        ? protocolCodings(
            unitsOfItem(state, project.config.coding.unit),
            project.config.coding.unit,
            context.codingsOf(session.annotator, item.id),
          )
        : null,
      audioSha256: state?.audio_path
        ? await exportedWavSha256(project.dir, state.audio_path, state.audio_ms, (w) => warn(`${session.annotator}: ${w}`))
        : null,
      appVersion: context.appVersion,
      configSha256: context.configSha256,
      exportedAt: context.exportedAt,
    });
  }
}

/** Session states of item ids the project no longer has: not exported, listed so nothing vanishes silently. */
function skippedStates(context: ExportContext, session: AnnotatorStates): ExportResult['skipped_states'] {
  return session.items
    .filter((state) => !context.facts.items.has(state.item_id))
    .map((state) => ({ annotator: session.annotator, item_id: state.item_id }));
}

/**
 * Every record at once, for writers that need them all (a small export, a test); exports themselves write
 * annotatorExportRecords as they come.
 */
export async function buildExportRecords(
  project: OpenProject,
  items: readonly Item[],
  sessions: readonly AnnotatorStates[],
  exportedAt: string,
  onProgress?: (progress: ExportProgress) => void,
  /** every annotator's session as a coder (their codings of anyone's protocols); default: those of `sessions` */
  coders: ReadonlyArray<Pick<AnnotatorStates, 'annotator' | 'codings'>> = sessions,
): Promise<{ records: ExportRecord[]; skipped: ExportResult['skipped_states']; warnings: string[] }> {
  const context = await exportContext(project, items, exportedAt, codingIndex(coders));
  const records: ExportRecord[] = [];
  const skipped: ExportResult['skipped_states'] = [];
  const warnings: string[] = [];
  for (const session of sessions) {
    for await (const record of annotatorExportRecords(context, session, (w) => warnings.push(w))) {
      onProgress?.({ done: records.length, total: sessions.length * items.length });
      records.push(record);
    }
    skipped.push(...skippedStates(context, session));
  }
  return { records, skipped, warnings };
}

/** Who an export is of: the project's items and the annotators with a session (or the one asked for), refused in words when empty. */
export async function exportAnnotators(
  project: OpenProject,
  out: string,
  source: SessionSource,
  annotator?: string,
): Promise<{ items: Item[]; annotators: string[] }> {
  const folder = await stat(path.dirname(path.resolve(out))).catch(() => null);
  if (!folder?.isDirectory()) throw new ProjectError(`${out}: the folder ${path.dirname(path.resolve(out))} does not exist`);
  const items = await loadProjectItems(project);
  if (items.length === 0) throw new ProjectError(`${project.dir}: the project has no items to export`);
  const known = await source.annotators(project);
  const wanted = annotator === undefined ? undefined : normalizeAnnotatorName(annotator);
  const annotators = wanted === undefined ? known : [wanted];
  if (wanted !== undefined && !known.includes(wanted)) {
    throw new ProjectError(`${project.dir}: no session for annotator "${wanted}"${known.length ? ` (sessions: ${known.join(', ')})` : ''}`);
  }
  if (annotators.length === 0) throw new ProjectError(`${project.dir}: no annotator sessions to export yet`);
  return { items, annotators };
}

/**
 * exportAnnotators with every session loaded at once (for exports small enough to hold them all), and every session
 * as a coder (one annotator's protocols are coded in the others' logs).
 */
export async function exportInputs(
  project: OpenProject,
  out: string,
  source: SessionSource,
  annotator?: string,
): Promise<{ items: Item[]; sessions: AnnotatorStates[]; coders: AnnotatorStates[] }> {
  const { items, annotators } = await exportAnnotators(project, out, source, annotator);
  const sessions: AnnotatorStates[] = [];
  for (const name of annotators) sessions.push(await source.load(project, name));
  const coders = [...sessions];
  for (const name of await allSessionNames(source, project)) if (!annotators.includes(name)) coders.push(await source.load(project, name));
  return { items, sessions, coders };
}

/**
 * Exports labelled sessions, record by record: one annotator's session is folded at a time, each record is built,
 * checked as it is written (ExportWriteCheck: the same parse, schema and rule stages as `aloud validate`, on the
 * record's own text) and appended to the new file under its hidden name, its sha256 and the receipt's counts kept as
 * it goes; memory holds one session and one record, not the export. One invalid record fails the whole export and
 * leaves no file and no receipt. The file and its receipt are written as a pair (writeExportPair: the target
 * policy, then a swap that a crash leaves old or new).
 */
export async function exportSessions(options: ExportOptions): Promise<ExportResult> {
  const { project, out, format } = options;
  const now = options.now ?? (() => new Date());
  const { items, annotators } = await exportAnnotators(project, out, options.sessions, options.annotator);
  // the codings first: any coder's log may hold codings of the protocols exported
  const context = await exportContext(project, items, now().toISOString(), await projectCodingIndex(project, options.sessions));
  const total = annotators.length * items.length;
  /** what units.csv needs of the records with codings (kept: small beside the records) */
  const coded: Array<Pick<ExportRecord, 'project' | 'annotator' | 'item_id' | 'final_label' | 'blind_label' | 'codings'>> = [];
  const sessionWarnings: string[] = [];
  const recordWarnings: string[] = [];
  const sessionNotes: string[] = [];
  const skipped: ExportResult['skipped_states'] = [];
  const tally = new ExportReceiptTally();
  const deidentified = options.deidentify
    ? await deidentifiedRecords(
        project,
        out,
        options.force ?? false,
        annotators,
        items.map((i) => i.id),
      )
    : null;

  const { receiptFile, receipt } = await writeExportPair(
    out,
    async (sink) => {
      const text = exportTextWriter(format, options.withItems ? { items: new Map(items.map((i) => [i.id, i])) } : {});
      const check = new ExportWriteCheck(out, format, context.facts);
      check.written(text.head);
      await sink.write(text.head);
      let index = 0;
      for (const annotator of annotators) {
        const session = await options.sessions.load(project, annotator);
        sessionWarnings.push(...session.warnings);
        for await (const built of annotatorExportRecords(context, session, (w) => recordWarnings.push(w))) {
          options.onProgress?.({ done: index, total });
          const record = deidentified ? await deidentified.record(built) : built;
          const piece = text.record(record, index);
          check.record(record, piece, index);
          tally.add(record);
          if (record.codings)
            coded.push({
              project: record.project,
              annotator: record.annotator,
              item_id: record.item_id,
              final_label: record.final_label,
              blind_label: record.blind_label,
              codings: record.codings,
            });
          await sink.write(piece);
          index++;
        }
        skipped.push(...skippedStates(context, session));
        for (const note of session.notes ?? []) {
          if (note.item_id === null)
            sessionNotes.push(
              `${session.annotator} wrote a note on no item (${note.ts}): ${JSON.stringify(note.text)}; records carry notes per item, so it is only here`,
            );
        }
      }
      const tail = text.tail(index);
      check.written(tail);
      await sink.write(tail);
      const problems = check.finish();
      if (problems.length > 0) throw new InputError(problems);
    },
    (written) =>
      tally.receipt({
        file: path.basename(out),
        format,
        sha256: written.sha256,
        bytes: written.bytes,
        project: project.config.name,
        appVersion: context.appVersion,
        createdAt: now().toISOString(),
        ...(deidentified ? { deidentification: deidentified.receipt() } : {}),
        config: { sha256: context.configSha256, yaml: context.configText },
      }),
    { project, force: options.force ?? false },
  );
  // CSV has no room for nested codings: one row per unit in a file of its own beside it, with its own receipt
  const units =
    format === 'csv' && coded.length > 0
      ? await writeUnitsFile(out, coded, {
          project,
          force: options.force ?? false,
          version: context.appVersion,
          createdAt: now().toISOString(),
        })
      : null;
  options.onProgress?.({ done: receipt.records, total: receipt.records });
  return {
    file: out,
    summary:
      describeExportGaps(receipt.records, receipt.gaps) +
      (receipt.deidentification ? `; ${describeDeidentification(receipt.deidentification)}` : ''),
    receipt_file: receiptFile,
    receipt,
    skipped_states: skipped,
    warnings: [...sessionWarnings, ...recordWarnings, ...sessionNotes],
    ...(units ? { units_file: units.file, units_receipt: units.receipt } : {}),
  };
}

/** `<export>.units.csv` and its receipt beside a CSV export, written as a pair like the export itself. */
async function writeUnitsFile(
  out: string,
  records: Parameters<typeof unitsCsv>[0],
  options: { project: OpenProject; force: boolean; version: string; createdAt: string },
): Promise<{ file: string; receipt: UnitsReceiptV1 }> {
  const file = path.join(path.dirname(out), unitsFileName(path.basename(out)));
  const { text, rows } = unitsCsv(records);
  const { receipt } = await writeExportWithReceipt(
    file,
    text,
    (written): UnitsReceiptV1 => ({
      receipt_version: 1,
      kind: 'units',
      file: path.basename(file),
      records_file: path.basename(out),
      sha256: written.sha256,
      bytes: written.bytes,
      rows,
      project: options.project.config.name,
      app_version: options.version,
      created_at: options.createdAt,
    }),
    { project: options.project, force: options.force },
  );
  return { file, receipt };
}
