import type { AloudApi } from '../../common/contract/aloudApi';
import { Refusal } from '../../common/refusal/refusal';
import { appVersion } from '../export/appVersion';
import type { AppContext } from './appContext';
import { writeThinkAloudSettings } from './projectSettings';

/** The settings domain of the app API: what this app is and runs with, and the project's thinkaloud settings. */
export function settingsApi(app: AppContext) {
  return {
    appInfo: async () => ({ app_version: await appVersion(), mode: app.options.mode, engine: app.session.engineInfo() }),
    updateThinkAloud: (patch) =>
      app.calls.run(async () => {
        if (app.session.open?.isRecording) throw new Refusal('conflict', 'stop the recording before changing the project settings');
        const { project, previous } = await writeThinkAloudSettings(app.project, patch);
        app.project = project;
        // the open session continues with the new settings (the log keeps what was recorded under the old ones)
        await app.session.reopen();
        return { project: app.projectView(), previous };
      }),
  } satisfies Partial<AloudApi>;
}
