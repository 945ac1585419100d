import { agreementReport, type AnnotatorLabels } from '../../common/agreement/agreementReport';
import type { AgreementReport } from '../../common/contract/aloudApi';
import { projectSessionSource } from '../export/projectSessions';
import type { SessionSource } from '../export/sessionSource';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';

/**
 * Agreement over every annotator session in the project (read-only: no lock taken, nothing repaired). One session is
 * folded at a time and only its labels are kept.
 */
export async function projectAgreement(project: OpenProject, sessions: SessionSource = projectSessionSource): Promise<AgreementReport & { warnings: string[] }> {
  const items = await loadProjectItems(project);
  const labels: AnnotatorLabels[] = [];
  const warnings: string[] = [];
  for (const name of await sessions.annotators(project)) {
    const session = await sessions.load(project, name);
    labels.push({ annotator: session.annotator, items: session.items.map((i) => ({ item_id: i.item_id, blind_label: i.blind_label, final_label: i.final_label })) });
    warnings.push(...session.warnings);
  }
  return { ...agreementReport(project.config.schema, items.map((i) => i.id), labels), warnings };
}
