import { stat } from 'node:fs/promises';
import { Refusal } from '../../common/refusal/refusal';
import { projectSessionSource } from '../session/projectSessions';
import { allSessionNames, type AnnotatorStates, type SessionSource } from '../session/sessionSource';
import type { OpenProject } from '../project/projectFolder';
import { normalizeAnnotatorName, sessionPaths } from '../session/sessionPaths';
import type { SessionService } from '../session/sessionService';
import { say } from '../../common/refusal/refusalMessage';

/**
 * The annotators' sessions as the coding view reads them: the open session from its live fold, the others from their
 * logs (read-only, no lock), each read again only when its log changed on disk, so a key press costs a stat per log.
 */
export class CodingSessionReader {
  private readonly cache = new Map<string, { stamp: string; states: AnnotatorStates }>();

  constructor(private readonly app: { readonly project: OpenProject }) {}

  /** every session, coders who are not annotators included (their codings are the others' codes) */
  async annotators(): Promise<string[]> {
    return allSessionNames(projectSessionSource, this.app.project);
  }

  async load(annotator: string, open: SessionService): Promise<AnnotatorStates> {
    const name = normalizeAnnotatorName(annotator);
    if (name === open.store.annotator)
      return { annotator: name, items: open.state().items, warnings: [], codings: open.store.coding.codings() };
    const { project } = this.app;
    const file = sessionPaths(project.dir, name).events;
    const info = await stat(file).catch(() => null);
    if (!info) throw new Refusal('not_found', say('refusal.coding.noSessionOfInThis', { name }));
    const stamp = `${project.dir}\u0000${info.size}\u0000${info.mtimeMs}`;
    const cached = this.cache.get(name);
    if (cached?.stamp === stamp) return cached.states;
    const states = await projectSessionSource.load(project, name);
    this.cache.set(name, { stamp, states });
    return states;
  }

  async all(open: SessionService): Promise<AnnotatorStates[]> {
    const names = new Set([...(await this.annotators()), open.store.annotator]);
    return Promise.all([...names].map((n) => this.load(n, open)));
  }

  /** A SessionSource over this reader (agreement reads every session through it). */
  source(open: SessionService): SessionSource {
    return {
      annotators: async () => [...new Set([...(await this.annotators()), open.store.annotator])].sort(),
      load: async (_project, name) => this.load(name, open),
    };
  }
}
