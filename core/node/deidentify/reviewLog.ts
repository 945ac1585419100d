import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExportRecordV2 } from '../../common/export/exportRecord';
import type { SpanRef } from '../../common/deidentify/deidentifyRecord';
import {
  REVIEW_DECISION_KINDS,
  REVIEW_EVENT_TYPE,
  REVIEW_EVENT_VERSION,
  ReviewFold,
  type ReviewDecisionData,
} from '../../common/deidentify/reviewDecisions';
import { CLASS_PATTERN } from '../../common/deidentify/deidentifyList';
import { resolveInside } from '../fs/resolveInside';
import { sha256Hex } from '../fs/sha256';
import { ProjectError } from '../fs/projectError';
import type { OpenProject } from '../project/projectFolder';
import { sessionPaths } from '../session/sessionPaths';
import type { ReviewDecisionSource } from './deidentifyProject';
import { say } from '../../common/refusal/refusalMessage';

/** The annotator's de-identification review log, beside the session's events.jsonl. */
export const REVIEW_LOG_FILE = 'deidentify.jsonl';

export function reviewLogPath(project: OpenProject, annotator: string): string {
  return path.join(path.dirname(sessionPaths(project.dir, annotator).events), REVIEW_LOG_FILE);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** One line's decision, checked field by field; a bad line is an error naming file, line and field. */
function decisionOf(line: string, file: string, n: number): ReviewDecisionData {
  const fail = (what: string): never => {
    throw new ProjectError(say('refusal.deidentify.message', { file, n, what }));
  };
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch (e) {
    return fail(`not JSON (${(e as Error).message})`);
  }
  if (!isObject(event) || event.type !== REVIEW_EVENT_TYPE) return fail(`not a ${REVIEW_EVENT_TYPE} event`);
  if (event.v !== REVIEW_EVENT_VERSION) return fail(`v: version ${String(event.v)} is not one this Aloud reads (${REVIEW_EVENT_VERSION})`);
  const d = event.data;
  if (!isObject(d)) return fail('data: must be an object');
  if (typeof d.item_id !== 'string') fail('data.item_id: must be a string');
  if (!REVIEW_DECISION_KINDS.includes(d.decision as never)) fail(`data.decision: must be one of ${REVIEW_DECISION_KINDS.join(', ')}`);
  if (typeof d.class !== 'string' || !new RegExp(CLASS_PATTERN, 'u').test(d.class)) fail('data.class: must be a class like PERSON');
  if (typeof d.text_sha256 !== 'string' || !/^[0-9a-f]{64}$/u.test(d.text_sha256)) fail('data.text_sha256: must be a sha256');
  if (typeof d.reviewer !== 'string' || d.reviewer === '') fail('data.reviewer: must be a name');
  const s = d.span;
  if (
    !isObject(s) ||
    !isCount(s.utterance) ||
    !isCount(s.segment) ||
    !isCount(s.start) ||
    !isCount(s.end) ||
    (s.layer !== 'verbatim' && s.layer !== 'corrected')
  ) {
    fail('data.span: must be {utterance, segment, layer: verbatim|corrected, start, end}');
  }
  return d as unknown as ReviewDecisionData;
}

/** Every decision of one annotator's review log, in order (none when there is no log). */
export async function readReviewLog(project: OpenProject, annotator: string): Promise<ReviewDecisionData[]> {
  const file = reviewLogPath(project, annotator);
  let text: string;
  try {
    text = await readFile(await resolveInside(project.dir, path.relative(project.dir, file), 'read'), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as { status?: number }).status === 404) return [];
    throw new ProjectError(say('refusal.deidentify.cannotRead', { file, message: (e as Error).message }));
  }
  const lines = text.split('\n');
  // a last line without its newline is one a crash cut: left out, as the session log does
  if (lines.at(-1) !== '') lines.pop();
  return lines.flatMap((line, i) => (line === '' ? [] : [decisionOf(line, file, i + 1)]));
}

/** Appends one decision (one write, fsynced): the log is the record of the review. */
export async function appendReviewDecision(
  project: OpenProject,
  annotator: string,
  data: ReviewDecisionData,
  now: Date = new Date(),
): Promise<void> {
  const file = reviewLogPath(project, annotator);
  await mkdir(path.dirname(file), { recursive: true });
  const seq = (await readReviewLog(project, annotator)).length + 1;
  const target = await resolveInside(project.dir, path.relative(project.dir, file), 'write');
  const handle = await open(target, 'a+');
  try {
    // a last line a crash cut short was never a decision: cut it off, so the new line starts a line of its own
    const { size } = await handle.stat();
    const text = size === 0 ? '' : await readFile(target, 'utf8');
    if (text !== '' && !text.endsWith('\n')) await handle.truncate(Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
    await handle.write(`${JSON.stringify({ v: REVIEW_EVENT_VERSION, seq, ts: now.toISOString(), type: REVIEW_EVENT_TYPE, data })}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The sha256 of the text a span's layer names in a record: its segment's verbatim text or its correction. */
export function recordTextSha256(
  record: Pick<ExportRecordV2, 'segments' | 'corrections'>,
  span: Pick<SpanRef, 'utterance' | 'segment' | 'layer'>,
): string | null {
  const text = recordSegmentText(record, span);
  return text === null ? null : sha256Hex(text);
}

export function recordSegmentText(
  record: Pick<ExportRecordV2, 'segments' | 'corrections'>,
  span: Pick<SpanRef, 'utterance' | 'segment' | 'layer'>,
): string | null {
  if (span.layer === 'corrected')
    return record.corrections.find((c) => c.utterance === span.utterance && c.segment === span.segment)?.text ?? null;
  return record.segments.find((s) => s.utterance === span.utterance && s.index === span.segment)?.text ?? null;
}

/** The review decisions of the annotators' logs, as an export applies them: only those made on the texts the records hold. */
export async function loadReviewDecisions(project: OpenProject, annotators: readonly string[]): Promise<ReviewDecisionSource> {
  const folds = new Map<string, ReviewFold>();
  for (const a of annotators) {
    const fold = new ReviewFold();
    for (const d of await readReviewLog(project, a)) fold.apply(d);
    folds.set(a, fold);
  }
  const counts = { accepted: 0, rejected: 0, added: 0 };
  return {
    counts,
    decisionsOf(record) {
      const fold = folds.get(record.annotator);
      if (!fold) return { rejected: [], added: [] };
      const d = fold.decisionsOf(record.item_id, (span) => recordTextSha256(record, span));
      counts.accepted += d.accepted;
      counts.rejected += d.rejected.length;
      counts.added += d.added.length;
      return d;
    },
  };
}
