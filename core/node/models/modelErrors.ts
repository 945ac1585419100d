import { Refusal } from '../../common/refusal/refusal';
import type { RefusalMessage } from '../../common/refusal/refusalMessage';
/** Why a download failed; `network` and `incomplete` keep the .part file so the next attempt resumes. */
export type ModelDownloadFailure = 'url' | 'http' | 'network' | 'incomplete' | 'checksum' | 'file' | 'busy';

export class ModelDownloadError extends Refusal {
  override name = 'ModelDownloadError';
  constructor(
    readonly kind: ModelDownloadFailure,
    message: string | RefusalMessage,
    readonly details: { status?: number; expected?: string; actual?: string; received_bytes?: number; total_bytes?: number | null } = {},
  ) {
    // the source failing (HTTP, network, a short or mismatched file) is a service unavailable: try again
    super(kind === 'url' ? 'bad_request' : kind === 'busy' ? 'conflict' : kind === 'file' ? 'storage' : 'engine', message);
  }
}

/** A conflict in the models folder (a different file already under that name, a name taken by a manifest model, …). */
export class ModelStoreError extends Refusal {
  override name = 'ModelStoreError';
  constructor(message: string | RefusalMessage) {
    super('conflict', message);
  }
}
