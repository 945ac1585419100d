import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { decodeFileName } from '../session/sessionPaths';
import { readSessionLog } from '../session/sessionLogFile';

/**
 * Item ids that hold recorded work in any annotator's session (audio, transcript, label, completion; merely
 * opening an item is not work), with the annotators who did it. WAV files count even if the log lost them.
 * A corrupt session log throws: an import must not guess which items are safe to remove.
 */
export async function itemsWithSessionData(projectDir: string): Promise<Map<string, string[]>> {
  const root = path.join(path.resolve(projectDir), 'sessions');
  const result = new Map<string, string[]>();
  const note = (itemId: string, annotator: string): void => {
    const list = result.get(itemId);
    if (!list) result.set(itemId, [annotator]);
    else if (!list.includes(annotator)) list.push(annotator);
  };
  let folders: string[];
  try {
    folders = (await readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw e;
  }
  for (const folder of folders.sort()) {
    const annotator = decodeFileName(folder);
    const { events } = await readSessionLog(path.join(root, folder, 'events.jsonl'));
    for (const event of events) {
      const data = event.data as { item_id?: unknown };
      if (event.type !== 'item_opened' && typeof data.item_id === 'string') note(data.item_id, annotator);
    }
    const wavs = await readdir(path.join(root, folder, 'audio')).catch(() => [] as string[]);
    for (const name of wavs) if (name.endsWith('.wav')) note(decodeFileName(name.slice(0, -4)), annotator);
  }
  return result;
}
