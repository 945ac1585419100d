/**
 * Evidence on studies with known truth: four good annotators, a spammer who always says "Neutral", a random clicker and
 * one who reads Polite and Neutral as each other half the time. Each test fails if the model stops doing what the
 * literature says it does (Dawid & Skene 1979; Hovy et al. 2013; Whitehill et al. 2009).
 */
import { describe, expect, it } from 'vitest';
import { annotationTable, LabelModelInputError } from '../../../../core/common/labelModels/annotationTable';
import { bootstrapIntervals } from '../../../../core/common/labelModels/bootstrapIntervals';
import { confusedPairs } from '../../../../core/common/labelModels/confusedPairs';
import { fitLabelModel } from '../../../../core/common/labelModels/fitLabelModel';
import { goldReport } from '../../../../core/common/labelModels/goldReport';
import { argmax, type LabelModelName } from '../../../../core/common/labelModels/labelModel';
import { goodAnnotator, LABELS, pairConfuser, randomClicker, type SimulatedAnnotator, simulateStudy, spammer } from './simulatedStudy';

const NEUTRAL = LABELS.indexOf('Neutral');
const POLITE = LABELS.indexOf('Polite');
const team: SimulatedAnnotator[] = [
  goodAnnotator('good 1', 0.75),
  goodAnnotator('good 2', 0.7),
  goodAnnotator('good 3', 0.65),
  goodAnnotator('good 4', 0.7),
  spammer('spammer', NEUTRAL),
  randomClicker('clicker'),
  pairConfuser('confuser', 0.8, POLITE, NEUTRAL, 0.5),
];

function accuracy(model: LabelModelName, seed: number): number {
  const study = simulateStudy(seed, team, 400, { perItem: 5 });
  const table = annotationTable(study.annotations, { labelOrder: LABELS });
  const fit = fitLabelModel(model, { table, seed });
  let right = 0;
  table.items.forEach(
    (id, i) => (right += LABELS[argmax(fit.posterior, i * LABELS.length, LABELS.length)] === study.truth.get(id) ? 1 : 0),
  );
  return right / table.items.length;
}

describe('label models on simulated studies with known truth', () => {
  it('Dawid–Skene, MACE and the difficulty model recover the true labels better than majority vote (3 studies)', () => {
    for (const seed of [1, 2, 3]) {
      const majority = accuracy('majority', seed);
      // majority vote is pulled to "Neutral" by the spammer and the confuser: the models learn to discount them
      expect(accuracy('dawid-skene', seed)).toBeGreaterThan(majority + 0.05);
      expect(accuracy('mace', seed)).toBeGreaterThan(majority + 0.05);
      expect(accuracy('difficulty', seed)).toBeGreaterThan(majority + 0.03);
    }
  });

  it('rank the spammer and the random clicker last', () => {
    const study = simulateStudy(4, team, 400, { perItem: 5 });
    const table = annotationTable(study.annotations, { labelOrder: LABELS });
    for (const model of ['dawid-skene', 'mace', 'difficulty'] as const) {
      const fit = fitLabelModel(model, { table, seed: 1 });
      const ranked = table.annotators
        .map((name, j) => ({ name, competence: fit.competence[j]! }))
        .sort((a, b) => b.competence - a.competence);
      expect(new Set(ranked.slice(-2).map((r) => r.name)), model).toEqual(new Set(['spammer', 'clicker']));
    }
  });

  it('name Polite/Neutral first among the confused pairs, confused by the confuser (not the spammer or the clicker)', () => {
    for (const seed of [5, 6]) {
      const study = simulateStudy(seed, team, 400, { perItem: 5 });
      for (const model of ['dawid-skene', 'mace'] as const) {
        const report = goldReport(study.annotations, { model, resamples: 20, seed: 1, folds: 2 });
        const [first] = report.confused_pairs;
        expect(new Set(first?.labels), model).toEqual(new Set(['Polite', 'Neutral']));
        expect(first?.annotators).toEqual(['confuser']);
        expect(first?.of).toBe(7);
        expect(first!.items.length).toBeGreaterThan(0);
        expect(report.confused_pairs.flatMap((p) => p.annotators)).not.toContain('clicker');
      }
    }
  });

  it('no pair is confused when every annotator errs at random', () => {
    const study = simulateStudy(
      7,
      [1, 2, 3, 4, 5].map((k) => goodAnnotator(`good ${k}`, 0.7)),
      400,
      { perItem: 4 },
    );
    const table = annotationTable(study.annotations, { labelOrder: LABELS });
    expect(confusedPairs(table, fitLabelModel('dawid-skene', { table }).posterior)).toEqual([]);
  });

  /**
   * Coverage: the 90% bootstrap interval of an item's label probability should hold the probability the true
   * parameters give (Bayes' rule with the simulated confusion matrices) for about 90% of the items. Tolerance: the mean
   * over three studies of 600 items (3 labels each) — items in one study share its parameter estimates, so one study's
   * coverage moves by several points. Measured: Dawid–Skene (percentile) 0.85, 0.87, 0.91 (mean 0.88); MACE (basic
   * interval on the logit scale, bootstrapIntervals.ts says why) 0.89, 0.91, 0.91 (mean 0.91) — with the percentile
   * interval it was 0.76, 0.77, 0.88 (mean 0.80), which the 0.82 floor refuses. Tolerance 0.82–0.98 for both.
   * Each model is checked on a team it can describe (MACE has no pair confusion: a fifth good annotator replaces the
   * confuser).
   */
  for (const [model, annotators, lowest] of [
    ['dawid-skene', team, 0.82],
    ['mace', [...team.slice(0, 6), goodAnnotator('good 5', 0.8)], 0.82],
  ] as const)
    it(`${model}: 90% intervals cover about 90% of simulated items`, () => {
      const coverages = [11, 12, 13].map((seed) => {
        const study = simulateStudy(seed, annotators, 600, { perItem: 3 });
        const table = annotationTable(study.annotations, { labelOrder: LABELS });
        const K = LABELS.length;
        const fit = fitLabelModel(model, { table, seed: 1 });
        const intervals = bootstrapIntervals(table, model, fit, { resamples: 200, seed: 2, level: 0.9 });
        let covered = 0;
        for (let i = 0; i < table.items.length; i++) {
          const log = new Array<number>(K).fill(-Math.log(K));
          for (let p = table.byItemStart[i]!; p < table.byItemStart[i + 1]!; p++) {
            const a = table.byItem[p]!;
            const confusion = annotators.find((x) => x.name === table.annotators[table.annotator[a]!])!.confusion;
            for (let z = 0; z < K; z++) log[z]! += Math.log(confusion[z]![table.label[a]!]!);
          }
          const max = Math.max(...log);
          const odds = log.map((x) => Math.exp(x - max));
          const truthProbability = odds[argmax(fit.posterior, i * K, K)]! / odds.reduce((s, x) => s + x, 0);
          if (truthProbability >= intervals.item[2 * i]! - 1e-9 && truthProbability <= intervals.item[2 * i + 1]! + 1e-9) covered++;
        }
        return covered / table.items.length;
      });
      const mean = coverages.reduce((s, x) => s + x, 0) / coverages.length;
      expect(mean, `coverages ${coverages.map((c) => c.toFixed(3)).join(', ')}`).toBeGreaterThanOrEqual(lowest);
      expect(mean).toBeLessThanOrEqual(0.98);
    }, 60_000);
});

describe('the gold report', () => {
  const study = simulateStudy(21, team, 150, { perItem: 4 });

  it('is the same for the same seed, and names the model that fits best on held-out labels', () => {
    const a = goldReport(study.annotations, { model: 'auto', resamples: 30, seed: 9, folds: 3 });
    const b = goldReport(study.annotations, { model: 'auto', resamples: 30, seed: 9, folds: 3 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const best = [...a.model_fit.scores].sort((x, y) => y.log_likelihood - x.log_likelihood)[0]!;
    expect(a.model).toBe(best.model);
    expect(a.model).not.toBe('majority');
    expect(a.model_fit.said).toContain(`${best.model} fits best`);
    const majority = a.model_fit.scores.find((s) => s.model === 'majority')!;
    expect(majority.behind_best).toBeGreaterThan(0);
    expect(majority.behind_best_ci95![0]).toBeGreaterThan(0);
  });

  it("gives every labelled item a label, a probability inside its interval, a difficulty; adjudicated items keep the adjudicator's label", () => {
    const first = study.annotations[0]!.item_id;
    const report = goldReport(study.annotations, {
      model: 'dawid-skene',
      resamples: 30,
      seed: 9,
      folds: 2,
      adjudicated: new Map([[first, 'Sarcastic']]),
    });
    expect(report.items).toHaveLength(150);
    for (const item of report.items.slice(1)) {
      expect(item.source).toBe('model');
      expect(item.ci95[0]).toBeLessThanOrEqual(item.probability + 1e-9);
      expect(item.ci95[1]).toBeGreaterThanOrEqual(item.probability - 1e-9);
      expect(item.difficulty).toBeGreaterThan(0);
    }
    expect(report.items[0]).toMatchObject({ item_id: first, label: 'Sarcastic', source: 'adjudicated' });
    expect(report.annotators.map((a) => a.annotator).sort()).toEqual(team.map((t) => t.name).sort());
    const spam = report.annotators.find((a) => a.annotator === 'spammer')!;
    expect(spam.confusion.Polite!.Neutral!.p).toBeGreaterThan(0.8);
  });

  it('gives no label to an item nobody labelled, and refuses input it cannot model', () => {
    const report = goldReport(study.annotations, {
      model: 'majority',
      resamples: 10,
      seed: 1,
      folds: 2,
      itemOrder: ['never labelled', ...new Set(study.annotations.map((a) => a.item_id))],
    });
    expect(report.items.map((i) => i.item_id)).not.toContain('never labelled');
    expect(() => goldReport([], { model: 'majority' })).toThrow(LabelModelInputError);
    expect(() => goldReport([{ item_id: 'a', annotator: 'x', label: 'Yes' }], { model: 'majority' })).toThrow(/at least two/);
    expect(() => goldReport([{ item_id: 'a', annotator: 'x', label: 'Maybe' }], { model: 'majority', labelOrder: ['Yes', 'No'] })).toThrow(
      /"Maybe" .* is not one of Yes, No/,
    );
  });
});
