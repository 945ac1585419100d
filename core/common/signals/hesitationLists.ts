/**
 * The word lists hesitation is counted with. `DEFAULT_FILLERS` is the legacy single list behind `filler_count`
 * (one list for every language, every category summed, no context rules), kept exactly as it was so that earlier
 * figures stay comparable. The per-language lists behind `filled_pause_count`, `hedge_count` and
 * `editing_term_count` are `DEFAULT_HESITATION`; aloud.yaml `thinkaloud.hesitation.<lang>.<list>` replaces a list.
 */

/** The legacy single filler list (aloud.yaml `thinkaloud.fillers`): counted into `filler_count`. */
export const DEFAULT_FILLERS: readonly string[] = ['um', 'uh', 'hmm', 'er', 'like', 'i guess', 'maybe', 'i think', 'sort of', 'kind of'];

/** One language's hesitation lists (aloud.yaml `thinkaloud.hesitation.<lang>`). */
export interface HesitationLists {
  /** sounds that fill a pause: um, uh, äh */
  filled_pauses: readonly string[];
  /** words that soften a claim: maybe, I think, vielleicht */
  hedges: readonly string[];
  /** words that announce a repair: no wait, I mean, ich meine */
  editing_terms: readonly string[];
  /** words that are often said twice on purpose, not counted as repetitions: "that that", "die die" */
  repetition_exceptions: readonly string[];
}

export type HesitationListName = keyof HesitationLists;

export const HESITATION_LIST_NAMES: readonly HesitationListName[] = ['filled_pauses', 'hedges', 'editing_terms', 'repetition_exceptions'];

/** Built-in lists for the languages that have commit phrases built in. */
export const DEFAULT_HESITATION: Readonly<Record<string, HesitationLists>> = {
  en: {
    filled_pauses: ['um', 'uh', 'er', 'erm', 'ah', 'hmm', 'hm', 'mm', 'uhm', 'umm'],
    hedges: ['maybe', 'perhaps', 'probably', 'i think', 'i guess', 'i suppose', 'sort of', 'kind of', 'like'],
    editing_terms: ['no wait', 'wait no', 'i mean', 'actually no', 'or rather', 'scratch that'],
    repetition_exceptions: ['that', 'had'],
  },
  de: {
    filled_pauses: ['äh', 'ähm', 'öh', 'öhm', 'hm', 'hmm', 'mhm', 'um'],
    hedges: ['vielleicht', 'ich glaube', 'ich denke', 'irgendwie', 'wahrscheinlich', 'eher'],
    editing_terms: ['nein warte', 'warte mal', 'ich meine', 'also nein', 'besser gesagt'],
    repetition_exceptions: ['der', 'die', 'das', 'den', 'dem'],
  },
};

const EMPTY_LISTS: HesitationLists = { filled_pauses: [], hedges: [], editing_terms: [], repetition_exceptions: [] };

const NOTHING_CONFIGURED: Readonly<Record<string, Partial<HesitationLists>>> = {};
/** the lists made for each aloud.yaml `hesitation` object, by language: every transcript of a session asks again */
const MADE = new WeakMap<object, Map<string, HesitationLists>>();

/**
 * A language's lists: the built-in ones (none for a language without them) with aloud.yaml's lists in their place.
 * The same object for the same configuration object and language (treat it as read-only).
 */
export function hesitationListsFor(
  language: string,
  configured: Readonly<Record<string, Partial<HesitationLists>>> = NOTHING_CONFIGURED,
): HesitationLists {
  let byLanguage = MADE.get(configured);
  if (!byLanguage) MADE.set(configured, (byLanguage = new Map()));
  let lists = byLanguage.get(language);
  if (!lists) byLanguage.set(language, (lists = { ...(DEFAULT_HESITATION[language] ?? EMPTY_LISTS), ...configured[language] }));
  return lists;
}
