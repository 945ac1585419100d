/**
 * Offsets in exported text are counted in Unicode code points, as Python's str and REFI-QDA count characters; a
 * JavaScript string counts UTF-16 units, so an emoji or any character beyond U+FFFF is 2 there and 1 here.
 */

/** The code-point offset of a UTF-16 offset into `text` (an offset inside a surrogate pair counts the pair as one). */
export function codePointOffset(text: string, utf16Offset: number): number {
  let points = 0;
  for (let i = 0; i < utf16Offset && i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // a low surrogate after a high one is the second half of one code point
    if (!(unit >= 0xdc00 && unit <= 0xdfff && i > 0 && isHighSurrogate(text.charCodeAt(i - 1)))) points++;
  }
  return points;
}

/** The UTF-16 offset of a code-point offset into `text` (past the end: the text's length). */
export function utf16Offset(text: string, codePoints: number): number {
  let i = 0;
  for (let n = 0; n < codePoints && i < text.length; n++)
    i += isHighSurrogate(text.charCodeAt(i)) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
  return i;
}

/** The text's length in code points. */
export function codePointLength(text: string): number {
  return codePointOffset(text, text.length);
}

/** `text[start:end]` as Python slices it: start and end in code points. */
export function sliceCodePoints(text: string, start: number, end: number): string {
  return text.slice(utf16Offset(text, start), utf16Offset(text, end));
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
