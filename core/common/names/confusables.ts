/**
 * Names that look alike. A skeleton in the manner of Unicode's UTS #39 (confusables.txt), limited to what a room of
 * people can type: compatibility forms (NFKD: full-width and mathematical letters, ligatures), the Cyrillic and Greek
 * letters drawn like Latin ones, the digits 0 and 1, "rn" for "m" and "vv" for "w", case and runs of spaces. Two names
 * look alike when a skeleton of one equals a skeleton of the other. The tables are fixed, so the answer is the same on
 * every machine and in every version that keeps them.
 */

/** Capital Cyrillic and Greek letters drawn as Latin capitals (checked before lower-casing: "Н" is H, "н" is not). */
const UPPER: Readonly<Record<string, string>> = {
  // Cyrillic
  '\u0410': 'A', '\u0412': 'B', '\u0415': 'E', '\u041a': 'K', '\u041c': 'M', '\u041d': 'H', '\u041e': 'O', '\u0420': 'P',
  '\u0421': 'C', '\u0422': 'T', '\u0423': 'Y', '\u0425': 'X', '\u0405': 'S', '\u0406': 'I', '\u0408': 'J', '\u04ae': 'Y',
  '\u051a': 'Q', '\u051c': 'W', '\u04c0': 'l',
  // Greek
  '\u0391': 'A', '\u0392': 'B', '\u0395': 'E', '\u0396': 'Z', '\u0397': 'H', '\u0399': 'I', '\u039a': 'K', '\u039c': 'M',
  '\u039d': 'N', '\u039f': 'O', '\u03a1': 'P', '\u03a4': 'T', '\u03a5': 'Y', '\u03a7': 'X',
};

/** Small Cyrillic, Greek and IPA letters drawn as small Latin ones, and the digits that pass for letters. */
const LOWER: Readonly<Record<string, string>> = {
  // Cyrillic
  '\u0430': 'a', '\u0435': 'e', '\u043e': 'o', '\u0440': 'p', '\u0441': 'c', '\u0443': 'y', '\u0445': 'x', '\u0455': 's',
  '\u0456': 'i', '\u0458': 'j', '\u04bb': 'h', '\u0501': 'd', '\u051b': 'q', '\u051d': 'w', '\u04cf': 'l', '\u04af': 'y',
  // Greek
  '\u03b1': 'a', '\u03bf': 'o', '\u03c1': 'p', '\u03bd': 'v', '\u03c5': 'u', '\u03b9': 'i', '\u03ba': 'k', '\u03c7': 'x',
  '\u03b3': 'y', '\u03c9': 'w', '\u03f2': 'c', '\u03f3': 'j',
  // Latin and IPA
  '\u0131': 'i', '\u0261': 'g', '\u0251': 'a',
  // digits
  '0': 'o', '1': 'l',
};

const INVISIBLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\u3164\ufeff\uffa0]/gu;

function skeleton(name: string, capitalIAsL: boolean): string {
  let mapped = '';
  for (const ch of name.normalize('NFKD')) {
    const upper = UPPER[ch] ?? ch;
    mapped += capitalIAsL && upper === 'I' ? 'l' : upper;
  }
  let lower = '';
  for (const ch of mapped.toLowerCase()) lower += LOWER[ch] ?? ch;
  return lower
    .replace(INVISIBLE, '')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
    .replace(/\s+/gu, ' ')
    .trim()
    .normalize('NFC');
}

/**
 * The skeletons of a name: one with a capital I read as itself, one with it read as a small l ("BiII" and "Bill"
 * look the same in most fonts, yet "Ivy" and "ivy" must still be one name).
 */
export function nameSkeletons(name: string): string[] {
  const plain = skeleton(name, false);
  const withL = skeleton(name, true);
  return plain === withL ? [plain] : [plain, withL];
}

/** Whether two names would be taken for one another on screen. */
export function looksAlike(a: string, b: string): boolean {
  const skeletonsOfB = nameSkeletons(b);
  return nameSkeletons(a).some((s) => skeletonsOfB.includes(s));
}

/** Whether the name, read as letters and digits only, is `word` or looks like it ("L.E.A.D", "Ｌｅａｄ", "lеad"). */
export function looksLikeWord(name: string, word: string): boolean {
  const letters = (s: string) => s.replace(/[^\p{L}\p{N}]/gu, '');
  const target = letters(skeleton(word, false));
  return nameSkeletons(name).some((s) => letters(s) === target);
}
