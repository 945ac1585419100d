import { sha256Hex } from '../fs/sha256';

/** A stable GUID for a key: sha256 of project and key, laid out as a name-based (version 5 style) UUID. */
export function stableGuid(project: string, key: string): string {
  const hex = sha256Hex(`aloud\u0000${project}\u0000${key}`);
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
