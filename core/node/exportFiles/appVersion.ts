import { readFile } from 'node:fs/promises';

let cached: string | null = null;

/** Aloud's version as package.json states it (app_version in exports and receipts). */
export async function appVersion(): Promise<string> {
  if (cached === null) {
    const text = await readFile(new URL('../../../package.json', import.meta.url), 'utf8');
    const version = (JSON.parse(text) as { version?: unknown }).version;
    if (typeof version !== 'string' || version === '') throw new Error('package.json has no "version"');
    cached = version;
  }
  return cached;
}
