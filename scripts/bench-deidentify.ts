/**
 * How long de-identification takes on texts: the matcher (1 000 listed terms and every pattern) over 2 000 think-aloud
 * segments, median of 5 runs. Prints figures; asserts nothing. `npx tsx scripts/bench-deidentify.ts`
 */
import { performance } from 'node:perf_hooks';
import { SpanMatcher } from '../core/common/deidentify/spanMatcher';
import { PATTERN_NAMES } from '../core/common/deidentified/deidentifyTerms';

const terms = Array.from({ length: 1000 }, (_, i) => ({ text: `Name${i.toString(36)}son`, class: i % 2 ? 'PERSON' : 'PLACE' }));
const matcher = new SpanMatcher({ terms, patterns: [...PATTERN_NAMES], languages: ['en', 'de'] });
const segments = Array.from(
  { length: 2000 },
  (_, i) =>
    ` Hmm, this sounds like Name${(i % 1000).toString(36)}son, call 555 ${1000 + i} or mail a${i}@example.com on March ${1 + (i % 28)}, I label this polite.`,
);
const runs: number[] = [];
let found = 0;
for (let r = 0; r < 5; r++) {
  const t0 = performance.now();
  found = 0;
  for (const s of segments) found += matcher.find(s).length;
  runs.push(performance.now() - t0);
}
runs.sort((a, b) => a - b);
const median = runs[2]!;
console.log(
  `segments: ${segments.length}, spans found: ${found}, median ${median.toFixed(1)} ms (${((median * 1000) / segments.length).toFixed(1)} µs per segment), runs: ${runs.map((x) => x.toFixed(1)).join(', ')} ms`,
);
