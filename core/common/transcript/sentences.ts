/**
 * Where sentences end: at `.`, `!`, `?` or `…` (closing quotes and brackets included) followed by white space and a
 * character that is not a lower-case letter, so "e.g. this" and "3.5" stay whole. One rule for a model's reasoning
 * split into sentences and for sentence units of a think-aloud protocol.
 */
const SENTENCE_END = /[.!?\u2026]+["'\u2019\u201d)\]]*(?=\s+[^\s\p{Ll}])/gu;

/** The sentences of a text as [start, end) offsets, white space around each left out; empty pieces dropped. */
export function sentenceSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const push = (from: number, to: number): void => {
    let start = from;
    let end = to;
    while (start < end && /\s/u.test(text[start]!)) start++;
    while (end > start && /\s/u.test(text[end - 1]!)) end--;
    if (end > start) spans.push([start, end]);
  };
  let from = 0;
  for (const m of text.matchAll(SENTENCE_END)) {
    const end = m.index + m[0].length;
    push(from, end);
    from = end;
  }
  push(from, text.length);
  return spans;
}
