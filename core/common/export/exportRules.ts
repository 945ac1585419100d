import type { InputProblem } from '../io/inputProblem';
import type { LocatedValue } from '../io/jsonInput';
import { parseHistoryEntry, splitCsvList } from './exportCsvColumns';
import {
  commitmentUtf16Span,
  offsetUnitOf,
  ownFinalLabel,
  type AnyExportRecord,
  type ExportRecordV2,
  type ExportRecordV3,
  type ExportRecordV4,
  type ExportRecordV5,
} from './exportRecord';
import { codePointLength } from '../text/codePoints';

/** What a project says about its items and labels; without it only the rules internal to the file are checked. */
export interface ExportProjectFacts {
  name: string;
  labels: readonly string[];
  /** item id → sha256 of its text and of its context (null without context) */
  items: ReadonlyMap<string, { textSha256: string; contextSha256: string | null }>;
}

/**
 * The rule stage of an export, on records that passed the schema: no duplicate (annotator, item); every
 * commitment's quote is the exact transcript substring at its offsets; a label source exactly when a label; a
 * voice label is the last commitment's;
 * segments do not end before they start; audio paths stay inside the project. With the project: every item id
 * exists with the same text and context, every label is in the label schema, the project name matches.
 */
export function exportRuleProblems(records: readonly LocatedValue[], file: string, project: ExportProjectFacts | null): InputProblem[] {
  const check = exportRuleChecker(file, project);
  return records.flatMap((r) => check(r));
}

/** One record's rule problems at a time, remembering the (annotator, item) pairs seen: the rule stage of a stream. */
export type RuleChecker = (located: LocatedValue) => InputProblem[];

/** exportRuleProblems record by record (same rules, same order of problems). */
export function exportRuleChecker(file: string, project: ExportProjectFacts | null): RuleChecker {
  const firstLine = new Map<string, number>();
  const labels = project ? new Set(project.labels) : null;
  return (located) => {
    const problems: InputProblem[] = [];
    const r = located.value as AnyExportRecord;
    const at = (pointer: string, field: string, message: string): void => {
      const prefix = located.pointer === '' ? '' : `[${located.pointer.slice(1)}].`;
      problems.push({ file, line: located.locate(pointer), field: prefix + field, stage: 'rule', message });
    };
    // v2 records say which of their labels the configuration no longer has: recorded labels, kept as they were
    const declared = new Set(r.schema_version !== 1 ? r.labels_not_in_schema : []);
    const key = JSON.stringify([r.annotator, r.item_id]);
    const first = firstLine.get(key);
    if (first !== undefined)
      at('/item_id', 'item_id', `duplicate record for annotator "${r.annotator}" and item "${r.item_id}" (first on line ${first})`);
    else firstLine.set(key, located.line);

    r.commitments.forEach((c, i) => {
      const where = `/commitments/${i}`;
      // offsets in the version's unit: UTF-16 code units up to v3, code points from v4
      const unit = offsetUnitOf(r.schema_version);
      const length = r.transcript === null ? 0 : unit === 'utf16' ? r.transcript.length : codePointLength(r.transcript);
      if (r.transcript === null) at(where, `commitments[${i}].quote`, 'a commitment without a transcript: its quote cannot be checked');
      else if (c.end < c.start || c.end > length) {
        at(
          where,
          `commitments[${i}].end`,
          `offsets ${c.start}..${c.end} are outside the transcript (length ${length} ${unit === 'utf16' ? 'UTF-16 code units' : 'code points'})`,
        );
      } else {
        const span = commitmentUtf16Span(r.transcript, c, r.schema_version);
        const text = r.transcript.slice(span.start, span.end);
        if (text !== c.quote)
          at(
            where,
            `commitments[${i}].quote`,
            `quote ${JSON.stringify(c.quote)} is not the transcript text at ${c.start}..${c.end} ${unit === 'utf16' ? 'UTF-16 code units' : 'code points'} (${JSON.stringify(text)})`,
          );
      }
      if (labels && !labels.has(c.label) && !declared.has(c.label))
        at(where, `commitments[${i}].label`, `label "${c.label}" is not in the project's label schema`);
    });
    if ((r.final_label === null) !== (r.label_source === null)) {
      at(
        '/label_source',
        'label_source',
        r.final_label === null ? 'a label source without a final label' : 'a final label needs its label_source',
      );
    }
    if (r.label_source === 'voice' && r.final_label !== null) {
      // a spoken final label is the last commitment's: anything else was edited after the fact
      const last = r.commitments[r.commitments.length - 1];
      if (!last) at('/label_source', 'label_source', 'label_source is "voice" but the record has no commitment');
      else if (last.label !== r.final_label)
        at('/final_label', 'final_label', `final label "${r.final_label}" by voice is not the last commitment's label ("${last.label}")`);
    }
    if (r.schema_version !== 1) timelineProblems(r, at, labels);
    if (r.schema_version >= 3) methodsProblems(r as ExportRecordV3 | ExportRecordV4 | ExportRecordV5, at);
    r.segments.forEach((s, i) => {
      if (s.t1_ms < s.t0_ms) at(`/segments/${i}`, `segments[${i}].t1_ms`, `segment ends (${s.t1_ms} ms) before it starts (${s.t0_ms} ms)`);
    });
    if (r.audio && (/^([/\\]|[A-Za-z]:)/.test(r.audio.path) || r.audio.path.split(/[/\\]/).includes('..'))) {
      at('/audio/path', 'audio.path', `audio path "${r.audio.path}" must be relative to the project folder and stay inside it`);
    }
    if (!project || !labels) return problems;
    if (r.project !== project.name) at('/project', 'project', `project "${r.project}" is not this project ("${project.name}")`);
    const item = project.items.get(r.item_id);
    if (!item) at('/item_id', 'item_id', `item "${r.item_id}" does not exist in the project`);
    else {
      if (item.textSha256 !== r.item_text_sha256)
        at('/item_text_sha256', 'item_text_sha256', `item "${r.item_id}" has different text in the project now`);
      if (item.contextSha256 !== r.item_context_sha256)
        at('/item_context_sha256', 'item_context_sha256', `item "${r.item_id}" has a different context in the project now`);
    }
    for (const field of ['final_label', 'blind_label'] as const) {
      const label = r[field];
      if (label !== null && !labels.has(label) && !declared.has(label))
        at(`/${field}`, field, `label "${label}" is not in the project's label schema (${[...labels].join(', ')})`);
    }
    return problems;
  };
}

type At = (pointer: string, field: string, message: string) => void;

/** v3: the annotator's own final label is their last act's; completed exactly when there is a completion time. */
function methodsProblems(r: ExportRecordV3 | ExportRecordV4 | ExportRecordV5, at: At): void {
  const own = ownFinalLabel(r.label_history);
  if (r.own_final_label !== own)
    at(
      '/own_final_label',
      'own_final_label',
      `own_final_label ${JSON.stringify(r.own_final_label)} is not the annotator's last act's (${JSON.stringify(own)}; a reviewer's acts are left out)`,
    );
  if (r.completed !== (r.completed_at !== null))
    at('/completed', 'completed', `completed is ${String(r.completed)} but completed_at is ${JSON.stringify(r.completed_at)}`);
  if (r.first_completed_at !== null && r.completed_at === null)
    at(
      '/first_completed_at',
      'first_completed_at',
      'first_completed_at without completed_at: an item completed once has a last completion',
    );
}

/** v2: the labels are the timeline's — final the last act, blind the first, acts in the order they happened. */
function timelineProblems(
  r: ExportRecordV2 | ExportRecordV3 | ExportRecordV4 | ExportRecordV5,
  at: At,
  labels: ReadonlySet<string> | null,
): void {
  const history = r.label_history;
  let changes = 0;
  for (let i = 1; i < history.length; i++) if (history[i]!.label !== history[i - 1]!.label) changes++;
  if (r.signals !== null && history.length > 0 && r.signals.label_changes !== changes) {
    at(
      '/signals/label_changes',
      'signals.label_changes',
      `label_changes is ${String(r.signals.label_changes)} but the label history changes label ${changes} time(s)`,
    );
  }
  r.labels_not_in_schema.forEach((label, i) => {
    if (!history.some((h) => h.label === label))
      at(`/labels_not_in_schema/${i}`, `labels_not_in_schema[${i}]`, `"${label}" is not a label of the history`);
    if (labels?.has(label)) at(`/labels_not_in_schema/${i}`, `labels_not_in_schema[${i}]`, `"${label}" is in the project's label schema`);
  });
  if (labels) {
    const declared = new Set(r.labels_not_in_schema);
    history.forEach((h, i) => {
      if (!labels.has(h.label) && !declared.has(h.label))
        at(`/label_history/${i}/label`, `label_history[${i}].label`, `label "${h.label}" is not in the project's label schema`);
    });
  }
  const last = history[history.length - 1];
  const first = history[0];
  if ((last?.label ?? null) !== r.final_label)
    at(
      '/final_label',
      'final_label',
      `final label ${JSON.stringify(r.final_label)} is not the last label act's (${JSON.stringify(last?.label ?? null)})`,
    );
  if ((last?.source ?? null) !== r.label_source)
    at(
      '/label_source',
      'label_source',
      `label_source ${JSON.stringify(r.label_source)} is not the last label act's (${JSON.stringify(last?.source ?? null)})`,
    );
  if ((first?.label ?? null) !== r.blind_label)
    at(
      '/blind_label',
      'blind_label',
      `blind label ${JSON.stringify(r.blind_label)} is not the first label act's (${JSON.stringify(first?.label ?? null)})`,
    );
  for (let i = 1; i < history.length; i++) {
    if (Date.parse(history[i]!.at) < Date.parse(history[i - 1]!.at))
      at(
        `/label_history/${i}`,
        `label_history[${i}].at`,
        `label act at ${history[i]!.at} is before the one listed before it (${history[i - 1]!.at}): the history is in occurrence order`,
      );
  }
  const voice = history.filter((h) => h.source === 'voice').length;
  if (voice !== r.commitments.length)
    at('/label_history', 'label_history', `${voice} voice act(s) but ${r.commitments.length} commitment(s)`);
}

/** Rules on the rows of a v2 CSV (typed cells that passed the row schema): the rules that its flat columns allow. */
export function csvRowRuleProblems(rows: readonly LocatedValue[], file: string, project: ExportProjectFacts | null): InputProblem[] {
  const check = csvRowRuleChecker(file, project);
  return rows.flatMap((r) => check(r));
}

/** csvRowRuleProblems row by row. */
export function csvRowRuleChecker(file: string, project: ExportProjectFacts | null): RuleChecker {
  const firstLine = new Map<string, number>();
  const labels = project ? new Set(project.labels) : null;
  return (located) => {
    const problems: InputProblem[] = [];
    const r = located.value as Record<string, string | number | boolean | null>;
    const at = (field: string, message: string): void => {
      problems.push({ file, line: located.line, field, stage: 'rule', message });
    };
    const key = JSON.stringify([r.annotator, r.item_id]);
    const firstSeen = firstLine.get(key);
    if (firstSeen !== undefined)
      at('item_id', `duplicate record for annotator "${String(r.annotator)}" and item "${String(r.item_id)}" (first on line ${firstSeen})`);
    else firstLine.set(key, located.line);
    if ((r.final_label === null) !== (r.label_source === null))
      at('label_source', r.final_label === null ? 'a label source without a final label' : 'a final label needs its label_source');
    const history = typeof r.label_history === 'string' ? splitCsvList(r.label_history).map(parseHistoryEntry) : [];
    if (history.some((h) => h === null)) at('label_history', 'an entry is not source:label@time');
    const acts = history.filter((h): h is NonNullable<typeof h> => h !== null);
    const first = acts[0];
    const last = acts[acts.length - 1];
    if ((last?.label ?? null) !== r.final_label)
      at(
        'final_label',
        `final label ${JSON.stringify(r.final_label)} is not the last label act's (${JSON.stringify(last?.label ?? null)})`,
      );
    if ((last?.source ?? null) !== r.label_source)
      at(
        'label_source',
        `label_source ${JSON.stringify(r.label_source)} is not the last label act's (${JSON.stringify(last?.source ?? null)})`,
      );
    if ((first?.label ?? null) !== r.blind_label)
      at(
        'blind_label',
        `blind label ${JSON.stringify(r.blind_label)} is not the first label act's (${JSON.stringify(first?.label ?? null)})`,
      );
    let changes = 0;
    for (let i = 1; i < acts.length; i++) if (acts[i]!.label !== acts[i - 1]!.label) changes++;
    if (acts.length > 0 && r.label_changes !== changes)
      at('label_changes', `label_changes is ${String(r.label_changes)} but the label history changes label ${changes} time(s)`);
    if (Number(r.schema_version) >= 3 && r.completed !== (r.completed_at !== null))
      at('completed', `completed is ${String(r.completed)} but completed_at is ${JSON.stringify(r.completed_at)}`);
    if (typeof r.audio_path === 'string' && (/^([/\\]|[A-Za-z]:)/.test(r.audio_path) || r.audio_path.split(/[/\\]/).includes('..'))) {
      at('audio_path', `audio path "${r.audio_path}" must be relative to the project folder and stay inside it`);
    }
    if (!project || !labels) return problems;
    if (r.project !== project.name) at('project', `project "${String(r.project)}" is not this project ("${project.name}")`);
    const item = project.items.get(String(r.item_id));
    if (!item) at('item_id', `item "${String(r.item_id)}" does not exist in the project`);
    else {
      if (item.textSha256 !== r.item_text_sha256)
        at('item_text_sha256', `item "${String(r.item_id)}" has different text in the project now`);
      if (item.contextSha256 !== r.item_context_sha256)
        at('item_context_sha256', `item "${String(r.item_id)}" has a different context in the project now`);
    }
    const declared = new Set(typeof r.labels_not_in_schema === 'string' ? splitCsvList(r.labels_not_in_schema) : []);
    for (const label of declared) {
      if (labels.has(label)) at('labels_not_in_schema', `"${label}" is in the project's label schema`);
      if (!acts.some((a) => a.label === label)) at('labels_not_in_schema', `"${label}" is not a label of the history`);
    }
    for (const field of ['final_label', 'blind_label'] as const) {
      const label = r[field];
      if (typeof label === 'string' && !labels.has(label) && !declared.has(label))
        at(field, `label "${label}" is not in the project's label schema (${[...labels].join(', ')})`);
    }
    return problems;
  };
}
