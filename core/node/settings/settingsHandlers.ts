import type { SerialQueue } from '../../common/concurrency/serialQueue';
import type { ProjectView } from '../../common/project/projectApi';
import type { AppInfo, SettingsApi } from '../../common/settings/settingsApi';
import { Refusal } from '../../common/refusal/refusal';
import { appVersion } from '../exportFiles/appVersion';
import type { OpenProject } from '../project/projectFolder';
import type { SessionSlot } from '../session/sessionSlot';
import { writeThinkAloudSettings } from './projectSettings';
import { say } from '../../common/refusal/refusalMessage';

/** The settings domain of the app API: what this app is and runs with, and the project's thinkaloud settings. */
/** What the settings handlers use of the app: the call queue, the project (replaced when aloud.yaml changes), the session. */
export interface SettingsHost {
  readonly calls: SerialQueue;
  project: OpenProject;
  readonly session: Pick<SessionSlot, 'open' | 'reopen' | 'engineInfo'>;
  readonly options: { readonly mode: AppInfo['mode'] };
  projectView(): ProjectView;
}

export function settingsHandlers(app: SettingsHost): SettingsApi {
  return {
    appInfo: async () => ({ app_version: await appVersion(), mode: app.options.mode, engine: app.session.engineInfo() }),
    updateThinkAloud: (patch) =>
      app.calls.run(async () => {
        if (app.session.open?.isRecording) throw new Refusal('conflict', say('refusal.settings.stopTheRecordingBeforeChanging'));
        const { project, previous } = await writeThinkAloudSettings(app.project, patch);
        app.project = project;
        // the open session continues with the new settings (the log keeps what was recorded under the old ones)
        await app.session.reopen();
        return { project: app.projectView(), previous };
      }),
  };
}
