import type { AgreementApi } from '../../common/agreement/agreementApi';
import type { GoldApi } from '../../common/labelModels/goldApi';
import type { OpenProject } from '../project/projectFolder';
import { projectAgreement } from './projectAgreement';
import { projectGold } from './projectGold';
import { projectGuidelineHistory } from '../guidelines/projectGuidelines';

/** What the agreement handlers use of the app: the open project (replaced when another opens). */
export interface AgreementHost {
  readonly project: OpenProject;
}

/** The agreement and gold label domains of the app API: figures over the project's sessions, read only. */
export function agreementHandlers(app: AgreementHost): AgreementApi & GoldApi {
  return {
    agreement: async () => {
      const { warnings: _warnings, ...report } = await projectAgreement(app.project);
      return report;
    },
    goldLabels: () => projectGold(app.project),
    guidelineHistory: async () => {
      const { warnings: _warnings, project: _project, ...history } = await projectGuidelineHistory(app.project);
      return history;
    },
  };
}
