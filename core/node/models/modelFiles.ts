import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export interface FileDigests {
  bytes: number;
  sha1: string;
  sha256: string;
}

/** SHA-1 (the manifest's published checksums) and SHA-256 (the index's) fed from one pass over the bytes. */
export class ModelDigester {
  private readonly sha1: Hash = createHash('sha1');
  private readonly sha256: Hash = createHash('sha256');
  bytes = 0;

  update(chunk: Uint8Array): void {
    this.sha1.update(chunk);
    this.sha256.update(chunk);
    this.bytes += chunk.length;
  }

  digest(): FileDigests {
    return { bytes: this.bytes, sha1: this.sha1.digest('hex'), sha256: this.sha256.digest('hex') };
  }
}

/** Feeds a file's bytes (optionally only the first `length`) to a digester. */
export async function digestFileInto(digester: ModelDigester, file: string, signal?: AbortSignal): Promise<void> {
  const stream = createReadStream(file, { highWaterMark: 1 << 20, signal });
  for await (const chunk of stream) digester.update(chunk as Buffer);
}

export async function digestFile(file: string, signal?: AbortSignal): Promise<FileDigests> {
  const digester = new ModelDigester();
  await digestFileInto(digester, file, signal);
  return digester.digest();
}
