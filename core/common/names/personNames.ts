/**
 * The one rule for the names people and codes go by (annotators, reviewers, coders, a pack's annotator, room members,
 * code names): what a name may contain, and when it stands for a name already there. Look-alikes are judged by the
 * one canonical fold (textFold: NFKD, case, invisibles and marks dropped, Unicode TS #39 confusables), so "bоb" with
 * a Cyrillic о is refused beside "bob" wherever a name enters, with the name it resembles.
 */
import { foldedKeys, looksAlike } from '../text/textFold';
import { fileNameProblem, invisibleCharacter } from './nameRules';

/** The longest name a person or a code may have (characters). */
export const MAX_NAME_CHARS = 200;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
/** Zero-width, bidi overrides and isolates, soft hyphen, variation selectors…: Unicode's own list of what is not drawn. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u061c]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A name shortened for a message: the first 40 characters, quoted. */
export function shownName(name: string): string {
  return JSON.stringify([...name].length > 40 ? `${[...name].slice(0, 40).join('')}…` : name);
}

/** Why `name` cannot be the name of a `what` ("annotator name", "code name"): empty, controls, invisibles, broken, too long; or null. */
export function nameFormProblem(name: string, what: string): string | null {
  if (name.trim() === '') return `${what} must not be empty`;
  if (LONE_SURROGATE.test(name)) return `${what} ${shownName(name)} is not valid Unicode`;
  if (CONTROL.test(name)) return `${what} ${shownName(name)} contains a control character`;
  const hidden = INVISIBLE.exec(name);
  if (hidden) {
    const at = `U+${hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} at position ${[...name.slice(0, hidden.index)].length + 1}`;
    return `${what} ${shownName(name)} contains an invisible or text-direction character (${at}); type the name without it`;
  }
  if ([...name].length > MAX_NAME_CHARS)
    return `${what} ${shownName(name)} is too long (${[...name].length} characters, at most ${MAX_NAME_CHARS})`;
  return null;
}

/**
 * The spelling a person's name is stored under, for every kind of person (annotator, reviewer, coder, adjudicator,
 * room member, a pack's annotator): NFC and trimmed, so "Zoë" typed precomposed or decomposed is one folder. Who is
 * the same person is sameNameKey's wider rule.
 */
export function normalizeAnnotatorName(annotator: string): string {
  return annotator.normalize('NFC').trim();
}

/** Why an (already normalised) name of a person (annotator, reviewer, coder, adjudicator, room member) cannot name a session, or null. */
export function annotatorNameProblem(annotator: string): string | null {
  const hidden = invisibleCharacter(annotator);
  if (hidden)
    return `annotator name ${JSON.stringify(annotator)} contains an invisible or text-direction character (${hidden}); type the name without it`;
  // the one rule for people's names first (Unicode's own list of invisibles), then what a file name can hold
  return fileNameProblem(annotator, 'annotator name') ?? nameFormProblem(annotator, 'annotator name');
}

/** One person, one spelling: names equal up to Unicode form, letter case and spacing ("Ana", " ana ") are one name. */
export function sameNameKey(name: string): string {
  // toLowerCase is the root locale's lower case, without ICU's per-call locale lookup (a table of 200,000 names)
  return name.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

/** Whether two names are one person's (sameNameKey): a coder coding her own protocol, a reviewer of his own session. */
export function sameName(a: string, b: string): boolean {
  return sameNameKey(a) === sameNameKey(b);
}

/** The existing name a typed one is (same up to case and spacing), or null when it is a new name. */
export function existingName(typed: string, existing: Iterable<string>): string | null {
  const key = sameNameKey(typed);
  for (const name of existing) if (sameNameKey(name) === key) return name;
  return null;
}

/** The existing name a new one would be taken for on screen (not the same name: see existingName), or null. */
export function lookAlikeOf(name: string, existing: Iterable<string>): string | null {
  const key = sameNameKey(name);
  for (const other of existing) if (sameNameKey(other) !== key && looksAlike(other, name)) return other;
  return null;
}

/**
 * The existing name a new person's name may not sit beside: the same person spelled another way ("ana" beside "Ana":
 * two sessions of one person) or a look-alike ("bоb" beside "bob"); null when the name is new and clear, or exactly
 * a name already there.
 */
export function clashingName(name: string, existing: Iterable<string>): string | null {
  const names = [...existing];
  if (names.includes(name)) return null;
  return existingName(name, names) ?? lookAlikeOf(name, names);
}

/**
 * Names already taken, indexed by their folded keys: each new name is checked in constant time, so a file of
 * 200,000 coders is linear. `add` returns the taken name a new one looks like (and does not take it), or null.
 */
export class TakenNames {
  private readonly byKey = new Map<string, string>();
  private readonly bySame = new Map<string, string>();

  constructor(names: Iterable<string> = []) {
    for (const name of names) this.add(name);
  }

  /** The taken name `name` is the same as (case, spacing), or null. */
  same(name: string): string | null {
    return this.bySame.get(sameNameKey(name)) ?? null;
  }

  /** Takes `name` unless it looks like another taken name, which is returned. */
  add(name: string): string | null {
    const same = sameNameKey(name);
    if (this.bySame.has(same)) return null;
    const keys = foldedKeys(name);
    for (const key of keys) {
      const other = this.byKey.get(key);
      if (other !== undefined) return other;
    }
    this.bySame.set(same, name);
    for (const key of keys) this.byKey.set(key, name);
    return null;
  }
}

/** Whether the name, read as letters and digits only, is `word` or looks like it ("L.E.A.D", "Ｌｅａｄ", "lеad"). */
export function looksLikeWord(name: string, word: string): boolean {
  const letters = (s: string): string => s.replace(/[^\p{L}\p{N}]/gu, '');
  const targets = new Set(foldedKeys(word).map(letters));
  return foldedKeys(name).some((key) => targets.has(letters(key)));
}
