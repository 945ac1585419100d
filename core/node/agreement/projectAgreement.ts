import { agreementReport } from '../../common/agreement/agreementReport';
import type { AgreementReport } from '../../common/contract/aloudApi';
import { projectSessionSource } from '../export/projectSessions';
import type { SessionSource } from '../export/sessionSource';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';

/** Agreement over every annotator session in the project (read-only: no lock taken, nothing repaired). */
export async function projectAgreement(project: OpenProject, sessions: SessionSource = projectSessionSource): Promise<AgreementReport & { warnings: string[] }> {
  const items = await loadProjectItems(project);
  const names = await sessions.annotators(project);
  const loaded = await Promise.all(names.map((name) => sessions.load(project, name)));
  return {
    ...agreementReport(project.config.schema, items.map((i) => i.id), loaded),
    warnings: loaded.flatMap((s) => s.warnings),
  };
}
