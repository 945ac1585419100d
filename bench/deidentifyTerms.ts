/**
 * De-identification list benchmark (figures only; nothing is asserted). Run: npm run bench:deidentify [-- --terms 100000]
 *
 * A deidentify.yaml of N distinct two-word person names (the list's upper bound is 100 000) is parsed and checked,
 * its matcher (one automaton over every term's canonical form) built, and a 10 000-word transcript holding some of
 * the names, a few as look-alikes, searched. Prints each stage's wall time and the total (the issue's bound: 5 s).
 */
import { parseArgs } from 'node:util';
import { parseDeidentifyList } from '../core/common/deidentify/deidentifyList';
import { SpanMatcher } from '../core/common/deidentify/spanMatcher';

const { values } = parseArgs({ options: { terms: { type: 'string', default: '100000' } } });
const termCount = Math.max(1, Number(values.terms) || 100_000);

// no letters that look like others ("rn" is "m", "l" is "I"): the list refuses look-alike duplicates
const letters = 'abcdefghjkpqstuvwxyz';
/** a distinct word per number: its digits in base 20 as letters */
const word = (n: number, salt: string): string => {
  let s = '';
  for (let k = n + 20 ** 3; k > 0; k = Math.floor(k / 20)) s += letters[k % 20];
  return `${salt}${s}`;
};
const names = Array.from({ length: termCount }, (_, i) => `${word(i, 'Jo')} ${word(i, 'We')}`);
const yaml = `version: bench\nterms:\n${names.map((n) => `  - {text: "${n}", class: PERSON}\n`).join('')}`;

const t0 = performance.now();
const list = parseDeidentifyList(yaml);
const t1 = performance.now();
const matcher = new SpanMatcher(list);
const t2 = performance.now();
const filler = 'so I think the answer is probably right but let me check again';
const transcript = Array.from({ length: 800 }, (_, i) =>
  i % 8 === 0 ? `${filler} ${i % 16 === 0 ? names[(i * 97) % termCount] : names[(i * 31) % termCount]!.replace('J', '\u0408')}` : filler,
).join(' ');
const spans = matcher.find(transcript);
const t3 = performance.now();

const ms = (a: number, b: number): string => `${(b - a).toFixed(0)} ms`;
console.log(`terms: ${termCount} (${(yaml.length / 1024 / 1024).toFixed(1)} MiB of YAML)`);
console.log(`parse and check deidentify.yaml: ${ms(t0, t1)}`);
console.log(`build the matcher (automaton over the folded terms): ${ms(t1, t2)}`);
console.log(`find in a ${transcript.split(' ').length}-word transcript: ${ms(t2, t3)} (${spans.length} spans)`);
console.log(`total: ${ms(t0, t3)} (bound: 5000 ms)`);
