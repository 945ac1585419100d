/**
 * The commit grammar for spontaneous speech: which words may stand around a commit phrase (defaultStems.ts) for it to
 * commit, English and German. A phrase commits only when the annotator speaks for herself, now:
 *
 *   [lead-ins] STEM [fillers] LABEL [fillers] (end | punctuation | closer)
 *
 * The rules, as `aloud analyze --explain` prints them and the README lists them, are COMMIT_GRAMMAR_RULES below;
 * the word lists after them are what the rules name.
 * Every list here is part of the grammar, versioned with PARSER_VERSION; none comes from aloud.yaml.
 */
import { phraseSet } from './wordTrie';

/** A sentence with more words than this before or after a phrase (whisper without punctuation) is too long to judge. */
export const MAX_SENTENCE_CONTEXT_WORDS = 60;

export const COMMIT_GRAMMAR_RULES: readonly string[] = [
  'Lead-ins: before a phrase that names its speaker ("I label this", "my answer is", "final answer") only lead-ins (okay, so, well, I think, also, dann …) and fillers may stand in its clause; a clause starts after . ! ? ; , : or a dash, and after but, and, so, aber, und, sondern (a comma beside a filler starts none). Before a bare verb ("label this") the same holds for its whole sentence. A German inverted phrase ("nehme ich") needs a lead-in ("also nehme ich"). Anything else — another subject (someone, they, you, people, one, man, er), a past or abandoned intention (I was going to, I wanted to, I almost), a musing (maybe, vielleicht), a question word — commits nothing.',
  'The label closes its phrase: after it (fillers aside) come the end, punctuation or a closer (and, because, I think, weil, finde ich …). "I say polite things" and "ich nehme höflich an" name no label.',
  'Negation: a negation cue between the phrase and the label, or before the phrase in its clause, negates it; its scope ends with the clause, so "I would not label this polite, final answer neutral" commits Neutral.',
  'Conditionals: if, unless, whether, suppose, imagine, wenn, falls, ob … anywhere in the sentence commit nothing; even if, as if, if you ask me, auch wenn, als ob, wenn ich ehrlich bin are no conditions.',
  'Tentative phrases (I\'d, would, würde, wäre, or the past "labeled") commit nothing when but, though, except, aber, allerdings, obwohl … follow the label in the sentence: "I\'d label it polite, but …".',
  'Reported and imagined speech: a clause before the phrase that ends in a saying verb ("she said, …") or frames it ("imagine, …", "sagen wir, …"), or a saying verb with another subject just after the label ("…, he says"), commits nothing; a hedge of one\'s own ("I think, …", "…, glaube ich") does not count.',
  'Repairs: an editing term (no, no wait, I mean, sorry, actually, nein, ich meine …) or a filled pause and then another label commits that label (the repair), never the first; an editing term with no label after it takes the phrase back, and two labels with nothing between are ambiguous. Across a full stop, an editing term followed by a new commit phrase leaves both (a change of label). A retraction in the sentence (changed my mind, on second thought, just kidding, doch nicht) takes it back.',
  'Questions: a "?" between the phrase and the label, or ending the sentence after the label, commits nothing, unless only a tag stands before it ("…, right?", "…, oder?").',
  'A musing word between the phrase and the label (maybe, perhaps, vielleicht) commits nothing; German particles (mal, einfach, halt, eben, im Grunde) may stand there like fillers.',
  `A sentence with more than ${MAX_SENTENCE_CONTEXT_WORDS} words before or after the phrase (whisper writing on without punctuation) is too long to judge: nothing committed.`,
  'A label is named only by its spoken forms: its name, its synonyms in the active languages, and forms derived from them by fixed rules (see spokenForms.ts) — never by closeness of spelling.',
];

/** What may stand before a stem in its clause (before a bare stem: in its sentence). */
export const LEAD_INS = phraseSet([
  // en: discourse markers, hedges of one's own, ways to start an act of one's own
  'okay', 'ok', 'so', 'well', 'alright', 'all right', 'right', 'yeah', 'yes', 'yep', 'no', 'now', 'then', 'anyway', 'anyways',
  'actually', 'honestly', 'overall', 'basically', 'finally', 'ultimately', 'in the end', 'all in all', 'at the end of the day',
  'in any case', 'either way', 'all things considered', 'and', 'but', 'also', 'still', 'therefore', 'so then', 'and then',
  'i think', 'i guess', 'i suppose', "i'd say", 'i would say', 'personally', 'for me', 'to me', 'in my opinion', 'for this one',
  'this time', 'here', 'just', 'good', 'fine', 'oh', 'oh well', 'wait', 'sorry', 'let me', "let's", "i'll", 'i will',
  "i'm going to", "i'm gonna", 'i am going to', "i'd", 'i would', 'definitely', 'clearly', 'obviously', 'again',
  // de: Diskursmarker, eigene Einschätzung
  'also', 'gut', 'na', 'naja', 'na ja', 'na gut', 'ja', 'nein', 'nee', 'so', 'dann', 'jetzt', 'nun', 'insgesamt', 'letztlich',
  'letzten endes', 'schließlich', 'alles in allem', 'im endeffekt', 'ehrlich gesagt', 'für mich', 'ich glaube', 'ich denke',
  'ich finde', 'ich würde sagen', 'hier', 'trotzdem', 'deshalb', 'daher', 'darum', 'somit', 'und', 'aber', 'okay also',
  'also dann', 'gut dann', 'na dann', 'einfach', 'ganz klar', 'klar',
]);

/** Lead-ins that make the stem after them conditional ("I'd just label this polite"). */
export const TENTATIVE_LEAD_INS = phraseSet(["i'd", 'i would', 'ich würde']);

/** Words in a stem that make it tentative: conditional or past. */
export const TENTATIVE_STEM_WORDS: ReadonlySet<string> = new Set([
  "i'd", 'would', 'labeled', 'labelled', 'würde', 'wäre', 'bewertete', 'markierte',
]);

/** First words of a stem that names its speaker (or the item, or the answer), so its own clause is its context. */
export const SELF_STEM_STARTS: ReadonlySet<string> = new Set([
  'i', "i'd", "i'll", "i'm", 'my', 'the', 'final', 'this', 'it', 'that', "it's", "that's", "this's",
  'ich', 'meine', 'mein', 'endgültige', 'finale', 'das', 'dies', 'es',
]);

/** Words that begin a new clause (and end a negation's scope) without punctuation. */
export const CLAUSE_OPENERS: ReadonlySet<string> = new Set(['but', 'and', 'so', 'aber', 'und', 'sondern']);

/** Words after a label that close its phrase (beside the end, punctuation and editing terms). */
export const CLOSERS = phraseSet([
  'and', 'but', 'because', 'cause', "'cause", 'cos', 'since', 'as', 'so', 'or', 'though', 'although', 'while', 'whereas',
  'if', 'unless', 'when', 'then', 'now', 'too', 'also', 'again', 'here', 'overall', 'anyway', 'honestly', 'definitely',
  'i', "i'm", "i'll", "i'd", "i've", "it's", "that's", "there's", 'please', 'okay', 'ok', 'right', 'yeah', 'yes', 'not',
  'for sure', 'for now', 'for me', 'in the end', 'i think', 'i guess', "i'd say", 'i would say', 'i suppose', 'i believe',
  'at least', 'in my opinion', 'this time', 'rather than', 'to be honest', 'all in all', 'after all',
  'und', 'aber', 'weil', 'denn', 'da', 'also', 'dann', 'jetzt', 'halt', 'eben', 'oder', 'sondern', 'doch', 'ich', 'wenn',
  'falls', 'obwohl', 'trotzdem', 'insgesamt', 'bitte', 'ja', 'nein', 'okay', 'gut', 'nicht', 'würde ich sagen', 'finde ich',
  'denke ich', 'glaube ich', 'für mich', 'auf jeden fall', 'im endeffekt', 'alles in allem', 'meiner meinung nach',
]);

/** Conditional words: anywhere in the sentence of a phrase, it commits nothing. */
export const CONDITIONALS = phraseSet([
  'if', 'unless', 'whether', 'in case', 'suppose', 'supposing', 'assuming', 'provided', 'imagine',
  'wenn', 'falls', 'sofern', 'ob', 'angenommen', 'es sei denn',
]);

/** Concessive and idiomatic uses of conditional words: no condition on the commitment. */
export const NOT_CONDITIONAL = phraseSet([
  'even if', 'as if', 'even though', "if i'm honest", 'if i am honest', 'if you ask me', 'if anything', 'if that makes sense',
  'auch wenn', 'selbst wenn', 'als ob', 'wie wenn', 'wenn ich ehrlich bin', 'wenn du mich fragst', 'wenn sie mich fragen',
]);

/** Contrasts after the label that take back a tentative stem. */
export const CONTRASTS = phraseSet(['but', 'though', 'although', 'however', 'except', 'only', 'yet', 'aber', 'allerdings', 'jedoch', 'nur', 'bloß', 'obwohl']);

/** Verbs of saying and thinking that make what follows (or precedes) someone's reported words. */
export const REPORTING_VERBS: ReadonlySet<string> = new Set([
  'say', 'says', 'said', 'ask', 'asks', 'asked', 'think', 'thinks', 'thought', 'write', 'writes', 'wrote', 'claim', 'claims',
  'claimed', 'argue', 'argues', 'argued', 'told', 'tells', 'suggest', 'suggests', 'suggested',
  'sagt', 'sagte', 'sagen', 'meint', 'meinte', 'meinen', 'schreibt', 'schrieb', 'fragt', 'fragte', 'denkt', 'dachte',
  'glaubt', 'glaubte', 'behauptet', 'behauptete',
]);

/** A clause before the stem's with one of these frames it as imagined ("imagine, I label this polite"). */
export const FRAMES = phraseSet(['imagine', 'pretend', "let's say", 'say', 'suppose', 'picture this', 'stell dir vor', 'stellen wir uns vor', 'sagen wir', 'nehmen wir an', 'angenommen']);

/** Words within which, after the label, a saying verb makes the phrase reported ("polite, she said"). */
export const REPORTED_AFTER_WORDS = 3;

/** Musing words: between the stem and the label, or before the stem, the phrase is not yet a decision. */
export const MUSINGS: ReadonlySet<string> = new Set(['maybe', 'perhaps', 'possibly', 'vielleicht', 'eventuell', 'möglicherweise']);

/** Editing terms that announce a repair of what was just said. */
export const EDITING_TERMS = phraseSet([
  'no wait', 'wait', 'sorry', 'i mean', 'i meant', 'actually no', 'no no', 'make that', 'scratch that', 'correction',
  'nein warte', 'warte', 'warte mal', 'ich meine', 'ich meinte', 'also nein', 'besser gesagt', 'entschuldigung', 'quatsch',
  'korrigiere', 'äh nein',
]);

/** Editing words that announce a repair only when a label or the end follows ("no, rude" but not "no doubt"). */
export const CONDITIONAL_EDITING_WORDS: ReadonlySet<string> = new Set(['no', 'nope', 'nah', 'nein', 'nee', 'nö', 'actually', 'rather', 'eher', 'eigentlich']);

/** Adverbs that may stand between an editing term and the repair ("no, definitely rude"). */
export const REPAIR_ADVERBS = phraseSet(['definitely', 'clearly', 'really', 'rather', 'actually', 'more like', 'definitiv', 'eindeutig', 'eher', 'doch', 'eigentlich']);

/** Later in the sentence, these take the phrase back. */
export const RETRACTIONS = phraseSet([
  'changed my mind', 'change my mind', 'changing my mind', 'on second thought', 'on second thoughts', 'never mind', 'nevermind',
  'scratch that', 'i take that back', 'take that back', 'take it back', 'forget that', 'forget it', 'just kidding', 'kidding',
  'doch nicht', 'nur ein scherz', 'war nur spaß', 'anders überlegt', 'nehme ich zurück', 'nehme das zurück', 'vergiss es', 'vergiss das',
]);

/** Tags that may end a commitment with a question mark: "I label this polite, right?" asks for no answer. */
export const QUESTION_TAGS = phraseSet([
  'right', "isn't it", 'is it not', 'yeah', 'okay', 'ok', 'no', "don't you think", "wouldn't you say", "wouldn't you agree",
  "wouldn't you", "don't i", 'agreed', "isn't that right", 'oder', 'ne', 'nicht wahr', 'gell', 'ja', 'oder nicht',
]);

/** Particles that may stand between a stem and its label, like fillers ("ich sage mal höflich"). */
export const STEM_PARTICLES = phraseSet(['mal', 'einfach', 'halt', 'eben', 'jetzt', 'dann', 'also', 'im grunde']);

/** Filled pauses the parser always skips between words of the grammar (beside aloud.yaml's fillers). */
export const FILLED_PAUSES: readonly string[] = ['um', 'uh', 'er', 'erm', 'ah', 'hmm', 'hm', 'mm', 'uhm', 'umm', 'äh', 'ähm', 'öh', 'öhm'];
