import { describe, expect, it } from 'vitest';
import { normalizeRoomCode, ROOM_CODE_ALPHABET, roomCodeFromBytes } from '../../../../core/common/rooms/roomCode';
import { seededRandom } from '../../../../core/common/agreement/krippendorff';

describe('room codes', () => {
  it('never use characters that sound or look alike', () => {
    for (const ch of '0O1IL') expect(ROOM_CODE_ALPHABET).not.toContain(ch);
    expect(new Set(ROOM_CODE_ALPHABET).size).toBe(31);
  });

  it('are six characters from the alphabet, every character about equally likely', () => {
    const random = seededRandom(3);
    const counts = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const code = roomCodeFromBytes(Array.from({ length: 16 }, () => Math.floor(random() * 256)))!;
      expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/);
      for (const ch of code) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    // 18000 characters over 31 symbols: about 581 each; skipping bytes ≥ 248 keeps the modulo unbiased
    for (const ch of ROOM_CODE_ALPHABET) expect(Math.abs(counts.get(ch)! - 18000 / 31)).toBeLessThan(120);
  });

  it('skips the bytes that would bias the modulo, and gives null when the bytes run out', () => {
    expect(roomCodeFromBytes([248, 249, 255, 0, 1, 2, 3, 4, 5])).toBe('234567');
    expect(roomCodeFromBytes([0, 1, 2])).toBeNull();
  });

  it('reads what a person typed: case, spaces and dashes do not matter; anything else is not a code', () => {
    expect(normalizeRoomCode(' k7q-x3m ')).toBe('K7QX3M');
    expect(normalizeRoomCode('K7QX3')).toBeNull();
    expect(normalizeRoomCode('K7QX30')).toBeNull();
    expect(normalizeRoomCode('../../x')).toBeNull();
  });
});
