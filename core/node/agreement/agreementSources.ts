import type { LabelRecord } from '../../common/agreement/agreementAnalysis';
import { countExportRecords, type CountableRecord, ExportLabelsReader, LabelCsvReader } from '../../common/agreement/labelFiles';
import {
  countedLabels,
  DEFAULT_COUNTING,
  type CountableSession,
  type CountingReport,
  type CountingRules,
} from '../../common/agreement/countingRules';
import { isScriptedModel } from '../engine/scriptedEngine';
import { exportFormatFromFileName } from '../../common/export/exportFormats';
import { InputError } from '../../common/io/inputProblem';
import { projectSessionSource } from '../session/projectSessions';
import type { AnnotatorStates, SessionSource } from '../session/sessionSource';
import { DEFAULT_STREAM_LIMITS, streamInputFile } from '../importing/inputStream';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';
import type { TimeOnItemEntry } from '../../common/agreement/timeOnItem';

/** Labels from one input, with where they came from (for messages and the report). */
export interface LabelSet {
  source: string;
  records: LabelRecord[];
  /** false when the input has one label per pair (CSV) */
  hasBlind: boolean;
  warnings: string[];
  /** what the counting rules left out (sessions and export files; a CSV table or a room log has nothing to leave out) */
  counting?: CountingReport;
  /** items transcribed by a scripted engine (tests, demos), never by whisper.cpp: a report says so */
  scriptedItems?: number;
  /** each annotator's active and wall time on the items she completed (sessions only) */
  timeOnItem?: TimeOnItemEntry[];
}

/** An annotator's session's times on the items she completed (a room's write-back holds no one's time). */
export function sessionTimeOnItem(s: AnnotatorStates): TimeOnItemEntry[] {
  if ((s.kind ?? 'annotator') !== 'annotator') return [];
  return s.items.flatMap((i) =>
    i.completed_at !== null && i.time_on_item_active_ms !== undefined && i.time_on_item_wall_ms !== undefined
      ? [{ item_id: i.item_id, annotator: s.annotator, active_ms: i.time_on_item_active_ms, wall_ms: i.time_on_item_wall_ms }]
      : [],
  );
}

/** A folded session as agreement counts it: completed items (a room's write-back holds finished votes only), each act with whose it is. */
export function countableSession(s: AnnotatorStates): CountableSession {
  const kind = s.kind ?? 'annotator';
  return {
    annotator: s.annotator,
    kind,
    items: s.items.map((i) => ({
      item_id: i.item_id,
      completed: kind === 'room' || i.completed_at !== null,
      acts: i.label_history.map((a) => ({ label: a.label, reviewer: a.reviewer ?? null })),
    })),
  };
}

/**
 * Every session of the project, read-only, counted under the rules (countingRules): blind (first) and final label per
 * item. One session is folded at a time and only its label acts are kept.
 */
export async function projectLabelSet(
  project: OpenProject,
  sessions: SessionSource = projectSessionSource,
  rules: CountingRules = DEFAULT_COUNTING,
  onSession?: (read: number, total: number) => void,
): Promise<LabelSet & { itemIds: string[] }> {
  const items = await loadProjectItems(project);
  const countable: CountableSession[] = [];
  const warnings: string[] = [];
  let scriptedItems = 0;
  const timeOnItem: TimeOnItemEntry[] = [];
  const names = await sessions.annotators(project);
  for (const [read, name] of names.entries()) {
    onSession?.(read, names.length);
    const session = await sessions.load(project, name);
    countable.push(countableSession(session));
    timeOnItem.push(...sessionTimeOnItem(session));
    scriptedItems += session.items.filter((i) => isScriptedModel(i.model)).length;
    warnings.push(...session.warnings);
  }
  onSession?.(names.length, names.length);
  const { records, report } = countedLabels(countable, rules);
  return {
    source: `${project.dir} (sessions)`,
    records,
    hasBlind: true,
    warnings,
    itemIds: items.map((i) => i.id),
    counting: report,
    scriptedItems,
    timeOnItem,
  };
}

/** Reads a file through the input stage as a stream into `reader`; the input stage's problems refuse it as a whole. */
async function readStreamed(
  file: string,
  lineBased: boolean,
  reader: { push(text: string): void; end(): void },
  onBytes?: (read: number, total: number) => void,
): Promise<void> {
  const input = await streamInputFile(file, { limits: DEFAULT_STREAM_LIMITS, lineBased, ...(onBytes ? { onBytes } : {}) }, (text) =>
    reader.push(text),
  );
  if (input.problems.length > 0) throw new InputError(input.problems);
  reader.end();
}

export async function csvLabelSet(file: string): Promise<LabelSet> {
  const records: LabelRecord[] = [];
  await readStreamed(file, false, new LabelCsvReader(file, (r) => records.push(r)));
  return { source: file, records, hasBlind: false, warnings: [] };
}

/** The labels of an `aloud export` file of any size, read record by record (limits per line and per record). */
export async function exportLabelSet(
  file: string,
  rules: CountingRules = DEFAULT_COUNTING,
  onBytes?: (read: number, total: number) => void,
): Promise<LabelSet> {
  const format = exportFormatFromFileName(file);
  if (format === null || (format !== 'jsonl' && format !== 'json' && format !== 'csv')) {
    throw new InputError([{ file, line: null, field: null, stage: 'input', message: 'an export file ends in .jsonl, .json or .csv' }]);
  }
  const countable: CountableRecord[] = [];
  await readStreamed(
    file,
    format !== 'json',
    new ExportLabelsReader(file, format, (r) => countable.push(r), DEFAULT_STREAM_LIMITS.maxRecordBytes),
    onBytes,
  );
  const { records, report } = countExportRecords(countable, rules);
  return { source: file, records, hasBlind: true, warnings: [], counting: report };
}

/** One record per (item, annotator) across inputs: the same pair in two inputs is a mistake, named with both. */
export function mergeLabelSets(sets: readonly LabelSet[]): LabelRecord[] {
  const seen = new Map<string, string>();
  const records: LabelRecord[] = [];
  for (const set of sets) {
    for (const r of set.records) {
      const key = JSON.stringify([r.item_id, r.annotator]);
      const before = seen.get(key);
      if (before !== undefined) {
        throw new InputError([
          {
            file: set.source,
            line: null,
            field: null,
            stage: 'rule',
            message: `"${r.annotator}" labels item "${r.item_id}" here and in ${before}: give each annotator's labels once`,
          },
        ]);
      }
      seen.set(key, set.source);
      records.push(r);
    }
  }
  return records;
}
