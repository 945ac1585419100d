import { englishRefusal, type RefusalMessage } from './refusalMessage';

/** What a refusal means to whoever hears it: the HTTP status (transportNames), the CLI's exit, the UI's next step. */
export type RefusalCode =
  | 'bad_request'
  | 'not_found'
  | 'conflict'
  | 'spoken_label_required'
  | 'transcription_pending'
  /** the act would change a completed item's label: the person confirms it first */
  | 'confirmation_required'
  | 'engine'
  | 'storage'
  | 'internal';

/**
 * The one refusal type: a rule, a check or a resource says no, with a code the hosts act on and a message a person
 * can read. Every error a person can act on is a Refusal (its class may add fields of its own, a lock's owner, a log's
 * line), so the app API, the dispatcher and the CLI read the code and never the class. Crossing a transport it is
 * data (CallOutcome); the client makes a Refusal of it again.
 */
export class Refusal extends Error {
  override name = 'Refusal';
  /** what to say to a person, from the catalog (absent: the English message is all there is) */
  readonly say?: RefusalMessage;
  /**
   * `message` is English text, or a catalog message whose English becomes the Error's message; `said` is the catalog
   * message a refusal carried across a transport (the client rebuilds the refusal from its English and its message).
   */
  constructor(
    readonly code: RefusalCode,
    message: string | RefusalMessage,
    said?: RefusalMessage,
  ) {
    super(typeof message === 'string' ? message : englishRefusal(message));
    const say = typeof message === 'string' ? said : message;
    if (say !== undefined) this.say = say;
  }
}

/** An error whose own `code` speaks another vocabulary (an errno, the engine protocol's) says which refusal it is. */
export interface RefusalOf {
  toRefusal(): Refusal;
}

/** Anything thrown, as a refusal; what nobody foresaw is 'internal'. */
export function asRefusal(e: unknown): Refusal {
  if (e instanceof Refusal) return e;
  if (typeof (e as Partial<RefusalOf> | null)?.toRefusal === 'function') return (e as RefusalOf).toRefusal();
  return new Refusal('internal', e instanceof Error ? e.message : String(e));
}
