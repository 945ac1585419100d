import { Refusal } from '../../common/refusal/refusal';
import type { RefusalMessage } from '../../common/refusal/refusalMessage';

/** A problem with a project folder or one of its files; the message names the file. */
export class ProjectError extends Refusal {
  override name = 'ProjectError';
  constructor(message: string | RefusalMessage) {
    super('bad_request', message);
  }
}
