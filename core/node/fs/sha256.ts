import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** sha256 (hex) of bytes, or of a string's UTF-8. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** sha256 (hex) of a file's bytes, streamed. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
