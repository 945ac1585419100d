import { Refusal } from '../../common/refusal/refusal';

/** A problem with a project folder or one of its files; the message names the file. */
export class ProjectError extends Refusal {
  override name = 'ProjectError';
  constructor(message: string) {
    super('bad_request', message);
  }
}
