import { GuidelineHistoryFold, type FlaggedDecision, type GuidelineHistory } from '../../common/guidelines/guidelineHistory';
import { codeGuidelinesInForce, labelGuidelinesInForce, type GuidelineInForce } from '../../common/guidelines/guidelines';
import { readProjectAdjudication } from '../adjudication/adjudicationLog';
import { loadCodebook } from '../coding/projectCoding';
import { checkExportTarget } from '../exportFiles/exportTarget';
import { appVersion } from '../exportFiles/appVersion';
import { writeFileAtomic } from '../fs/atomicFile';
import { resolveInside } from '../fs/resolveInside';
import { sha256Hex } from '../fs/sha256';
import type { OpenProject } from '../project/projectFolder';
import { projectSessionSource } from '../session/projectSessions';
import { streamSessionLog } from '../session/sessionLogStream';
import { sessionPaths } from '../session/sessionPaths';

/** The events the history reads: the guidelines logged in force and the acts given under them. */
const HISTORY_EVENTS = new Set(['guideline_in_force', 'label_committed', 'labels_rederived', 'code_applied', 'code_removed']);

/** The guideline history and what reading it found (a torn last line of a log, left out). */
export interface ProjectGuidelineHistory extends GuidelineHistory {
  project: string;
  warnings: string[];
}

/** The guidelines in force under the project's files as they are now: the labels' (aloud.yaml) and the codes' (codebook.yaml). */
export async function guidelinesInForce(project: OpenProject): Promise<GuidelineInForce[]> {
  const labels = labelGuidelinesInForce(project.config, sha256Hex);
  const loaded = await loadCodebook(project);
  const codes =
    'codebook' in loaded
      ? codeGuidelinesInForce(loaded.codebook.codes, loaded.version, project.config.thinkaloud.languages[0] ?? 'en')
      : null;
  return [...(labels ? [labels] : []), ...(codes && codes.guidelines.length > 0 ? [codes] : [])];
}

/**
 * Every guideline version the project's logs recorded (read-only, one log at a time), with the versions in force now
 * and the adjudication decisions' guideline flags placed against the version the flagged item was labelled under.
 */
export async function projectGuidelineHistory(project: OpenProject): Promise<ProjectGuidelineHistory> {
  const fold = new GuidelineHistoryFold();
  const warnings: string[] = [];
  const names = [...(await projectSessionSource.annotators(project)), ...(await projectSessionSource.coders(project))];
  for (const name of names) {
    const file = await resolveInside(project.dir, sessionPaths(project.dir, name).events, 'read');
    const relevant: Array<{ type: string; ts: string; data: unknown }> = [];
    const { torn } = await streamSessionLog(file, (event) => {
      if (HISTORY_EVENTS.has(event.type)) relevant.push({ type: event.type, ts: event.ts, data: event.data });
    });
    if (torn) warnings.push(`${file}: torn last line (a crash while writing) left out`);
    fold.applyLog(name, relevant);
  }
  const adjudication = await readProjectAdjudication(project.dir);
  warnings.push(...adjudication.warnings);
  const flagged: FlaggedDecision[] = [];
  for (const [itemId, revisions] of adjudication.state.decisions) {
    // the decision that stands is the latest revision; its flag (if any) is the one that counts
    const last = revisions.at(-1);
    if (last && last.guideline_flag !== null)
      flagged.push({
        item_id: itemId,
        label: last.label,
        guideline_flag: last.guideline_flag,
        adjudicator: last.adjudicator,
        decided_at: last.decided_at,
      });
  }
  const history = fold.history(
    await guidelinesInForce(project),
    flagged,
    project.config.schema.labels.map((l) => l.name),
  );
  return { project: project.config.name, ...history, warnings };
}

/** What `aloud guidelines export` wrote. */
export interface GuidelineHistoryExport {
  file: string;
  versions: number;
  sha256: string;
}

/** The history as one JSON file (guideline_history_version 1), checked like every export target before it is written. */
export async function exportGuidelineHistory(options: {
  project: OpenProject;
  out: string;
  force: boolean;
  now?: Date;
}): Promise<GuidelineHistoryExport> {
  const { project, out } = options;
  await checkExportTarget(project, out, 'file', { force: options.force });
  const { warnings: _warnings, ...history } = await projectGuidelineHistory(project);
  const text = `${JSON.stringify(
    {
      guideline_history_version: 1,
      ...history,
      app_version: await appVersion(),
      exported_at: (options.now ?? new Date()).toISOString(),
    },
    null,
    2,
  )}\n`;
  await writeFileAtomic(out, text);
  return { file: out, versions: history.versions.length, sha256: sha256Hex(Buffer.from(text, 'utf8')) };
}
