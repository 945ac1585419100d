import { reportWords, type ReportWords } from './reportWords';
import type { SessionKind } from '../session/sessionEvents';
import type { LabelRecord } from './agreementAnalysis';

/**
 * What agreement counts as an annotator's label. By default: completed items only (a label on an item never
 * completed is work in progress), the annotator's own acts only (a label a reviewer derived from their corrections is
 * the reviewer's), annotator sessions only (a norming room's write-back repeats votes the room already measured).
 */
export interface CountingRules {
  includeIncomplete: boolean;
  includeReviewers: boolean;
  includeRooms: boolean;
}

export const DEFAULT_COUNTING: CountingRules = { includeIncomplete: false, includeReviewers: false, includeRooms: false };

/** What a huddle discusses: the annotators' own labels on any item, finished or not (a room's write-back is not a voice in it). */
export const HUDDLE_COUNTING: CountingRules = { includeIncomplete: true, includeReviewers: false, includeRooms: false };

/** One annotator's work on one item, as sessions and export records both give it. */
export interface CountableItem {
  item_id: string;
  completed: boolean;
  /** every label act in occurrence order, with the reviewer whose act it is (null: the annotator's) */
  acts: ReadonlyArray<{ label: string; reviewer: string | null }>;
  /** the blind label as the source recorded it, when it has one (a file row without the timeline); absent: the first act's */
  blind?: string | null;
  /** the final label as the source recorded it, when it has one (a file row): it stands unless a rule left acts out */
  final?: string | null;
}

export interface CountableSession {
  annotator: string;
  kind: SessionKind;
  items: readonly CountableItem[];
}

/** What the rules left out, for the output to say. */
export interface CountingReport {
  rules: CountingRules;
  /** labelled items left out because they were never completed */
  incomplete_items: number;
  /** items whose final label counted is the annotator's, not the reviewer's later one */
  reviewer_labels_left_out: number;
  /** room write-back sessions left out (their names) */
  room_sessions_left_out: string[];
}

/** The label records agreement counts under the rules, and what the rules left out. */
export function countedLabels(
  sessions: readonly CountableSession[],
  rules: CountingRules = DEFAULT_COUNTING,
): { records: LabelRecord[]; report: CountingReport } {
  const report: CountingReport = { rules, incomplete_items: 0, reviewer_labels_left_out: 0, room_sessions_left_out: [] };
  const records: LabelRecord[] = [];
  for (const session of sessions) {
    if (session.kind === 'room' && !rules.includeRooms) {
      if (session.items.some((i) => i.acts.length > 0)) report.room_sessions_left_out.push(session.annotator);
      continue;
    }
    for (const item of session.items) {
      if (item.acts.length === 0) continue;
      if (!item.completed && !rules.includeIncomplete) {
        report.incomplete_items++;
        continue;
      }
      const acts = rules.includeReviewers ? item.acts : item.acts.filter((a) => a.reviewer === null);
      if (acts.length !== item.acts.length && acts.at(-1)?.label !== item.acts.at(-1)?.label) report.reviewer_labels_left_out++;
      if (acts.length === 0) continue;
      const final = item.final !== undefined && acts.length === item.acts.length ? item.final : acts.at(-1)!.label;
      records.push({
        item_id: item.item_id,
        annotator: session.annotator,
        blind_label: item.blind !== undefined ? item.blind : acts[0]!.label,
        final_label: final,
      });
    }
  }
  return { records, report };
}

/** The lines that say what was counted (printed with every agreement, written in the HTML report). */
export function describeCounting(report: CountingReport, t: ReportWords = reportWords('en')): string[] {
  const { rules } = report;
  return [
    rules.includeIncomplete
      ? t('report.counting.everyItem')
      : report.incomplete_items > 0
        ? t('report.counting.incompleteLeftOut', { count: report.incomplete_items, n: String(report.incomplete_items) })
        : t('report.counting.completedOnly'),
    rules.includeReviewers
      ? t('report.counting.reviewers')
      : report.reviewer_labels_left_out > 0
        ? t('report.counting.reviewerLeftOut', { count: report.reviewer_labels_left_out, n: String(report.reviewer_labels_left_out) })
        : t('report.counting.ownLabels'),
    rules.includeRooms
      ? t('report.counting.rooms')
      : report.room_sessions_left_out.length > 0
        ? t('report.counting.roomsLeftOut', { sessions: report.room_sessions_left_out.join(', ') })
        : t('report.counting.annotatorsOnly'),
  ];
}

/** The reports of several inputs as one (the same rules applied to each). */
export function mergeCountingReports(reports: readonly CountingReport[]): CountingReport {
  return {
    rules: reports[0]?.rules ?? DEFAULT_COUNTING,
    incomplete_items: reports.reduce((n, r) => n + r.incomplete_items, 0),
    reviewer_labels_left_out: reports.reduce((n, r) => n + r.reviewer_labels_left_out, 0),
    room_sessions_left_out: [...new Set(reports.flatMap((r) => r.room_sessions_left_out))],
  };
}
