import { agreementReport } from '../../common/agreement/agreementReport';
import { countedLabels, DEFAULT_COUNTING, type CountableSession } from '../../common/agreement/countingRules';
import { countableSession, sessionTimeOnItem } from './agreementSources';
import { timeOnItemReport, type TimeOnItemEntry } from '../../common/agreement/timeOnItem';
import type { AgreementReport } from '../../common/agreement/agreementApi';
import { projectSessionSource } from '../session/projectSessions';
import type { SessionSource } from '../session/sessionSource';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';

/**
 * Agreement over the project's annotator sessions under the default counting rules (completed items, the annotators'
 * own labels, no room write-backs), read-only: no lock taken, nothing repaired. One session is folded at a time and
 * only its label acts are kept.
 */
export async function projectAgreement(
  project: OpenProject,
  sessions: SessionSource = projectSessionSource,
): Promise<AgreementReport & { warnings: string[] }> {
  const items = await loadProjectItems(project);
  const countable: CountableSession[] = [];
  const warnings: string[] = [];
  const times: TimeOnItemEntry[] = [];
  for (const name of await sessions.annotators(project)) {
    const session = await sessions.load(project, name);
    countable.push(countableSession(session));
    times.push(...sessionTimeOnItem(session));
    warnings.push(...session.warnings);
  }
  const { records } = countedLabels(countable, DEFAULT_COUNTING);
  // every annotator's session is a column, also before it has a counted label; a room's write-back is not
  const labels = countable
    .filter((s) => s.kind === 'annotator')
    .map(({ annotator }) => ({ annotator, items: records.filter((r) => r.annotator === annotator) }));
  const annotators = labels.map((l) => l.annotator);
  return {
    ...agreementReport(
      project.config.schema,
      items.map((i) => i.id),
      labels,
    ),
    time_on_item: timeOnItemReport(
      times,
      annotators,
      items.map((i) => i.id),
      project.config.time_on_item.idle_gap_seconds * 1000,
    ),
    warnings,
  };
}
