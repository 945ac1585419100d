/**
 * Hesitation as evidence on simulated studies: when wrong labels come with more pauses, hedges and changes of mind
 * (as think-aloud studies report), the logistic model with hesitation predicts held-out disagreements better than the
 * annotator's accuracy alone; when hesitation is unrelated to being wrong, it does not.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../core/common/agreement/krippendorff';
import { annotationTable } from '../../../../core/common/labelModels/annotationTable';
import { fitLabelModel } from '../../../../core/common/labelModels/fitLabelModel';
import {
  fitLogistic,
  hesitationEvidence,
  type HesitationMeasures,
  hesitationMeasuresOf,
} from '../../../../core/common/labelModels/hesitationEvidence';
import { goldReport } from '../../../../core/common/labelModels/goldReport';
import { goodAnnotator, LABELS, randomClicker, simulateStudy } from './simulatedStudy';

const team = [goodAnnotator('a', 0.8), goodAnnotator('b', 0.75), goodAnnotator('c', 0.7), goodAnnotator('d', 0.7), randomClicker('e')];

/** Measures per annotation: a wrong label adds `effect` to the expected hedges and label changes and to the pause. */
function measuresFor(study: ReturnType<typeof simulateStudy>, effect: number, seed: number): HesitationMeasures[] {
  const random = seededRandom(seed);
  const poisson = (mean: number): number => {
    let k = 0;
    for (let p = Math.exp(-mean), s = p, u = random(); u > s; k++) s += p *= mean / (k + 1);
    return k;
  };
  return study.annotations.map((a) => {
    const wrong = study.truth.get(a.item_id) !== a.label ? effect : 0;
    return {
      pause_ms: 1000 * (1 + 2 * random() + 3 * wrong),
      filled_pauses: poisson(1),
      hedges: poisson(0.5 + wrong),
      label_changes: poisson(0.2 + 0.5 * wrong),
      time_to_commit_ms: 4000 + 2000 * random(),
    };
  });
}

describe('hesitation as evidence', () => {
  const study = simulateStudy(31, team, 400, { perItem: 4 });
  const table = annotationTable(study.annotations, { labelOrder: LABELS });
  const fit = fitLabelModel('dawid-skene', { table });

  it('improves the held-out fit when wrong labels are hesitant, with hedges and changes of mind as odds ratios above 1', () => {
    const evidence = hesitationEvidence(table, fit, measuresFor(study, 1, 2), { seed: 3 });
    if ('unavailable' in evidence) throw new Error(evidence.unavailable);
    expect(evidence.annotations).toBe(1600);
    expect(evidence.held_out.ci95[0]).toBeGreaterThan(0);
    expect(evidence.said).toMatch(/^hesitation improves/);
    const or = Object.fromEntries(evidence.odds_ratios.map((o) => [o.measure, o]));
    expect(or['hedges']!.ci95[0]).toBeGreaterThan(1);
    expect(or['label changes']!.ci95[0]).toBeGreaterThan(1);
    // the time to commit was drawn the same for right and wrong labels
    expect(or['seconds to commit (log 1+x)']!.ci95[0]).toBeLessThan(1);
    expect(or['seconds to commit (log 1+x)']!.ci95[1]).toBeGreaterThan(1);
  });

  it('does not claim an improvement when hesitation is unrelated to being wrong', () => {
    const evidence = hesitationEvidence(table, fit, measuresFor(study, 0, 2), { seed: 3 });
    if ('unavailable' in evidence) throw new Error(evidence.unavailable);
    expect(evidence.held_out.ci95[0]).toBeLessThan(0);
    expect(evidence.held_out.improvement_per_annotation).toBeLessThan(0.005);
  });

  it('says why when it cannot tell: no measures at all', () => {
    expect(
      hesitationEvidence(
        table,
        fit,
        study.annotations.map(() => null),
      ),
    ).toEqual({ unavailable: expect.stringMatching(/too few/) });
    const report = goldReport(study.annotations, { model: 'dawid-skene', resamples: 5, folds: 2, hesitation: measuresFor(study, 1, 2) });
    expect(report.hesitation && 'held_out' in report.hesitation).toBe(true);
  });

  it('reads the measures from export signals (VAD pauses first) and finds none in an empty record', () => {
    expect(
      hesitationMeasuresOf({
        pauses: { total_ms: 900 },
        vad_pauses: { total_ms: 700 },
        filler_count: 2,
        filled_pause_count: 3,
        hedge_count: 1,
        label_changes: 0,
        time_to_final_commit_ms: 5000,
      }),
    ).toEqual({ pause_ms: 700, filled_pauses: 3, hedges: 1, label_changes: 0, time_to_commit_ms: 5000 });
    expect(hesitationMeasuresOf({ pauses: null, filler_count: null, label_changes: null })).toBeNull();
    expect(hesitationMeasuresOf(null)).toBeNull();
  });

  it('fits a logistic regression to the coefficients that generated the data', () => {
    const random = seededRandom(5);
    const n = 4000;
    const X = new Float64Array(n * 2);
    const y = new Uint8Array(n);
    for (let r = 0; r < n; r++) {
      X[r * 2] = 1;
      X[r * 2 + 1] = random() * 4 - 2;
      y[r] = random() < 1 / (1 + Math.exp(-(-0.5 + 1.5 * X[r * 2 + 1]!))) ? 1 : 0;
    }
    const { beta, covariance } = fitLogistic(
      X,
      y,
      Array.from({ length: n }, (_, r) => r),
      2,
      0,
    );
    expect(Math.abs(beta[0]! + 0.5)).toBeLessThan(3 * Math.sqrt(covariance[0]!));
    expect(Math.abs(beta[1]! - 1.5)).toBeLessThan(3 * Math.sqrt(covariance[3]!));
  });
});
