import { JsonArrayStream } from '../../common/io/jsonArrayStream';
import { JsonLinesStream } from '../../common/io/jsonInput';
import { InputError, type InputProblem } from '../../common/io/inputProblem';
import { exportFormatFromFileName } from '../../common/export/exportFormats';
import { type HesitationMeasures, hesitationMeasuresOf } from '../../common/labelModels/hesitationEvidence';
import { projectSessionSource } from '../session/projectSessions';
import type { SessionSource } from '../session/sessionSource';
import { DEFAULT_STREAM_LIMITS, streamInputFile } from '../importing/inputStream';
import type { OpenProject } from '../project/projectFolder';

/** Hesitation measures by (item, annotator): the key is JSON.stringify([item_id, annotator]). */
export type HesitationByPair = Map<string, HesitationMeasures>;

export const pairKey = (itemId: string, annotator: string): string => JSON.stringify([itemId, annotator]);

/** The measures of every item of every session of the project, from the session fold (read-only). */
export async function projectHesitation(project: OpenProject, sessions: SessionSource = projectSessionSource): Promise<HesitationByPair> {
  const measures: HesitationByPair = new Map();
  for (const name of await sessions.annotators(project)) {
    const session = await sessions.load(project, name);
    for (const item of session.items) {
      const m = hesitationMeasuresOf(item.signals);
      if (m) measures.set(pairKey(item.item_id, session.annotator), m);
    }
  }
  return measures;
}

/**
 * The measures in an export file's records (`signals`), streamed. JSON Lines and JSON only: a CSV export carries some
 * counts but not the pauses, so it is reported as having none rather than read half.
 */
export async function exportHesitation(file: string): Promise<{ measures: HesitationByPair; warning: string | null }> {
  const measures: HesitationByPair = new Map();
  const format = exportFormatFromFileName(file);
  if (format !== 'jsonl' && format !== 'json')
    return { measures, warning: `${file}: hesitation measures are read from .jsonl and .json exports; this file adds none` };
  const problems: InputProblem[] = [];
  const take = (located: { value: unknown }): void => {
    const r = located.value as { item_id?: unknown; annotator?: unknown; signals?: unknown } | null;
    if (!r || typeof r !== 'object' || typeof r.item_id !== 'string' || typeof r.annotator !== 'string') return;
    const m = hesitationMeasuresOf((r.signals ?? null) as Parameters<typeof hesitationMeasuresOf>[0]);
    if (m) measures.set(pairKey(r.item_id, r.annotator), m);
  };
  const feed =
    format === 'jsonl'
      ? new JsonLinesStream(file, take, (p) => problems.push(p))
      : new JsonArrayStream(file, 'export records', take, DEFAULT_STREAM_LIMITS.maxRecordBytes);
  const input = await streamInputFile(file, { limits: DEFAULT_STREAM_LIMITS, lineBased: format === 'jsonl' }, (text) => feed.push(text));
  if (input.problems.length > 0) throw new InputError(input.problems);
  feed.end();
  if (problems.length > 0) throw new InputError(problems);
  return { measures, warning: null };
}
