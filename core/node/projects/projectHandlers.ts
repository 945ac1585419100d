import path from 'node:path';
import type { SerialQueue } from '../../common/concurrency/serialQueue';
import type { Item } from '../../common/items/item';
import type { PathKind, ProjectApi, ProjectView } from '../../common/project/projectApi';
import { Refusal } from '../../common/refusal/refusal';
import { loadProjectConfig, loadProjectItems, type OpenProject } from '../project/projectFolder';
import { createProjectFolder, importItemsInto, openProjectFolder, readRecent } from './projectsPanel';
import { say } from '../../common/refusal/refusalMessage';

/** What the projects handlers use of the app: the call queue, the project and its items, the session, switching projects. */
export interface ProjectHost {
  readonly calls: SerialQueue;
  readonly project: OpenProject;
  items: Item[];
  /** the open session, as far as importing items needs it: sessions are a floor above projects, so only its shape */
  readonly session: { readonly open: { readonly isRecording: boolean } | null; reopen(): Promise<void> };
  /** the annotators' own sessions of the open project ("Continue as"), never a room's write-back */
  annotatorSessions(): Promise<string[]>;
  readonly options: { readonly recentFile?: string; readonly choosePath?: (kind: PathKind) => Promise<string | null> };
  projectView(): ProjectView;
  /** another project: the session and rooms close; inside the call queue */
  switchProject(project: OpenProject): Promise<void>;
}

/** The projects domain of the app API: the open project, its annotators, recent projects, opening, creating, importing items. */
export function projectHandlers(app: ProjectHost): ProjectApi {
  return {
    project: async () => app.projectView(),
    annotators: () => app.annotatorSessions(),
    recentProjects: async () => {
      const dirs = app.options.recentFile ? await readRecent(app.options.recentFile) : [path.resolve(app.project.dir)];
      return Promise.all(
        dirs.map((dir) =>
          loadProjectConfig(dir).then(
            (p) => ({ dir, name: p.config.name, problem: null }),
            (e: Error) => ({ dir, name: null, problem: e.message }),
          ),
        ),
      );
    },
    choosePath: async (kind) => {
      if (!app.options.choosePath) throw new Refusal('not_found', say('refusal.projects.thisWindowHasNoFile'));
      return app.options.choosePath(kind);
    },
    openProject: (dir) =>
      app.calls.run(async () => {
        await app.switchProject(await openProjectFolder(dir));
        return app.projectView();
      }),
    createProject: (spec) =>
      app.calls.run(async () => {
        const { project, items } = await createProjectFolder(spec);
        await app.switchProject(project);
        return { project: app.projectView(), items };
      }),
    importItems: (file, mode) =>
      app.calls.run(async () => {
        if (app.session.open?.isRecording) throw new Refusal('conflict', say('refusal.projects.stopTheRecordingBeforeImporting'));
        const outcome = await importItemsInto(app.project, file, mode);
        if (outcome.ok) {
          app.items = await loadProjectItems(app.project);
          await app.session.reopen();
        }
        return { project: app.projectView(), items: outcome };
      }),
  };
}
