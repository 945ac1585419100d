import { Refusal } from '../refusal/refusal';

/** A model file that cannot be used (missing, truncated, foreign, inconsistent); the message names the file and the problem. */
export class ModelFileError extends Refusal {
  override name = 'ModelFileError';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super('bad_request', `${file}: ${reason}`);
  }
}
