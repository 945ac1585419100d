import type { LabelRecord } from '../../common/agreement/agreementAnalysis';
import { ExportLabelsReader, LabelCsvReader } from '../../common/agreement/labelFiles';
import { exportFormatFromFileName } from '../../common/export/exportFormats';
import { InputError } from '../../common/io/inputProblem';
import { foldRoom } from '../../common/rooms/roomFold';
import { roomLabelRecords } from '../../common/rooms/roomViews';
import { projectSessionSource } from '../export/projectSessions';
import type { SessionSource } from '../export/sessionSource';
import { DEFAULT_STREAM_LIMITS, streamInputFile } from '../importing/inputStream';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';
import { readRoomLog } from '../rooms/roomLogFile';

/** Labels from one input, with where they came from (for messages and the report). */
export interface LabelSet {
  source: string;
  records: LabelRecord[];
  /** false when the input has one label per pair (CSV) */
  hasBlind: boolean;
  warnings: string[];
}

/**
 * Every annotator session of the project, read-only: blind (first) and final label per item. One session is folded
 * at a time and only its labels are kept.
 */
export async function projectLabelSet(
  project: OpenProject,
  sessions: SessionSource = projectSessionSource,
  onSession?: (read: number, total: number) => void,
): Promise<LabelSet & { itemIds: string[] }> {
  const items = await loadProjectItems(project);
  const records: LabelRecord[] = [];
  const warnings: string[] = [];
  const names = await sessions.annotators(project);
  for (const [read, name] of names.entries()) {
    onSession?.(read, names.length);
    const session = await sessions.load(project, name);
    for (const i of session.items) {
      if (i.blind_label !== null || i.final_label !== null) records.push({ item_id: i.item_id, annotator: session.annotator, blind_label: i.blind_label, final_label: i.final_label });
    }
    warnings.push(...session.warnings);
  }
  onSession?.(names.length, names.length);
  return { source: `${project.dir} (sessions)`, records, hasBlind: true, warnings, itemIds: items.map((i) => i.id) };
}

/** Reads a file through the input stage as a stream into `reader`; the input stage's problems refuse it as a whole. */
async function readStreamed(file: string, lineBased: boolean, reader: { push(text: string): void; end(): void }, onBytes?: (read: number, total: number) => void): Promise<void> {
  const input = await streamInputFile(file, { limits: DEFAULT_STREAM_LIMITS, lineBased, ...(onBytes ? { onBytes } : {}) }, (text) => reader.push(text));
  if (input.problems.length > 0) throw new InputError(input.problems);
  reader.end();
}

export async function csvLabelSet(file: string): Promise<LabelSet> {
  const records: LabelRecord[] = [];
  await readStreamed(file, false, new LabelCsvReader(file, (r) => records.push(r)));
  return { source: file, records, hasBlind: false, warnings: [] };
}

/** The labels of an `aloud export` file of any size, read record by record (limits per line and per record). */
export async function exportLabelSet(file: string, onBytes?: (read: number, total: number) => void): Promise<LabelSet> {
  const format = exportFormatFromFileName(file);
  if (format === null || (format !== 'jsonl' && format !== 'json' && format !== 'csv')) {
    throw new InputError([{ file, line: null, field: null, stage: 'input', message: 'an export file ends in .jsonl, .json or .csv' }]);
  }
  const records: LabelRecord[] = [];
  await readStreamed(file, format !== 'json', new ExportLabelsReader(file, format, (r) => records.push(r), DEFAULT_STREAM_LIMITS.maxRecordBytes), onBytes);
  return { source: file, records, hasBlind: true, warnings: [] };
}

/** A norming room's log: the revealed items, blind = the vote before the reveal, final = the vote now. */
export async function roomLabelSet(file: string): Promise<LabelSet & { labels: string[] }> {
  const { events, torn } = await readRoomLog(file);
  const state = foldRoom(events, file);
  return {
    source: file,
    records: roomLabelRecords(state),
    hasBlind: true,
    labels: state.labels,
    warnings: torn ? [`${file}:${torn.line}: torn last line (a crash while writing) left out`] : [],
  };
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
        throw new InputError([{ file: set.source, line: null, field: null, stage: 'rule', message: `"${r.annotator}" labels item "${r.item_id}" here and in ${before}: give each annotator's labels once` }]);
      }
      seen.set(key, set.source);
      records.push(r);
    }
  }
  return records;
}
