/** Room codes are read out in a call: no 0/O, 1/I/L, so nothing sounds or looks like something else. */
export const ROOM_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const ROOM_CODE_LENGTH = 6;

/**
 * A code from random bytes (e.g. crypto.getRandomValues); bytes at or above the largest multiple of the alphabet
 * size are skipped so every character is equally likely. Returns null when the bytes ran out first.
 */
export function roomCodeFromBytes(bytes: ArrayLike<number>): string | null {
  const n = ROOM_CODE_ALPHABET.length;
  const limit = 256 - (256 % n);
  let code = '';
  for (let i = 0; i < bytes.length && code.length < ROOM_CODE_LENGTH; i++) {
    if (bytes[i]! < limit) code += ROOM_CODE_ALPHABET[bytes[i]! % n];
  }
  return code.length === ROOM_CODE_LENGTH ? code : null;
}

/** What a person typed, as a code: case and spaces or dashes do not matter. null when it cannot be a room code. */
export function normalizeRoomCode(typed: string): string | null {
  const code = typed.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== ROOM_CODE_LENGTH) return null;
  for (const ch of code) if (!ROOM_CODE_ALPHABET.includes(ch)) return null;
  return code;
}
