import { Refusal } from '../refusal/refusal';
import { englishRefusal, say, type RefusalMessage } from '../refusal/refusalMessage';

/** A model file that cannot be used (missing, truncated, foreign, inconsistent); the message names the file and the problem. */
export class ModelFileError extends Refusal {
  override name = 'ModelFileError';
  /** the problem in English (the models list's `problem`, the CLI) */
  readonly reason: string;
  constructor(
    readonly file: string,
    /** the problem as a catalog message, so the app says it in the person's language */
    readonly reasonSaid: RefusalMessage,
  ) {
    super('bad_request', say('refusal.modelFile.problem', { file, reason: reasonSaid }));
    this.reason = englishRefusal(reasonSaid);
  }
}
