/**
 * The documented spoken forms of each label: what may follow a commit phrase and name it. A label is named by its
 * name, its synonyms (active languages), and forms derived from them by fixed rules that undo what speech
 * recognition does to a word — never by closeness of spelling:
 * - `compound`: a name of several words also as one hyphenated or closed word ("not-toxic", "nottoxic"); a hyphenated
 *   word also spaced or closed ("well mannered", "wellmannered");
 * - `split prefix`: a word that starts with a negating prefix (im, in, un, non, dis, il, ir) before at least four more
 *   letters, also with the prefix apart or hyphenated ("im polite", "im-polite"); im and in also stand for each
 *   other, since they sound alike ("in polite");
 * - `spelling`: British and American spellings (-ise/-ize, -yse/-yze, -isation/-ization, -our/-or) and ss for ß.
 * A derived form that is also a form of another label is dropped from both, and listed as dropped.
 */
import type { LabelDef } from './parseTypes';
import { normalizeForMatching } from './matchText';

export type SpokenFormSource = 'name' | 'synonym' | 'derived';

export interface SpokenForm {
  /** normalised words, as a transcript is matched */
  text: string;
  source: SpokenFormSource;
  /** the synonym's language; null for names and forms derived from a name */
  language: string | null;
  /** for a derived form: the rule, and the name or synonym it comes from */
  rule?: string;
  from?: string;
}

export interface LabelSpokenForms {
  label: string;
  forms: SpokenForm[];
  /** derived forms left out because another label has them too */
  dropped: Array<{ text: string; rule: string; reason: string }>;
}

const NEGATING_PREFIXES = ['non', 'dis', 'im', 'in', 'un', 'il', 'ir'];
const MIN_REST_AFTER_PREFIX = 4;
const SPELLINGS: ReadonlyArray<readonly [RegExp, string]> = [
  [/isation$/u, 'ization'],
  [/ization$/u, 'isation'],
  [/ise$/u, 'ize'],
  [/ize$/u, 'ise'],
  [/ised$/u, 'ized'],
  [/ized$/u, 'ised'],
  [/yse$/u, 'yze'],
  [/yze$/u, 'yse'],
  [/our$/u, 'or'],
  [/([^aeiou])or$/u, '$1our'],
];
const MIN_SPELLING_WORD = 5;

/** Forms derived from one normalised name or synonym, each with its rule. */
function derive(phrase: string): Array<{ text: string; rule: string }> {
  const out: Array<{ text: string; rule: string }> = [];
  const words = phrase.split(' ');
  if (words.length > 1) {
    out.push({ text: words.join('-'), rule: 'compound' }, { text: words.join(''), rule: 'compound' });
  } else if (phrase.includes('-')) {
    const parts = phrase.split('-');
    out.push({ text: parts.join(' '), rule: 'compound' }, { text: parts.join(''), rule: 'compound' });
  }
  if (words.length === 1 && !phrase.includes('-')) {
    for (const prefix of NEGATING_PREFIXES) {
      const rest = phrase.slice(prefix.length);
      if (!phrase.startsWith(prefix) || [...rest].length < MIN_REST_AFTER_PREFIX) continue;
      const heard = prefix === 'im' ? ['im', 'in'] : prefix === 'in' ? ['in', 'im'] : [prefix];
      for (const p of heard) out.push({ text: `${p} ${rest}`, rule: 'split prefix' }, { text: `${p}-${rest}`, rule: 'split prefix' });
      break;
    }
  }
  const spelled = words.map((word) => {
    if ([...word].length < MIN_SPELLING_WORD) return word;
    for (const [ending, replacement] of SPELLINGS) if (ending.test(word)) return word.replace(ending, replacement);
    return word;
  });
  const respelled = spelled.join(' ').replace(/ß/gu, 'ss');
  if (respelled !== phrase) out.push({ text: respelled, rule: 'spelling' });
  return out;
}

/**
 * Every label's spoken forms for the active languages: name, synonyms of those languages, derived forms. Synonyms of
 * other languages still keep a derived form from being given to another label.
 */
export function spokenFormsOf(labels: readonly LabelDef[], languages: readonly string[]): LabelSpokenForms[] {
  /** normalised text → labels (by index) that have it as a name or synonym in any language */
  const claimedBy = new Map<string, Set<number>>();
  const claim = (text: string, label: number, into: Map<string, Set<number>>): void => {
    const set = into.get(text) ?? new Set<number>();
    set.add(label);
    into.set(text, set);
  };
  const own: Array<{ name: SpokenForm | null; synonyms: SpokenForm[] }> = labels.map((label, index) => {
    const name = normalizeForMatching(label.name);
    if (name !== '') claim(name, index, claimedBy);
    const synonyms: SpokenForm[] = [];
    for (const [language, list] of Object.entries(label.synonyms ?? {})) {
      for (const synonym of list) {
        const text = normalizeForMatching(synonym);
        if (text === '') continue;
        claim(text, index, claimedBy);
        if (languages.includes(language) && !synonyms.some((s) => s.text === text)) synonyms.push({ text, source: 'synonym', language });
      }
    }
    return { name: name === '' ? null : { text: name, source: 'name', language: null }, synonyms };
  });
  /** derived text → labels that derive it */
  const derivedBy = new Map<string, Set<number>>();
  const candidates = own.map((forms, index) => {
    const list: Array<SpokenForm & { rule: string }> = [];
    for (const base of [...(forms.name ? [forms.name] : []), ...forms.synonyms]) {
      for (const { text, rule } of derive(base.text)) {
        if (list.some((f) => f.text === text) || text === base.text) continue;
        list.push({ text, source: 'derived', language: base.language, rule, from: base.text });
        claim(text, index, derivedBy);
      }
    }
    return list;
  });
  return labels.map((label, index) => {
    const forms: SpokenForm[] = [...(own[index]!.name ? [own[index]!.name!] : []), ...own[index]!.synonyms];
    const dropped: LabelSpokenForms['dropped'] = [];
    for (const form of candidates[index]!) {
      const claimants = claimedBy.get(form.text);
      if (claimants?.has(index)) continue; // already a name or synonym of this label
      const others = [...(claimants ?? []), ...(derivedBy.get(form.text) ?? [])].filter((l) => l !== index);
      if (others.length > 0) {
        dropped.push({ text: form.text, rule: form.rule, reason: `also a form of "${labels[others[0]!]!.name}"` });
        continue;
      }
      forms.push(form);
    }
    return { label: label.name, forms, dropped };
  });
}
