import { agreementReport } from '../../common/agreement/agreementReport';
import { countedLabels, DEFAULT_COUNTING } from '../../common/agreement/countingRules';
import { countableSession } from './agreementSources';
import type { AgreementReport } from '../../common/contract/aloudApi';
import { projectSessionSource } from '../export/projectSessions';
import type { SessionSource } from '../export/sessionSource';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';

/**
 * Agreement over the project's annotator sessions under the default counting rules (completed items, the annotators'
 * own labels, no room write-backs), read-only: no lock taken, nothing repaired.
 */
export async function projectAgreement(project: OpenProject, sessions: SessionSource = projectSessionSource): Promise<AgreementReport & { warnings: string[] }> {
  const items = await loadProjectItems(project);
  const names = await sessions.annotators(project);
  const loaded = await Promise.all(names.map((name) => sessions.load(project, name)));
  const { records } = countedLabels(loaded.map(countableSession), DEFAULT_COUNTING);
  const counted = [...new Set(records.map((r) => r.annotator))].map((annotator) => ({ annotator, items: records.filter((r) => r.annotator === annotator) }));
  return {
    ...agreementReport(project.config.schema, items.map((i) => i.id), counted),
    warnings: loaded.flatMap((s) => s.warnings),
  };
}
