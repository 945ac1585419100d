import { stat } from 'node:fs/promises';
import type { OpenProject } from '../project/projectFolder';
import { inspectInstalledModels } from '../models/installedModels';
import { resolveModelsDir } from '../models/modelsDir';
import { Refusal } from '../../common/refusal/refusal';
import { say, type RefusalMessage } from '../../common/refusal/refusalMessage';

/** No usable whisper model for a session; the message says how to get one. */
export class SessionEngineError extends Refusal {
  override name = 'SessionEngineError';
  constructor(message: string | RefusalMessage) {
    super('engine', message);
  }
}

/**
 * The model a session transcribes with: `modelFile` when given, else the project's thinkaloud.model among the
 * models installed in the models folder (verified or imported, with a header that passed the check).
 */
export async function resolveSessionModel(
  project: OpenProject,
  modelFile: string | null,
  modelsDir?: string,
): Promise<{ path: string; name: string }> {
  if (modelFile !== null) {
    const found = await stat(modelFile).catch(() => null);
    if (!found?.isFile()) throw new SessionEngineError(say('refusal.engine.modelArgNotAFile', { file: modelFile }));
    return {
      path: modelFile,
      name: modelFile
        .replace(/^.*[\\/]/, '')
        .replace(/\.bin$/i, '')
        .replace(/^ggml-/i, ''),
    };
  }
  const wanted = project.config.thinkaloud.model;
  const installed = await inspectInstalledModels(modelsDir);
  const usable = installed.find(({ model }) => model.name === wanted && model.problem === null);
  if (usable) return { path: usable.model.path, name: usable.model.name };
  const broken = installed.find(({ model }) => model.name === wanted);
  const folder = resolveModelsDir(modelsDir);
  const why = broken
    ? say('refusal.engine.modelUnusable', { model: wanted, folder, problem: broken.problemSaid ?? String(broken.model.problem) })
    : say('refusal.engine.noModel', { model: wanted, configPath: project.configPath, folder });
  throw new SessionEngineError(say('refusal.engine.getModel', { why, model: wanted }));
}
