/** Words more than one reader of speech treats as a class; one list each, so a fix reaches every reader. */

/** The German number words from zero to twelve, each at the index of its value. */
export const GERMAN_NUMBER_WORDS_TO_TWELVE: readonly string[] = [
  'null',
  'eins',
  'zwei',
  'drei',
  'vier',
  'fünf',
  'sechs',
  'sieben',
  'acht',
  'neun',
  'zehn',
  'elf',
  'zwölf',
];

/** The German articles, definite and indefinite, in every case. */
export const GERMAN_ARTICLES: readonly string[] = ['der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'einem', 'einer'];

/** The English articles and demonstratives, which open a noun phrase. */
export const ENGLISH_DETERMINERS: readonly string[] = ['a', 'an', 'the', 'this', 'that', 'these', 'those'];
