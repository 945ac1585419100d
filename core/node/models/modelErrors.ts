/** Why a download failed; `network` and `incomplete` keep the .part file so the next attempt resumes. */
export type ModelDownloadFailure = 'url' | 'http' | 'network' | 'incomplete' | 'checksum' | 'file' | 'busy';

export class ModelDownloadError extends Error {
  override name = 'ModelDownloadError';
  constructor(
    readonly kind: ModelDownloadFailure,
    message: string,
    readonly details: { status?: number; expected?: string; actual?: string; received_bytes?: number; total_bytes?: number | null } = {},
  ) {
    super(message);
  }
}

/** A conflict in the models folder (a different file already under that name, a name taken by a manifest model, …). */
export class ModelStoreError extends Error {
  override name = 'ModelStoreError';
}
