import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { buildExportRecord, describeExportGaps, type ExportRecordV2 } from '../../common/export/exportRecord';
import { serializeExport, type ExportFormat } from '../../common/export/exportFormats';
import { buildExportReceipt, type ExportReceiptV1 } from '../../common/export/exportReceipt';
import type { ExportProjectFacts } from '../../common/export/exportRules';
import { validateExportText } from '../../common/export/exportValidation';
import type { Item } from '../../common/items/item';
import { InputError } from '../../common/io/inputProblem';
import { sha256Hex } from '../fs/sha256';
import { exportedWavSha256 } from './wavCheck';
import { ProjectError } from '../project/projectError';
import { loadProjectItems, projectLabelSchema, type OpenProject } from '../project/projectFolder';
import { appVersion } from './appVersion';
import { createReasoningExport } from '../../common/reasoning/reasoningExport';
import { writeExportWithReceipt } from './exportTarget';
import type { AnnotatorStates, SessionSource } from './sessionSource';
import { normalizeAnnotatorName } from '../session/sessionPaths';
import { deidentifyRecordsExport } from '../deidentify/deidentifiedRecords';
import { describeDeidentification } from '../../common/deidentify/deidentifyReceipt';

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
}

/** What the rule stage needs to know about the project: its name, labels and each item's text and context hashes. */
export function projectFacts(project: OpenProject, items: readonly Item[]): ExportProjectFacts {
  return {
    name: project.config.name,
    labels: project.config.schema.labels.map((l) => l.name),
    items: new Map(items.map((i) => [i.id, { textSha256: sha256Hex(i.text), contextSha256: i.context === undefined ? null : sha256Hex(i.context) }])),
  };
}

/** One record per annotator and project item, in item order; items the annotator never opened have null values. */
export async function buildExportRecords(
  project: OpenProject,
  items: readonly Item[],
  sessions: readonly AnnotatorStates[],
  exportedAt: string,
  onProgress?: (progress: ExportProgress) => void,
): Promise<{ records: ExportRecordV2[]; skipped: ExportResult['skipped_states']; warnings: string[] }> {
  const facts = projectFacts(project, items);
  const configSha256 = sha256Hex(await readFile(project.configPath));
  const version = await appVersion();
  const records: ExportRecordV2[] = [];
  const reasoningOf = createReasoningExport(projectLabelSchema(project), project.config.reasoning);
  const skipped: ExportResult['skipped_states'] = [];
  const warnings: string[] = [];
  for (const session of sessions) {
    const byItem = new Map(session.items.map((s) => [s.item_id, s]));
    for (const item of items) {
      onProgress?.({ done: records.length, total: sessions.length * items.length });
      const state = byItem.get(item.id) ?? null;
      const hashes = facts.items.get(item.id)!;
      if (state?.item_text_sha256 && state.item_text_sha256 !== hashes.textSha256) {
        warnings.push(`${session.annotator} labelled "${item.id}" when its text was different; the project's text has changed since (e.g. import --replace), so this record's labels are for the old text`);
      }
      records.push(
        buildExportRecord({
          project: project.config.name,
          annotator: session.annotator,
          item,
          itemTextSha256: hashes.textSha256,
          itemContextSha256: hashes.contextSha256,
          state,
          notes: session.notes ?? [],
          reasoning: reasoningOf(item, state),
          audioSha256: state?.audio_path ? await exportedWavSha256(project.dir, state.audio_path, state.audio_ms, (w) => warnings.push(`${session.annotator}: ${w}`)) : null,
          appVersion: version,
          configSha256,
          exportedAt,
        }),
      );
    }
    for (const state of session.items) if (!facts.items.has(state.item_id)) skipped.push({ annotator: session.annotator, item_id: state.item_id });
  }
  return { records, skipped, warnings };
}

/** What every export reads: the project's items and the sessions of one annotator (or all), refused in words when empty. */
export async function exportInputs(project: OpenProject, out: string, source: SessionSource, annotator?: string): Promise<{ items: Item[]; sessions: AnnotatorStates[] }> {
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
  const sessions: AnnotatorStates[] = [];
  for (const name of annotators) sessions.push(await source.load(project, name));
  return { items, sessions };
}

/**
 * Exports labelled sessions. Every record is validated (the same parse, schema and rule stages as `aloud validate`,
 * on the exact bytes to be written) before anything is written; one invalid record fails the whole export and
 * leaves no file and no receipt. The file and its receipt are written as a pair (writeExportWithReceipt: the target
 * policy, then a swap that a crash leaves old or new).
 */
export async function exportSessions(options: ExportOptions): Promise<ExportResult> {
  const { project, out, format } = options;
  const now = options.now ?? (() => new Date());
  const { items, sessions } = await exportInputs(project, out, options.sessions, options.annotator);

  const built = await buildExportRecords(project, items, sessions, now().toISOString(), options.onProgress);
  const { skipped, warnings: recordWarnings } = built;
  const deidentified = options.deidentify ? await deidentifyRecordsExport(project, built.records, out, options.force ?? false) : null;
  const records = deidentified?.records ?? built.records;
  const text = serializeExport(records, format);
  const checked = validateExportText(text, out, format, projectFacts(project, items));
  if (checked.problems.length > 0) throw new InputError(checked.problems);

  const version = await appVersion();
  const { receiptFile, receipt } = await writeExportWithReceipt(
    out,
    text,
    (bytes) => buildExportReceipt({ file: path.basename(out), format, sha256: sha256Hex(bytes), bytes: bytes.length, records, project: project.config.name, appVersion: version, createdAt: now().toISOString(), ...(deidentified ? { deidentification: deidentified.deidentification } : {}) }),
    { project, force: options.force ?? false },
  );
  options.onProgress?.({ done: records.length, total: records.length });
  const sessionNotes = sessions.flatMap((s) => (s.notes ?? []).filter((n) => n.item_id === null).map((n) => `${s.annotator} wrote a note on no item (${n.ts}): ${JSON.stringify(n.text)}; records carry notes per item, so it is only here`));
  const summary = describeExportGaps(receipt.records, receipt.gaps) + (receipt.deidentification ? `; ${describeDeidentification(receipt.deidentification)}` : '');
  return { file: out, summary, receipt_file: receiptFile, receipt, skipped_states: skipped, warnings: [...sessions.flatMap((s) => s.warnings), ...recordWarnings, ...sessionNotes] };
}
