import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManifestError, type ModelManifest, parseModelManifest } from '../../common/models/modelManifest';

/** models/manifest.json at the repository (and packaged app) root. */
export const MANIFEST_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../models/manifest.json');

export async function loadModelManifest(file: string = MANIFEST_PATH): Promise<ModelManifest> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    // i18n-ignore: models/manifest.json ships with Aloud (a developer's file); its problems stay English
    throw new ManifestError(file, [`cannot read the model manifest (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`]);
  }
  return parseModelManifest(text, file);
}
