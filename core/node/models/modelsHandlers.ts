import type { ModelsApi, ModelsView } from '../../common/models/modelsApi';
import { Refusal } from '../../common/refusal/refusal';
import type { ModelsPanel } from './modelsPanel';
import { say } from '../../common/refusal/refusalMessage';

/** What the models handlers use of the app: the panel, the project's model, the model the open session transcribes with. */
export interface ModelsHost {
  readonly models: ModelsPanel;
  readonly project: { readonly config: { readonly thinkaloud: { readonly model: string } } };
  readonly session: { readonly model: { readonly name: string } | null };
}

/** The models domain of the app API: what is known and installed, downloads (progress as events), import, remove. */
export function modelsHandlers(app: ModelsHost): ModelsApi {
  const view = (rehash = false): Promise<ModelsView> => app.models.view(app.project.config.thinkaloud.model, rehash);
  return {
    models: (rehash) => view(rehash),
    downloadModel: async (name) => {
      await app.models.download(name);
      return view();
    },
    cancelModelDownload: async (name) => {
      app.models.cancel(name);
      return view();
    },
    importModel: async (file) => {
      await app.models.importFile(file);
      return view();
    },
    removeModel: async (name) => {
      if (app.session.model?.name === name)
        throw new Refusal('conflict', say('refusal.models.isTheModelThisSession', { name }));
      await app.models.remove(name);
      return view();
    },
  };
}
