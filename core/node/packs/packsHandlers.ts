import type { SerialQueue } from '../../common/concurrency/serialQueue';
import type { PacksApi, PacksEvent } from '../../common/packs/packsApi';
import type { OpenProject } from '../project/projectFolder';
import { collectPack } from './collectPacks';

/** What the packs handler uses of the app: the call queue, the open project, the page's events (collect_progress). */
export interface PacksHost {
  readonly calls: SerialQueue;
  readonly project: OpenProject;
  emit(event: PacksEvent): void;
}

/** The session packs domain of the app API: Project → Collect… (an annotator's pack into the open project). */
export function packsHandlers(app: PacksHost): PacksApi {
  return {
    collectPack: (file) => app.calls.run(() => collectPack(app.project, file, (event) => app.emit(event))),
  };
}
