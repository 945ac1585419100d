import { stat } from 'node:fs/promises';
import type { OpenProject } from '../project/projectFolder';
import { listInstalledModels } from '../models/installedModels';
import { resolveModelsDir } from '../models/modelsDir';
import { Refusal } from '../../common/refusal/refusal';
import type { RefusalMessage } from '../../common/refusal/refusalMessage';

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
    if (!found?.isFile()) throw new SessionEngineError(`--model: ${modelFile} is not a file`);
    return {
      path: modelFile,
      name: modelFile
        .replace(/^.*[\\/]/, '')
        .replace(/\.bin$/i, '')
        .replace(/^ggml-/i, ''),
    };
  }
  const wanted = project.config.thinkaloud.model;
  const installed = await listInstalledModels(modelsDir);
  const usable = installed.find((m) => m.name === wanted && m.problem === null);
  if (usable) return { path: usable.path, name: usable.name };
  const broken = installed.find((m) => m.name === wanted);
  const folder = resolveModelsDir(modelsDir);
  const why = broken
    ? `the model "${wanted}" in ${folder} cannot be used (${broken.problem})`
    : `no whisper model "${wanted}" (thinkaloud.model in ${project.configPath}) in ${folder}`;
  throw new SessionEngineError(
    `${why}: get it with \`aloud models download ${wanted}\`, import a file with \`aloud models import FILE --name ${wanted}\`, or pass --model FILE`,
  );
}
