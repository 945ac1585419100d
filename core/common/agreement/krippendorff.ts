/**
 * Krippendorff's alpha for reliability data: units (items) × coders (annotators), missing values allowed.
 * Computed from the coincidence matrix (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"):
 * alpha = 1 - (n - 1) * Σ o_ck δ²_ck / Σ n_c n_k δ²_ck. Units with fewer than two values are not pairable.
 */
export type AlphaLevel = 'nominal' | 'ordinal';

export interface AlphaResult {
  /** null when undefined: fewer than two pairable values, or no variation at all in the data */
  alpha: number | null;
  level: AlphaLevel;
  /** units with at least two values */
  pairable_units: number;
  /** values in those units (n in the formula) */
  pairable_values: number;
  observed_disagreement: number | null;
  expected_disagreement: number | null;
}

/**
 * @param units each unit's values, one per coder, null where that coder gave none
 * @param categories all categories in order (the order matters for the ordinal metric); values not listed throw
 */
export function krippendorffAlpha(units: ReadonlyArray<ReadonlyArray<string | null>>, categories: readonly string[], level: AlphaLevel = 'nominal'): AlphaResult {
  const index = new Map(categories.map((c, i) => [c, i]));
  if (index.size !== categories.length) throw new Error('krippendorffAlpha: categories must be distinct');
  const k = categories.length;
  const coincidence: number[][] = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  let pairableUnits = 0;
  for (const unit of units) {
    const values: number[] = [];
    for (const v of unit) {
      if (v === null) continue;
      const i = index.get(v);
      if (i === undefined) throw new Error(`krippendorffAlpha: value "${v}" is not one of the categories`);
      values.push(i);
    }
    const m = values.length;
    if (m < 2) continue;
    pairableUnits++;
    for (let a = 0; a < m; a++) {
      for (let b = 0; b < m; b++) {
        if (a !== b) coincidence[values[a]!]![values[b]!]! += 1 / (m - 1);
      }
    }
  }
  const marginals = coincidence.map((row) => row.reduce((s, x) => s + x, 0));
  const n = marginals.reduce((s, x) => s + x, 0);
  const empty: AlphaResult = { alpha: null, level, pairable_units: pairableUnits, pairable_values: Math.round(n), observed_disagreement: null, expected_disagreement: null };
  if (n < 2) return empty;

  const delta2 = (c: number, d: number): number => {
    if (c === d) return 0;
    if (level === 'nominal') return 1;
    // ordinal: the marginal mass between the two ranks, halving the end points
    const [lo, hi] = c < d ? [c, d] : [d, c];
    let sum = 0;
    for (let g = lo; g <= hi; g++) sum += marginals[g]!;
    const x = sum - (marginals[lo]! + marginals[hi]!) / 2;
    return x * x;
  };
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) {
      if (c === d) continue;
      const w = delta2(c, d);
      observed += coincidence[c]![d]! * w;
      expected += marginals[c]! * marginals[d]! * w;
    }
  }
  const Do = observed / n;
  const De = expected / (n * (n - 1));
  if (De === 0) return { ...empty, observed_disagreement: Do, expected_disagreement: De };
  return { alpha: 1 - Do / De, level, pairable_units: pairableUnits, pairable_values: Math.round(n), observed_disagreement: Do, expected_disagreement: De };
}
