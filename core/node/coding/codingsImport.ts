import { sameNameKey, TakenNames } from '../../common/names/personNames';
import { decideImportedCodings, parseCodingsCsv, type CodingImportFacts } from '../../common/coding/codingImport';
import type { ProtocolFacts } from '../../common/coding/codingRules';
import { asRefusal } from '../../common/refusal/refusal';
import type { SessionEntry } from '../../common/session/sessionFold';
import { projectSessionSource } from '../session/projectSessions';
import { allSessionNames, type AnnotatorStates } from '../session/sessionSource';
import { readInputFile } from '../fs/inputFile';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';
import { normalizeAnnotatorName, sessionPaths } from '../session/sessionPaths';
import { eachLimited } from '../../common/concurrency/eachLimited';
import { SessionStore } from '../session/sessionStore';
import { codeGuidelinesOf, codingContext, loadCodebook, protocolFacts } from './projectCoding';

export interface CodingsImportSummary {
  source: string;
  source_sha256: string;
  rows: number;
  /** per coder: codings and memos logged, protocols finished, whether their session was made by this import */
  coders: Array<{ coder: string; codings: number; memos: number; protocols: number; new_session: boolean }>;
  codebook_version: string;
  dry_run: boolean;
}

/** how many coders' sessions an import makes and writes at once */
const IMPORT_LANES = 8;

/**
 * `aloud import --project DIR --codings FILE.csv`: codings made elsewhere become each coder's own coding events, all or
 * nothing. Every row is checked against the project read-only first (no session is made or opened for a refused file);
 * then the sessions coders have already are opened (each one's lock; a coder at work in the app refuses the import
 * before anything is written) and the rows decided again on their logs as locked; the new coders' sessions are made
 * only then, and each coder's events appended as one commit point.
 */
export async function importCodings(options: { project: OpenProject; source: string; dryRun: boolean }): Promise<CodingsImportSummary> {
  const { project, source } = options;
  const input = await readInputFile(source, { lineBased: true });
  const rows = parseCodingsCsv(input.text, source);
  const items = new Set((await loadProjectItems(project)).map((i) => i.id));
  // every session: a coder imported before has a session of kind coder (not an annotator), reused
  const annotators = await allSessionNames(projectSessionSource, project);
  // one person, one spelling: "Bob" in the table is the session of "bob"
  const spelled = new Map(annotators.map((name) => [sameNameKey(name), name]));
  const canonical = (name: string): string => spelled.get(sameNameKey(name)) ?? normalizeAnnotatorName(name);
  for (const row of rows) {
    row.annotator = canonical(row.annotator);
    row.coder = canonical(row.coder);
  }
  const loaded = new Map<string, AnnotatorStates>();
  const sessionOf = async (name: string): Promise<AnnotatorStates | null> => {
    if (!annotators.includes(name)) return null;
    if (!loaded.has(name)) loaded.set(name, await projectSessionSource.load(project, name));
    return loaded.get(name)!;
  };
  for (const name of new Set(rows.flatMap((r) => [r.annotator, r.coder]))) await sessionOf(name);
  const codebook = await loadCodebook(project);
  const context = codingContext(project, '', codebook);

  // each protocol's facts once: a table codes the same protocol on many rows (by many coders)
  const protocols = new Map<string, ProtocolFacts | string>();
  const protocol = (annotator: string, item: string): ProtocolFacts | string => {
    const key = JSON.stringify([annotator, item]);
    if (!protocols.has(key)) protocols.set(key, protocolOf(annotator, item));
    return protocols.get(key)!;
  };
  const protocolOf = (annotator: string, item: string): ProtocolFacts | string => {
    if (!items.has(item)) return `"${item}" is not an item of the project`;
    const session = loaded.get(annotator);
    if (!session) return `"${annotator}" has no session in this project (sessions: ${annotators.join(', ') || 'none'})`;
    const state = session.items.find((i) => i.item_id === item);
    if (!state || state.segments.length === 0) return `${annotator} has no transcript of "${item}"`;
    return protocolFacts(project, annotator, state);
  };
  // one rule for people's names: a new coder who looks like a person already there (or earlier in the file) is refused
  const taken = new TakenNames(annotators);
  const coderProblems = new Map<string, string | null>();
  const coderProblem = (coder: string): string | null => {
    if (coderProblems.has(coder)) return coderProblems.get(coder)!;
    let problem: string | null = null;
    try {
      sessionPaths(project.dir, coder);
      const like = taken.add(coder);
      if (like !== null) problem = `"${coder}" looks like the existing coder "${like}"; write that name, or one that looks different`;
    } catch (e) {
      problem = asRefusal(e).message;
    }
    coderProblems.set(coder, problem);
    return problem;
  };
  const facts = (coderFold: CodingImportFacts['coderFold']): CodingImportFacts => ({
    file: source,
    protocol,
    coderFold,
    coderProblem,
    context,
  });
  const summary = (decided: Map<string, SessionEntry[]>): CodingsImportSummary => ({
    source,
    source_sha256: input.sha256,
    rows: rows.length,
    coders: [...decided].map(([coder, entries]) => ({
      coder,
      codings: entries.filter((e) => e.type === 'code_applied').length,
      memos: entries.filter((e) => e.type === 'coding_memo').length,
      protocols: entries.filter((e) => e.type === 'coding_finished').length,
      new_session: !annotators.includes(coder),
    })),
    codebook_version: 'version' in codebook ? codebook.version : '',
    dry_run: options.dryRun,
  });
  // read-only: a refused file opens no session (opening one logs that it was resumed)
  const readOnly = decideImportedCodings(
    rows,
    facts((coder) => {
      const codings = loaded.get(coder)?.codings;
      return codings ? { protocolCoding: (a, i) => codings.protocols.find((p) => p.annotator === a && p.item_id === i) ?? null } : null;
    }),
  );
  if (options.dryRun) return summary(readOnly);

  // The coders who have a session already are locked (a lock held elsewhere refuses before anything is written) and
  // the rows decided again on their logs as locked; a coder new to the project has an empty log, so her session is
  // made only after every row was accepted.
  const stores = new Map<string, SessionStore>();
  try {
    for (const coder of readOnly.keys())
      if (annotators.includes(coder)) stores.set(coder, await SessionStore.open({ project, annotator: coder }));
    const decided = decideImportedCodings(
      rows,
      facts((coder) => stores.get(coder)?.coding ?? null),
    );
    // a coder without a session is not an annotator: their new log says so (kind coder), so exports and counts leave it out
    // sessions are made and written several at a time: each waits on the disk, not on the processor
    await eachLimited(
      [...decided.keys()].filter((coder) => !stores.has(coder)),
      IMPORT_LANES,
      async (coder) => {
        // TakenNames above judged every new coder against the project's sessions and each other
        stores.set(coder, await SessionStore.open({ project, annotator: coder, kind: 'coder', lookAlikesJudged: true }));
      },
    );
    const codeGuidelines = codeGuidelinesOf(project, context);
    await eachLimited(decided, IMPORT_LANES, async ([coder, entries]) => {
      stores.get(coder)!.codeGuidelines = codeGuidelines;
      await stores.get(coder)!.commit(() => entries);
    });
    return summary(decided);
  } finally {
    for (const store of stores.values()) await store.close().catch(() => undefined);
  }
}
