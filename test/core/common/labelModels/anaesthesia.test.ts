/**
 * A published dataset with reference numbers: Dawid & Skene (1979), Applied Statistics 28(1):20–28, Table 1 — 45
 * patients rated 1–4 by five anaesthetists, observer 1 three times (reference/anaesthesia.json names the public copies
 * it was taken from). The reference figures (reference/dawidSkene1979.out.json) come from reference/dawidSkene1979.py,
 * an independent numpy implementation of the paper's EM (plain maximum likelihood, vote-share start). The class prior
 * it reaches, (0.40, 0.42, 0.11, 0.07), and observer 1's error rates are the ones printed by the public implementation
 * github.com/dallascard/dawid_skene for the same data; we could not check the paper's own tables here (no copy).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Annotation, annotationTable } from '../../../../core/common/labelModels/annotationTable';
import { fitDawidSkene } from '../../../../core/common/labelModels/dawidSkene';

const here = join(__dirname, 'reference');
const patients = (JSON.parse(readFileSync(join(here, 'anaesthesia.json'), 'utf8')) as { patients: number[][][] }).patients;
const reference = JSON.parse(readFileSync(join(here, 'dawidSkene1979.out.json'), 'utf8')) as {
  prior: number[];
  posterior: number[][];
  confusion: number[][][];
  log_likelihood: number;
};

const annotations: Annotation[] = patients.flatMap((observers, i) =>
  observers.flatMap((ratings, j) =>
    ratings.map((r) => ({ item_id: `patient ${i + 1}`, annotator: `observer ${j + 1}`, label: String(r) })),
  ),
);
const table = annotationTable(annotations, { labelOrder: ['1', '2', '3', '4'] });

describe('Dawid–Skene on the anaesthesia data of Dawid & Skene (1979)', () => {
  it('reads 45 patients, 5 observers and 315 ratings (observer 1 three times)', () => {
    expect([table.items.length, table.annotators.length, table.item.length]).toEqual([45, 5, 315]);
  });

  const fit = fitDawidSkene({ table }, { smoothing: 0, tolerance: 1e-14, maxIterations: 10_000 });

  it('reaches the reference class prior, posteriors, error rates and log-likelihood (plain maximum likelihood)', () => {
    fit.prior.forEach((p, z) => expect(p).toBeCloseTo(reference.prior[z]!, 5));
    expect(fit.logLikelihood).toBeCloseTo(reference.log_likelihood, 4);
    for (let i = 0; i < 45; i++)
      for (let z = 0; z < 4; z++) expect(Math.abs(fit.posterior[i * 4 + z]! - reference.posterior[i]![z]!)).toBeLessThan(1e-4);
    for (let j = 0; j < 5; j++)
      for (let z = 0; z < 4; z++)
        for (let l = 0; l < 4; l++)
          expect(Math.abs(fit.confusion[j * 16 + z * 4 + l]! - reference.confusion[j]![z]![l]!)).toBeLessThan(1e-4);
  });

  it('gives the figures the public implementation prints: prior (0.40, 0.42, 0.11, 0.07); observer 1 reads class 4 as 3 about half the time', () => {
    expect([...fit.prior].map((p) => p.toFixed(2))).toEqual(['0.40', '0.42', '0.11', '0.07']);
    expect([...fit.confusion.slice(0, 16)].map((p) => Number(p.toFixed(2)))).toEqual([
      0.89, 0.11, 0, 0, 0.07, 0.88, 0.05, 0, 0, 0.34, 0.66, 0, 0, 0, 0.56, 0.44,
    ]);
  });

  // Plain maximum likelihood rests on zero cells (a class an observer never used becomes impossible): with add-one
  // smoothing 4 of the 45 patients change class (2: 4→3, 3: 2→1, 12: 3→2, 38: 3→2), each one the plain fit held at ≥ 0.98
  it('with Laplace smoothing (the default) keeps the class of at least 41 of the 45 patients', () => {
    const smoothed = fitDawidSkene({ table });
    const best = (q: ArrayLike<number>, o: number): number => [0, 1, 2, 3].reduce((b, z) => (q[o + z]! > q[o + b]! ? z : b), 0);
    const changed = reference.posterior.flatMap((row, i) => (best(smoothed.posterior, i * 4) === best(row, 0) ? [] : [i + 1]));
    expect(changed).toEqual([2, 3, 12, 38]);
  });
});
