import path from 'node:path';
import { encodedFileName, fileNameProblem } from '../../common/names/nameRules';
import { annotatorNameProblem, normalizeAnnotatorName } from '../../common/names/personNames';
import { isInsideFolder } from '../fs/resolveInside';
import { Refusal } from '../../common/refusal/refusal';
import { say, type RefusalMessage } from '../../common/refusal/refusalMessage';

export class SessionNameError extends Refusal {
  override name = 'SessionNameError';
  constructor(message: string | RefusalMessage) {
    super('bad_request', message);
  }
}

/** The file name of an annotator name or item id (core/common/names/nameRules), or SessionNameError saying why not. */
export function encodeFileName(name: string, what: string): string {
  const problem = fileNameProblem(name, what);
  if (problem !== null) throw new SessionNameError(problem); // i18n-ignore: the problem is core/common/names' rule text (shared with the CLI's import checks), not yet a catalog message
  return encodedFileName(name);
}

/** Inverse of encodeFileName. */
export function decodeFileName(encoded: string): string {
  return Buffer.from(
    encoded.replace(/%([0-9A-F]{2})|([^%])/g, (_m, hex: string | undefined, ch: string | undefined) =>
      hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : ch!,
    ),
    'latin1',
  ).toString('utf8');
}

/** Where one annotator's session lives inside a project folder. */
export interface SessionPaths {
  projectDir: string;
  /** sessions/<annotator> */
  dir: string;
  events: string;
  lock: string;
  audioDir: string;
}

export { normalizeAnnotatorName };

export function sessionPaths(projectDir: string, annotator: string): SessionPaths {
  annotator = normalizeAnnotatorName(annotator);
  const problem = annotatorNameProblem(annotator);
  if (problem !== null) throw new SessionNameError(problem); // i18n-ignore: the problem is core/common/names' rule text (shared with the CLI's import checks), not yet a catalog message
  const root = path.resolve(projectDir);
  const dir = path.join(root, 'sessions', encodedFileName(annotator));
  return {
    projectDir: root,
    dir,
    events: path.join(dir, 'events.jsonl'),
    lock: path.join(dir, '.lock'),
    audioDir: path.join(dir, 'audio'),
  };
}

/** The item's WAV, relative to the project folder with "/" separators (as logged and exported). */
export function itemAudioRelativePath(paths: SessionPaths, itemId: string): string {
  const file = path.join(paths.audioDir, `${encodeFileName(itemId, 'item id')}.wav`);
  return path.relative(paths.projectDir, file).split(path.sep).join('/');
}

/** Absolute path of a project-relative path from the log, refusing anything that leaves the session folder. */
export function resolveInSession(paths: SessionPaths, relative: string): string {
  const absolute = path.resolve(paths.projectDir, ...relative.split('/'));
  if (!isInsideFolder(paths.dir, absolute)) {
    throw new SessionNameError(say('refusal.session.pathPointsOutside', { relative: JSON.stringify(relative), dir: paths.dir }));
  }
  return absolute;
}
