import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { emptyModelIndex, type InstalledModelRecord, type ModelIndex, ModelIndexError, parseModelIndex, withModelRecord } from '../../common/models/modelIndex';
import { writeFileAtomic } from '../fs/atomicFile';
import { say } from '../../common/refusal/refusalMessage';

export const MODEL_INDEX_FILE = 'models.json';

export async function readModelIndex(dir: string): Promise<ModelIndex> {
  const file = path.join(dir, MODEL_INDEX_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return emptyModelIndex();
    throw new ModelIndexError(say('refusal.models.cannotRead', { file, value: code ?? (e as Error).message }));
  }
  return parseModelIndex(text, file);
}

/** Adds or replaces one record; the index is rewritten atomically so a crash leaves the old or the new index. */
export async function recordInstalledModel(dir: string, record: InstalledModelRecord): Promise<void> {
  const index = withModelRecord(await readModelIndex(dir), record);
  await writeFileAtomic(path.join(dir, MODEL_INDEX_FILE), `${JSON.stringify(index, null, 2)}\n`);
}
