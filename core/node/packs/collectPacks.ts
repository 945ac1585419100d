import type { CollectSummary, PacksEvent } from '../../common/packs/packsApi';
import { unpackSession } from './sessionPack';
import type { OpenProject } from '../project/projectFolder';

/**
 * Project → Collect…: an annotator's session pack into the open project, as `aloud session unpack` does it (every
 * check first; a refusal writes nothing and says why), reporting the bytes read as collect_progress events, about a
 * hundred of them for a large pack.
 */
export async function collectPack(project: OpenProject, file: string, emit: (event: PacksEvent) => void): Promise<CollectSummary> {
  let shown = -1;
  let size = 0;
  const result = await unpackSession({
    project,
    file,
    onProgress: (done, total) => {
      size = total;
      const step = Math.floor((100 * done) / Math.max(1, total));
      if (step === shown) return;
      shown = step;
      emit({ type: 'collect_progress', done, total });
    },
  });
  emit({ type: 'collect_progress', done: size, total: size });
  return {
    annotator: result.annotator,
    status: result.status,
    appended: result.appended,
    events: result.events_after,
    audio_files: result.audio_files,
  };
}
