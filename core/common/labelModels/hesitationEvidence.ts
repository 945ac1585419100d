/**
 * Hesitation as evidence: do the pauses, filled pauses, hedges, changes of mind and time to commit of an annotation
 * say whether it is wrong, beyond who gave it? Method:
 *  1. Outcome per annotation: it disagrees with the model's label for its item computed *without it* (the item's
 *     posterior with this annotation's likelihood term divided out, q_{-a}(z) ∝ q(z) / π_j(z, label)), so an annotation
 *     cannot vote for itself. Items labelled once are left out (no one else to disagree with).
 *  2. Two logistic regressions of that outcome: the baseline on logit(annotator accuracy) (Σ_z p(z) π_j(z, z), the
 *     model's), the other on the same plus the hesitation measures (log(1 + pause seconds), filled pauses, hedges,
 *     changes of label, log(1 + seconds to the final commit)), each standardised; a missing measure is the mean.
 *     Fitted by Newton–Raphson (IRLS) with a small ridge (1e-3) on the slopes.
 *  3. k-fold cross-validation over the annotations that have measures: the held-out Bernoulli log-likelihood of each
 *     model, and the per-annotation improvement with a paired 95% interval (normal approximation).
 * Odds ratios are per standard deviation of each measure, with Wald 95% intervals from the full fit.
 */
import type { AnnotationTable } from './annotationTable';
import { annotationFolds } from './heldOutFit';
import type { LabelModelFit } from './labelModel';
import { argmax } from './labelModel';

/** One annotation's hesitation measures; null where the session did not measure it. */
export interface HesitationMeasures {
  pause_ms: number | null;
  filled_pauses: number | null;
  hedges: number | null;
  label_changes: number | null;
  time_to_commit_ms: number | null;
}

/** The measures of an item's signals as exports and session folds both carry them (ExportSignals, ItemSessionState.signals). */
export function hesitationMeasuresOf(
  signals:
    | {
        pauses?: { total_ms: number } | null;
        vad_pauses?: { total_ms: number } | null;
        filler_count?: number | null;
        filled_pause_count?: number | null;
        hedge_count?: number | null;
        label_changes?: number | null;
        time_to_final_commit_ms?: number | null;
      }
    | null
    | undefined,
): HesitationMeasures | null {
  if (!signals) return null;
  const measures: HesitationMeasures = {
    // the voice-activity pauses when the VAD ran (speech, not silence of the room), else the energy ones
    pause_ms: signals.vad_pauses?.total_ms ?? signals.pauses?.total_ms ?? null,
    filled_pauses: signals.filled_pause_count ?? signals.filler_count ?? null,
    hedges: signals.hedge_count ?? null,
    label_changes: signals.label_changes ?? null,
    time_to_commit_ms: signals.time_to_final_commit_ms ?? null,
  };
  return Object.values(measures).every((v) => v === null) ? null : measures;
}

export const HESITATION_FEATURES = [
  'pause seconds (log 1+x)',
  'filled pauses',
  'hedges',
  'label changes',
  'seconds to commit (log 1+x)',
] as const;

export interface HesitationEvidence {
  method: string;
  /** annotations in the analysis (with measures, on items with another annotation) */
  annotations: number;
  /** annotations left out for want of measures */
  without_measures: number;
  /** share of analysed annotations that disagree with the others' model label */
  disagreement_rate: number;
  odds_ratios: Array<{ measure: string; per_sd: number; ci95: [number, number] }>;
  /** measures that never varied here (left out of the odds ratios) */
  constant_measures: string[];
  held_out: {
    folds: number;
    baseline_per_annotation: number;
    with_hesitation_per_annotation: number;
    /** with − baseline, nats per annotation (> 0: hesitation helps) */
    improvement_per_annotation: number;
    ci95: [number, number];
  };
  said: string;
}

/** Newton–Raphson for a logistic regression (X: rows × d, first column the intercept); ridge on the slopes. */
export function fitLogistic(
  X: Float64Array,
  y: Uint8Array,
  rows: readonly number[],
  d: number,
  ridge = 1e-3,
): { beta: Float64Array; covariance: Float64Array } {
  const beta = new Float64Array(d);
  const H = new Float64Array(d * d);
  const g = new Float64Array(d);
  for (let iteration = 0; iteration < 50; iteration++) {
    H.fill(0);
    g.fill(0);
    for (const r of rows) {
      let eta = 0;
      for (let c = 0; c < d; c++) eta += X[r * d + c]! * beta[c]!;
      const p = 1 / (1 + Math.exp(-eta));
      const w = Math.max(p * (1 - p), 1e-10);
      for (let c = 0; c < d; c++) {
        g[c]! += (y[r]! - p) * X[r * d + c]!;
        for (let e = 0; e < d; e++) H[c * d + e]! += w * X[r * d + c]! * X[r * d + e]!;
      }
    }
    for (let c = 1; c < d; c++) {
      g[c]! -= ridge * beta[c]!;
      H[c * d + c]! += ridge;
    }
    const step = solve(H, g, d);
    let size = 0;
    for (let c = 0; c < d; c++) {
      beta[c]! += step[c]!;
      size = Math.max(size, Math.abs(step[c]!));
    }
    if (size < 1e-8) break;
  }
  return { beta, covariance: invert(H, d) };
}

/** Solves A x = b by Gaussian elimination with partial pivoting (A is d × d, small). */
function solve(A: Float64Array, b: Float64Array, d: number): Float64Array {
  const M = Float64Array.from(A);
  const x = Float64Array.from(b);
  for (let c = 0; c < d; c++) {
    let pivot = c;
    for (let r = c + 1; r < d; r++) if (Math.abs(M[r * d + c]!) > Math.abs(M[pivot * d + c]!)) pivot = r;
    if (pivot !== c) {
      for (let k = 0; k < d; k++) [M[c * d + k], M[pivot * d + k]] = [M[pivot * d + k]!, M[c * d + k]!];
      [x[c], x[pivot]] = [x[pivot]!, x[c]!];
    }
    const diag = M[c * d + c]! || 1e-12;
    for (let r = c + 1; r < d; r++) {
      const f = M[r * d + c]! / diag;
      if (f === 0) continue;
      for (let k = c; k < d; k++) M[r * d + k]! -= f * M[c * d + k]!;
      x[r]! -= f * x[c]!;
    }
  }
  for (let c = d - 1; c >= 0; c--) {
    let s = x[c]!;
    for (let k = c + 1; k < d; k++) s -= M[c * d + k]! * x[k]!;
    x[c] = s / (M[c * d + c]! || 1e-12);
  }
  return x;
}

function invert(A: Float64Array, d: number): Float64Array {
  const inverse = new Float64Array(d * d);
  for (let c = 0; c < d; c++) {
    const unit = new Float64Array(d);
    unit[c] = 1;
    const column = solve(A, unit, d);
    for (let r = 0; r < d; r++) inverse[r * d + c] = column[r]!;
  }
  return inverse;
}

const logistic = (X: Float64Array, beta: Float64Array, r: number, d: number): number => {
  let eta = 0;
  for (let c = 0; c < d; c++) eta += X[r * d + c]! * beta[c]!;
  return 1 / (1 + Math.exp(-eta));
};

/** Null when there is nothing to analyse (no measures, no disagreement, or too few annotations), with the reason. */
export function hesitationEvidence(
  table: AnnotationTable,
  fit: LabelModelFit,
  measures: ReadonlyArray<HesitationMeasures | null>,
  options: { folds?: number; seed?: number } = {},
): HesitationEvidence | { unavailable: string } {
  const K = table.labels.length;
  const rows: number[] = [];
  const y = new Uint8Array(table.item.length);
  const accuracy = new Float64Array(table.annotators.length);
  for (let j = 0; j < table.annotators.length; j++)
    for (let z = 0; z < K; z++) accuracy[j]! += fit.prior[z]! * fit.confusion[j * K * K + z * K + z]!;
  const others = new Float64Array(K);
  let withoutMeasures = 0;
  for (let a = 0; a < table.item.length; a++) {
    const i = table.item[a]!;
    if (table.byItemStart[i + 1]! - table.byItemStart[i]! < 2) continue;
    if (!measures[a]) {
      withoutMeasures++;
      continue;
    }
    const j = table.annotator[a]!;
    const l = table.label[a]!;
    // the item's posterior without this annotation's own term
    for (let z = 0; z < K; z++)
      others[z] = Math.log(Math.max(fit.posterior[i * K + z]!, 1e-300)) - Math.log(Math.max(fit.confusion[j * K * K + z * K + l]!, 1e-300));
    y[a] = argmax(others, 0, K) === l ? 0 : 1;
    rows.push(a);
  }
  if (rows.length < 20)
    return {
      unavailable: `${rows.length} annotation(s) with hesitation measures on items labelled by two or more: too few to fit (20 needed)`,
    };
  const disagreements = rows.reduce((n, a) => n + y[a]!, 0);
  if (disagreements === 0 || disagreements === rows.length)
    return {
      unavailable: `every analysed annotation ${disagreements === 0 ? 'agrees' : 'disagrees'} with the others' label: nothing to explain`,
    };
  // design: intercept, logit(accuracy), then the standardised measures
  const F = HESITATION_FEATURES.length;
  const d = 2 + F;
  const raw = (m: HesitationMeasures): Array<number | null> => [
    m.pause_ms === null ? null : Math.log1p(m.pause_ms / 1000),
    m.filled_pauses,
    m.hedges,
    m.label_changes,
    m.time_to_commit_ms === null ? null : Math.log1p(m.time_to_commit_ms / 1000),
  ];
  const mean = new Float64Array(F);
  const sd = new Float64Array(F);
  const seen = new Float64Array(F);
  for (const a of rows) raw(measures[a]!).forEach((v, f) => v !== null && ((mean[f]! += v), seen[f]!++));
  for (let f = 0; f < F; f++) mean[f] = seen[f]! > 0 ? mean[f]! / seen[f]! : 0;
  for (const a of rows) raw(measures[a]!).forEach((v, f) => v !== null && (sd[f]! += (v - mean[f]!) ** 2));
  for (let f = 0; f < F; f++) sd[f] = seen[f]! > 1 ? Math.sqrt(sd[f]! / (seen[f]! - 1)) : 0;
  // a measure that never varies (no audio: no pauses; click labels: no hedges) says nothing and gets no odds ratio
  const varying = HESITATION_FEATURES.flatMap((_, f) => (sd[f]! > 0 ? [f] : []));
  if (varying.length === 0)
    return { unavailable: `no hesitation measure varies across the ${rows.length} annotations (sessions without audio or transcript?)` };
  const X = new Float64Array(table.item.length * d);
  for (const a of rows) {
    const acc = Math.min(1 - 1e-6, Math.max(1e-6, accuracy[table.annotator[a]!]!));
    X[a * d] = 1;
    X[a * d + 1] = Math.log(acc / (1 - acc));
    raw(measures[a]!).forEach((v, f) => (X[a * d + 2 + f] = v === null || sd[f] === 0 ? 0 : (v - mean[f]!) / sd[f]!));
  }
  // the baseline is the same design with the measures' columns zero: a model with two coefficients that count
  const Xbase = Float64Array.from(X);
  for (const a of rows) for (let f = 0; f < F; f++) Xbase[a * d + 2 + f] = 0;
  const folds = Math.max(2, Math.min(options.folds ?? 5, rows.length));
  const fold = annotationFolds(rows.length, folds, options.seed ?? 1);
  const base = new Float64Array(rows.length);
  const full = new Float64Array(rows.length);
  for (let k = 0; k < folds; k++) {
    const train = rows.filter((_, r) => fold[r] !== k);
    const baseFit = fitLogistic(Xbase, y, train, d);
    const fullFit = fitLogistic(X, y, train, d);
    rows.forEach((a, r) => {
      if (fold[r] !== k) return;
      const pb = Math.min(1 - 1e-12, Math.max(1e-12, logistic(Xbase, baseFit.beta, a, d)));
      const pf = Math.min(1 - 1e-12, Math.max(1e-12, logistic(X, fullFit.beta, a, d)));
      base[r] = y[a] ? Math.log(pb) : Math.log(1 - pb);
      full[r] = y[a] ? Math.log(pf) : Math.log(1 - pf);
    });
  }
  const n = rows.length;
  const baseMean = base.reduce((s, x) => s + x, 0) / n;
  const fullMean = full.reduce((s, x) => s + x, 0) / n;
  const improvement = fullMean - baseMean;
  let sq = 0;
  for (let r = 0; r < n; r++) sq += (full[r]! - base[r]! - improvement) ** 2;
  const se = Math.sqrt(sq / (n - 1) / n);
  const all = fitLogistic(X, y, rows, d);
  const oddsRatios = varying.map((f) => {
    const measure = HESITATION_FEATURES[f]!;
    const b = all.beta[2 + f]!;
    const s = Math.sqrt(Math.max(0, all.covariance[(2 + f) * d + 2 + f]!));
    return { measure, per_sd: Math.exp(b), ci95: [Math.exp(b - 1.96 * s), Math.exp(b + 1.96 * s)] as [number, number] };
  });
  const ci: [number, number] = [improvement - 1.96 * se, improvement + 1.96 * se];
  const strongest = [...oddsRatios].sort((p, q) => Math.abs(Math.log(q.per_sd)) - Math.abs(Math.log(p.per_sd)))[0]!;
  return {
    method: `logistic regression of "the annotation disagrees with the model's label from the other annotations" on logit(annotator accuracy) ± hesitation measures (standardised); ${folds}-fold cross-validation over annotations`,
    annotations: n,
    without_measures: withoutMeasures,
    disagreement_rate: disagreements / n,
    odds_ratios: oddsRatios,
    constant_measures: HESITATION_FEATURES.filter((_, f) => !varying.includes(f)),
    held_out: {
      folds,
      baseline_per_annotation: baseMean,
      with_hesitation_per_annotation: fullMean,
      improvement_per_annotation: improvement,
      ci95: ci,
    },
    said: `hesitation ${ci[0] > 0 ? 'improves' : ci[1] < 0 ? 'worsens' : 'does not clearly change'} the held-out fit of which annotations disagree: ${improvement >= 0 ? '+' : ''}${improvement.toFixed(4)} nats per annotation (95% [${ci[0].toFixed(4)}, ${ci[1].toFixed(4)}]) over ${n} annotations beyond the annotator's accuracy; strongest: ${strongest.measure}, odds ratio ${strongest.per_sd.toFixed(2)} per SD`,
  };
}
