/**
 * Krippendorff's alpha for reliability data: units (items) × coders (annotators), missing values allowed.
 * Computed from the coincidence matrix (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"):
 * alpha = 1 - (n - 1) * Σ o_ck δ²_ck / Σ n_c n_k δ²_ck. Units with fewer than two values are not pairable.
 */
export type AlphaLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio';

export const ALPHA_LEVELS: readonly AlphaLevel[] = ['nominal', 'ordinal', 'interval', 'ratio'];

/** Why alpha has no value: 0/0 is not a number a reviewer can use, so the report says which case it is. */
export type AlphaUndefinedReason = 'fewer_than_two_pairable_units' | 'no_variation';

export interface AlphaResult {
  /** null when undefined: see undefined_reason */
  alpha: number | null;
  level: AlphaLevel;
  /** units with at least two values */
  pairable_units: number;
  /** values in those units (n in the formula) */
  pairable_values: number;
  observed_disagreement: number | null;
  expected_disagreement: number | null;
  /** null when alpha has a value */
  undefined_reason: AlphaUndefinedReason | null;
}

/** The reliability data reduced to what alpha needs: each pairable unit's category counts. */
export interface CoincidenceData {
  level: AlphaLevel;
  categories: readonly string[];
  /** numeric value of each category (interval and ratio); the rank for nominal and ordinal */
  values: readonly number[];
  /** per pairable unit: [category index, count] pairs and the unit's number of values m_u */
  units: ReadonlyArray<{ counts: ReadonlyArray<readonly [number, number]>; m: number }>;
}

/**
 * @param units each unit's values, one per coder, null where that coder gave none
 * @param categories all categories in order (the order matters for the ordinal metric); values not listed throw.
 *   For interval and ratio every category must be a number (ratio: not negative).
 */
export function coincidenceData(
  units: ReadonlyArray<ReadonlyArray<string | null>>,
  categories: readonly string[],
  level: AlphaLevel,
): CoincidenceData {
  const index = new Map(categories.map((c, i) => [c, i]));
  if (index.size !== categories.length) throw new Error('krippendorffAlpha: categories must be distinct');
  const values = categories.map((c, i) => {
    if (level === 'nominal' || level === 'ordinal') return i;
    const x = Number(c);
    if (c.trim() === '' || !Number.isFinite(x))
      throw new Error(`krippendorffAlpha: the ${level} level needs numeric labels; "${c}" is not a number`);
    if (level === 'ratio' && x < 0) throw new Error(`krippendorffAlpha: the ratio level needs labels ≥ 0; "${c}" is negative`);
    return x;
  });
  const pairable: Array<{ counts: Array<[number, number]>; m: number }> = [];
  for (const unit of units) {
    const counts = new Map<number, number>();
    let m = 0;
    for (const v of unit) {
      if (v === null) continue;
      const i = index.get(v);
      if (i === undefined) throw new Error(`krippendorffAlpha: value "${v}" is not one of the categories`);
      counts.set(i, (counts.get(i) ?? 0) + 1);
      m++;
    }
    if (m >= 2) pairable.push({ counts: [...counts], m });
  }
  return { level, categories, values, units: pairable };
}

/** Alpha over the units at the given indices of `data.units` (all of them by default; repeats allowed). */
export function alphaOf(data: CoincidenceData, unitIndices?: ArrayLike<number>): AlphaResult {
  const k = data.categories.length;
  const coincidence = new Float64Array(k * k);
  const count = unitIndices ? unitIndices.length : data.units.length;
  let n = 0;
  for (let j = 0; j < count; j++) {
    const unit = data.units[unitIndices ? unitIndices[j]! : j]!;
    for (const [c, nc] of unit.counts) {
      for (const [d, nd] of unit.counts) coincidence[c * k + d]! += (nc * (c === d ? nd - 1 : nd)) / (unit.m - 1);
    }
    n += unit.m;
  }
  return alphaOfCoincidences(data, coincidence, count, n);
}

/** Alpha from a coincidence matrix o_ck (k × k, row-major) of `units` pairable units holding `n` values. */
function alphaOfCoincidences(data: CoincidenceData, coincidence: Float64Array, units: number, n: number): AlphaResult {
  const k = data.categories.length;
  const base = { level: data.level, pairable_units: units, pairable_values: n };
  if (units < 2)
    return {
      ...base,
      alpha: null,
      observed_disagreement: null,
      expected_disagreement: null,
      undefined_reason: 'fewer_than_two_pairable_units',
    };
  const marginals = new Float64Array(k);
  for (let c = 0; c < k; c++) for (let d = 0; d < k; d++) marginals[c]! += coincidence[c * k + d]!;

  const v = data.values;
  const delta2 = (c: number, d: number): number => {
    if (c === d) return 0;
    switch (data.level) {
      case 'nominal':
        return 1;
      case 'ordinal': {
        // the marginal mass between the two ranks, halving the end points
        const [lo, hi] = c < d ? [c, d] : [d, c];
        let sum = 0;
        for (let g = lo; g <= hi; g++) sum += marginals[g]!;
        const x = sum - (marginals[lo]! + marginals[hi]!) / 2;
        return x * x;
      }
      case 'interval':
        return (v[c]! - v[d]!) ** 2;
      case 'ratio': {
        const s = v[c]! + v[d]!;
        return s === 0 ? 0 : ((v[c]! - v[d]!) / s) ** 2;
      }
    }
  };
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    if (marginals[c] === 0) continue;
    for (let d = 0; d < k; d++) {
      if (c === d || marginals[d] === 0) continue;
      const w = delta2(c, d);
      observed += coincidence[c * k + d]! * w;
      expected += marginals[c]! * marginals[d]! * w;
    }
  }
  const Do = observed / n;
  const De = expected / (n * (n - 1));
  if (De === 0) return { ...base, alpha: null, observed_disagreement: Do, expected_disagreement: De, undefined_reason: 'no_variation' };
  return { ...base, alpha: 1 - Do / De, observed_disagreement: Do, expected_disagreement: De, undefined_reason: null };
}

/**
 * The pairable units grouped by kind (the same category counts): alpha depends on a unit only through its kind, so
 * a resample is summed up by how often each kind was drawn, and its coincidences are those counts times each kind's.
 */
export interface UnitKinds {
  /** kind of each pairable unit, by index into data.units */
  kindOf: Uint32Array;
  /** per kind: its coincidence cells (index c·k + d, o_cd of one unit) and its number of values m */
  kinds: ReadonlyArray<{ cells: Uint32Array; weights: Float64Array; m: number }>;
}

export function unitKinds(data: CoincidenceData): UnitKinds {
  const k = data.categories.length;
  const byKey = new Map<string, number>();
  const kinds: Array<{ cells: Uint32Array; weights: Float64Array; m: number }> = [];
  const kindOf = new Uint32Array(data.units.length);
  data.units.forEach((unit, u) => {
    const counts = [...unit.counts].sort((x, y) => x[0] - y[0]);
    const key = counts.map(([c, nc]) => `${c}:${nc}`).join(',');
    let kind = byKey.get(key);
    if (kind === undefined) {
      const cells: number[] = [];
      const weights: number[] = [];
      for (const [c, nc] of counts) {
        for (const [d, nd] of counts) {
          cells.push(c * k + d);
          weights.push((nc * (c === d ? nd - 1 : nd)) / (unit.m - 1));
        }
      }
      kind = kinds.length;
      kinds.push({ cells: Uint32Array.from(cells), weights: Float64Array.from(weights), m: unit.m });
      byKey.set(key, kind);
    }
    kindOf[u] = kind;
  });
  return { kindOf, kinds };
}

/**
 * Alpha of one bootstrap resample given as how often each kind of unit was drawn (`drawn[kind]`): the same statistic
 * as alphaOf over the drawn units, in time that does not grow with the number of units.
 */
export function alphaOfKindCounts(data: CoincidenceData, kinds: UnitKinds, drawn: ArrayLike<number>): AlphaResult {
  const k = data.categories.length;
  const coincidence = new Float64Array(k * k);
  let units = 0;
  let n = 0;
  kinds.kinds.forEach((kind, i) => {
    const times = drawn[i]!;
    if (times === 0) return;
    units += times;
    n += times * kind.m;
    for (let j = 0; j < kind.cells.length; j++) coincidence[kind.cells[j]!]! += times * kind.weights[j]!;
  });
  return alphaOfCoincidences(data, coincidence, units, n);
}

/**
 * @param units each unit's values, one per coder, null where that coder gave none
 * @param categories all categories in order (the order matters for the ordinal metric); values not listed throw
 */
export function krippendorffAlpha(
  units: ReadonlyArray<ReadonlyArray<string | null>>,
  categories: readonly string[],
  level: AlphaLevel = 'nominal',
): AlphaResult {
  return alphaOf(coincidenceData(units, categories, level));
}

export interface BootstrapInterval {
  /** 2.5th and 97.5th percentiles of the resampled alphas; null when alpha itself is undefined */
  ci95: [number, number] | null;
  resamples: number;
  /** resamples in which alpha was defined (a resample may draw units without variation) */
  defined_resamples: number;
  seed: number;
}

/** Same seed, same sequence on every platform: mulberry32, a 32-bit generator that is plenty for resampling. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const DEFAULT_BOOTSTRAP_RESAMPLES = 1000;
export const DEFAULT_BOOTSTRAP_SEED = 1;

/**
 * A percentile bootstrap over units: each resample draws as many pairable units as there are, with replacement, and
 * recomputes alpha (marginals and all), from how often each kind of unit was drawn (unitKinds): the cost of a resample
 * is its draws, not a pass over every value. Units, not single pairs, are resampled because the values within a unit are
 * not independent (Hayes & Krippendorff's 2007 procedure resamples pairs with the expected disagreement held fixed,
 * which understates the uncertainty of small samples); the unit bootstrap is the one that needs no such assumption.
 */
export function bootstrapAlpha(
  data: CoincidenceData,
  resamples = DEFAULT_BOOTSTRAP_RESAMPLES,
  seed = DEFAULT_BOOTSTRAP_SEED,
): BootstrapInterval {
  if (!Number.isInteger(resamples) || resamples < 1) throw new Error('bootstrapAlpha: resamples must be a positive integer');
  const point = alphaOf(data);
  if (point.alpha === null) return { ci95: null, resamples, defined_resamples: 0, seed };
  const random = seededRandom(seed);
  const size = data.units.length;
  const kinds = unitKinds(data);
  const drawn = new Float64Array(kinds.kinds.length);
  const alphas: number[] = [];
  for (let r = 0; r < resamples; r++) {
    // the same draws as resampling the units themselves (same generator, same order); only their kinds are counted
    drawn.fill(0);
    for (let j = 0; j < size; j++) drawn[kinds.kindOf[Math.floor(random() * size)]!]!++;
    const a = alphaOfKindCounts(data, kinds, drawn).alpha;
    if (a !== null) alphas.push(a);
  }
  if (alphas.length === 0) return { ci95: null, resamples, defined_resamples: 0, seed };
  alphas.sort((x, y) => x - y);
  return { ci95: [quantile(alphas, 0.025), quantile(alphas, 0.975)], resamples, defined_resamples: alphas.length, seed };
}

/** Linear interpolation between order statistics (type 7, R's and numpy's default). */
function quantile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}
