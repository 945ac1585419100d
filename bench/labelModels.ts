/**
 * Label models at scale: 20 annotators × 10,000 items (every annotator labels every item by default, 4 labels, a spammer and a random
 * clicker among the 20). Prints the median time of Dawid–Skene and MACE fits (target ≤ 10 s each on a 2-core machine),
 * the peak resident memory (target ≤ 500 MB), and what the bootstrap intervals and the held-out comparison cost.
 * Run: npm run bench:gold [-- --runs 3 --resamples 20 --per-item 5]
 */
import { parseArgs } from 'node:util';
import { seededRandom } from '../core/common/agreement/krippendorff';
import { type Annotation, annotationTable } from '../core/common/labelModels/annotationTable';
import { bootstrapIntervals } from '../core/common/labelModels/bootstrapIntervals';
import { fitLabelModel } from '../core/common/labelModels/fitLabelModel';
import { compareModels } from '../core/common/labelModels/heldOutFit';
import type { LabelModelName } from '../core/common/labelModels/labelModel';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    resamples: { type: 'string', default: '20' },
    items: { type: 'string', default: '10000' },
    annotators: { type: 'string', default: '20' },
    'per-item': { type: 'string', default: '20' },
  },
});
const runs = Number(values.runs);
const resamples = Number(values.resamples);
const ITEMS = Number(values.items);
const ANNOTATORS = Number(values.annotators);
const PER_ITEM = Number(values['per-item']);
const K = 4;

function study(): Annotation[] {
  const random = seededRandom(42);
  const accuracy = Array.from({ length: ANNOTATORS }, (_, j) => (j === 0 ? -1 : j === 1 ? 0.25 : 0.6 + 0.3 * random()));
  const annotations: Annotation[] = [];
  for (let i = 0; i < ITEMS; i++) {
    const truth = Math.floor(random() * K);
    const chosen = new Set<number>();
    while (chosen.size < PER_ITEM) chosen.add(Math.floor(random() * ANNOTATORS));
    for (const j of chosen) {
      // annotator 0 always says label 0 (a spammer); annotator 1 clicks at random (accuracy 1/K)
      const label = accuracy[j]! < 0 ? 0 : random() < accuracy[j]! ? truth : Math.floor(random() * K);
      annotations.push({ item_id: `item-${i}`, annotator: `annotator-${j}`, label: `label-${label}` });
    }
  }
  return annotations;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
let peak = process.memoryUsage().rss;
const sample = (): void => void (peak = Math.max(peak, process.memoryUsage().rss));
const timer = setInterval(sample, 20);

const annotations = study();
const t0 = performance.now();
const table = annotationTable(annotations);
console.log(
  `study: ${ANNOTATORS} annotators × ${ITEMS} items, ${PER_ITEM} labels per item (${table.item.length} annotations), ${K} labels; table built in ${(performance.now() - t0).toFixed(0)} ms`,
);
for (const model of ['majority', 'dawid-skene', 'mace', 'difficulty'] as LabelModelName[]) {
  const times: number[] = [];
  let iterations = 0;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    const fit = fitLabelModel(model, { table, seed: r + 1 });
    times.push(performance.now() - start);
    iterations = fit.iterations;
    sample();
  }
  console.log(
    `${model.padEnd(12)} fit: median ${(median(times) / 1000).toFixed(2)} s over ${runs} runs (${iterations} iterations${model === 'mace' ? ', best of 10 restarts' : ''})`,
  );
}
for (const model of ['dawid-skene', 'mace'] as LabelModelName[]) {
  const fit = fitLabelModel(model, { table, seed: 1 });
  const start = performance.now();
  bootstrapIntervals(table, model, fit, { resamples, seed: 1 });
  const seconds = (performance.now() - start) / 1000;
  sample();
  console.log(
    `${model.padEnd(12)} bootstrap: ${resamples} resamples in ${seconds.toFixed(1)} s, ${((1000 * seconds) / resamples).toFixed(0)} ms per resample (the default 200 would take about ${((200 * seconds) / resamples).toFixed(0)} s)`,
  );
}
{
  const start = performance.now();
  const comparison = compareModels(table, ['majority', 'dawid-skene', 'mace', 'difficulty'], { folds: 5, seed: 1 });
  sample();
  console.log(`held-out comparison (5 folds × 4 models): ${((performance.now() - start) / 1000).toFixed(1)} s; best ${comparison.best}`);
}
clearInterval(timer);
sample();
console.log(`peak resident memory: ${(peak / 2 ** 20).toFixed(0)} MB`);
