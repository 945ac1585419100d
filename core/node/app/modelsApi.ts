import type { AloudApi } from '../../common/contract/aloudApi';
import type { ModelsView } from '../../common/models/modelsApi';
import { Refusal } from '../../common/refusal/refusal';
import type { AppContext } from './appContext';

/** The models domain of the app API: what is known and installed, downloads (progress as events), import, remove. */
export function modelsApi(app: AppContext) {
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
        throw new Refusal('conflict', `${name} is the model this session transcribes with: choose another default model first`);
      await app.models.remove(name);
      return view();
    },
  } satisfies Partial<AloudApi>;
}
