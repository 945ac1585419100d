/**
 * The built-in commit phrases per language, written in the stem pattern language (stemPattern.ts). What may stand
 * before and after them, and when they commit, is the grammar in commitGrammar.ts. Each pattern's first word tells
 * what kind of phrase it is: one that names its speaker ("I label this", "my answer is", "final answer"), a bare verb
 * ("label this") that needs nothing but lead-ins before it in its sentence, or a German inverted one ("wähle ich")
 * that needs a fronted word ("also wähle ich"). Past forms ("labeled") and conditional ones ("I'd", "würde") are
 * tentative: a "but" or "aber" after the label in the same sentence takes them back.
 */
export const DEFAULT_STEMS: Readonly<Record<string, readonly string[]>> = {
  en: [
    'I (label|labeled|labelled) this/it/that (one) (as)',
    "I('d| would| will|'ll) (label|mark|call|rate|classify|categorize|categorise|tag) (this|it|that) (one) (as)",
    'label (this|it|that) (one) (as)',
    "my (label|answer|rating|choice|verdict)('s| is| would be)",
    "(the) final answer('s| is| :)",
    "my final answer('s| is| :)",
    "I('ll) (choose|pick|select|go with|say)",
    "I('d| would| will) (choose|pick|select|go with|say)",
    "I('m| am) (going with|going to go with|gonna go with|going to say|gonna say|going to pick|gonna pick)",
    "I('m| am) (labeling|labelling|marking|rating|tagging) (this|it|that) (one) (as)",
    '(this|it|that) (one) is definitely',
    "(it's|that's|this one's) definitely",
  ],
  de: [
    'ich (wähle|wähl|nehme|nehm|sage|sag)',
    'meine (antwort|wahl|bewertung) (ist|wäre)',
    '(meine) (endgültige|finale) antwort (ist|:)',
    'ich (bewerte|markiere|bewertete|markierte) (das|dies|es) (als)',
    'ich würde sagen',
    '(wähle|wähl|nehme|nehm|sage|sag) ich',
    'ich (entscheide mich für|tippe auf)',
    '(das|dies|es) ist (definitiv|eindeutig)',
    'ich würde (das|dies|es) als {label} (bezeichnen|bewerten|einstufen|markieren|nennen|sehen)',
    'ich würde {label} (sagen|nehmen|wählen)',
  ],
};
