import path from 'node:path';
import { shownAnnotators } from '../../common/adjudication/adjudicationQueue';
import { projectSessionSource } from '../session/projectSessions';
import type { SessionSource } from '../session/sessionSource';
import { resolveFileInside, type FileLookup } from '../fs/resolveInside';
import type { OpenProject } from '../project/projectFolder';
import { readAdjudication } from './projectAdjudication';

/**
 * The recording of the annotator shown `protocol`-th (1-based) in an item's side-by-side view, for the lead's playback:
 * the annotator is found by the view's own order (blind or not), her session says where the WAV is, and that path must
 * resolve inside the project (a log naming a file outside, or through a link that leads out, is refused). Nothing in
 * the request is used as a path; nothing is written. The reason never spells out a real path.
 */
export async function protocolAudioFile(
  project: OpenProject,
  itemId: string,
  protocol: number,
  sessions: SessionSource = projectSessionSource,
): Promise<FileLookup> {
  const read = await readAdjudication(project, sessions);
  const standing = read.queue.items.get(itemId);
  if (!standing) return { ok: false, status: 404, reason: `item "${itemId}" is not in the adjudication queue` };
  const shown = shownAnnotators(
    itemId,
    standing.labels.map((l) => l.annotator),
    project.config.adjudication.blind_names,
  );
  const annotator = shown[protocol - 1]?.annotator;
  if (!Number.isInteger(protocol) || annotator === undefined)
    return { ok: false, status: 404, reason: `item "${itemId}" has no annotator ${protocol}` };
  const session = await sessions.load(project, annotator);
  const audioPath = session.items.find((i) => i.item_id === itemId)?.audio_path ?? null;
  if (!audioPath) return { ok: false, status: 404, reason: `annotator ${protocol} has no recording of item "${itemId}"` };
  const found = await resolveFileInside(project.dir, path.resolve(project.dir, audioPath));
  return found.ok ? found : { ok: false, status: found.status, reason: `annotator ${protocol}'s recording ${found.reason}` };
}
