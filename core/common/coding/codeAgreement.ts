import type { Codebook } from '../codebook/codebook';
import {
  type AlphaResult,
  type AlphaUndefinedReason,
  alphaOf,
  bootstrapAlpha,
  coincidenceData,
  DEFAULT_BOOTSTRAP_RESAMPLES,
  DEFAULT_BOOTSTRAP_SEED,
} from '../agreement/krippendorff';
import { compareUnits, protocolKey, type ProtocolCoding } from './codingFold';
import type { CodingUnit } from './codingUnits';

/** One coder's codings, as their log holds them. */
export interface CoderProtocols {
  coder: string;
  protocols: readonly ProtocolCoding[];
}

/** A protocol as its annotator's log holds it now: its current units and the labels the annotator gave the item. */
export interface ProtocolInfo {
  annotator: string;
  item_id: string;
  units: readonly CodingUnit[];
  final_label: string | null;
  blind_label: string | null;
}

export interface CodeAgreementOptions {
  codebook: Codebook | null;
  /** a unit counts as followed by a long pause when the next unit starts at least this long after it ends */
  longPauseMs: number;
  resamples?: number;
  seed?: number;
  /** whether the units of a protocol may be listed with their codes (blind coding: only items the viewer finished) */
  detailsVisible?: (annotator: string, itemId: string) => boolean;
  /** how many of the units the coders disagree on most to list */
  disagreementLimit?: number;
  /**
   * which codes count: `current` (the codes standing now), or `blind` (each unit's codes when the coder first finished
   * the item with it: in blind coding, before the others' codes were shown to them). Default current.
   */
  basis?: CodesBasis;
}

/** The codes agreement is computed on: as they stand now, or as each coder gave them before finishing (blind). */
export type CodesBasis = 'current' | 'blind';

/** Agreement on one code: α on its presence (1) or absence (0) on each unit, over the coders who finished the unit's item. */
export interface CodeAlpha {
  code: string;
  alpha: number | null;
  ci95: [number, number] | null;
  pairable_units: number;
  pairable_values: number;
  undefined_reason: AlphaUndefinedReason | null;
  /** codings of this code on units two or more coders finished */
  applied: number;
  /** false for a code that is in the codings but no longer in the codebook */
  in_codebook: boolean;
}

/** One unit the coders disagree on: which codes each gave it. */
export interface UnitDisagreement {
  annotator: string;
  item_id: string;
  unit: string;
  text: string | null;
  t0_ms: number | null;
  t1_ms: number | null;
  /** coder → the codes they gave the unit (empty: none applies) */
  codes: Record<string, string[]>;
  /** pairs of coders who disagree on a code, summed over the codes */
  disagreeing_pairs: number;
}

/** How often each code occurs in the protocols of the items that got a label. */
export interface CodesByLabel {
  label: string;
  protocols: number;
  /** codings (coder × unit × code) in those protocols, per code */
  codes: Record<string, number>;
}

export interface CodesByHesitation {
  /** current units of coded protocols, and those of them followed by a long pause */
  units: number;
  units_before_long_pause: number;
  long_pause_ms: number;
  per_code: Array<{ code: string; codings: number; before_long_pause: number; share_before_long_pause: number | null }>;
}

/** The `codes` part of `aloud agreement --codes --json` and of the app's Agreement tab. */
export interface CodeAgreement {
  coders: Array<{ coder: string; finished_items: number; coded_units: number; codings: number }>;
  /** per code, in codebook order (codes no longer in it after) */
  codes: CodeAlpha[];
  /** α over the codes as categories of one nominal variable ("(no code)" for none), when the codebook is exclusive */
  overall: (Omit<CodeAlpha, 'code' | 'applied' | 'in_codebook'> & { categories: string[]; multi_coded: number }) | null;
  /** units with values from two or more coders */
  pairable_units: number;
  disagreements: UnitDisagreement[];
  /** units the coders disagree on that this viewer may not see yet (blind coding: items she has not finished coding) */
  hidden_disagreements: number;
  /** protocols a coder coded without finishing: left out of α (their uncoded units are not "no code" yet) */
  unfinished: number;
  basis: CodesBasis;
  /** units of finished items whose codes a coder changed after first finishing them (blind: not in α; current: in α) */
  changed_after_finished: number;
  codes_by_label: { final: CodesByLabel[]; blind: CodesByLabel[] };
  codes_by_hesitation: CodesByHesitation;
  bootstrap: { method: 'percentile, resampling units with replacement'; resamples: number; seed: number };
}

/** The category of a unit without a code in the overall (exclusive) α. */
export const NO_CODE = '(no code)';

interface UnitRow {
  annotator: string;
  item_id: string;
  unit: string;
  /** coder → codes, for coders who finished the unit's item with this unit */
  values: Map<string, string[]>;
}

/**
 * Agreement on codes over the coders' logs. A coder has a value for a unit when they finished its item with that unit
 * in it: the codes they gave it, or none. Per code, Krippendorff's α (nominal, binary) on presence/absence, with the
 * percentile bootstrap over units; overall α when the codebook is exclusive; the units the coders disagree on most;
 * and how codes go with the labels and with long pauses.
 */
export function codeAgreement(
  coders: readonly CoderProtocols[],
  protocols: readonly ProtocolInfo[],
  options: CodeAgreementOptions,
): CodeAgreement {
  const resamples = options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES;
  const seed = options.seed ?? DEFAULT_BOOTSTRAP_SEED;
  const info = new Map(protocols.map((p) => [protocolKey(p.annotator, p.item_id), p]));
  const rows = new Map<string, UnitRow>();
  const names = coders.map((c) => c.coder);
  const basis = options.basis ?? 'current';
  let unfinished = 0;
  let changedAfterFinished = 0;
  const seenCodes = new Set<string>();
  for (const { coder, protocols: own } of coders) {
    for (const p of own) {
      for (const u of p.units) for (const c of u.codes) seenCodes.add(c.code);
      if (basis === 'blind') for (const given of Object.values(p.first_finished_codes)) for (const c of given) seenCodes.add(c);
      if (!p.finished) {
        if (p.units.some((u) => u.codes.length > 0)) unfinished++;
        continue;
      }
      // blind: codes first given after the coder chose to see everyone's (as the lead) are not blind codes
      if (basis === 'blind' && p.first_finished_unblinded) continue;
      for (const unit of p.finished.units) {
        const key = `${protocolKey(p.annotator, p.item_id)}\u0000${unit}`;
        let row = rows.get(key);
        if (!row) rows.set(key, (row = { annotator: p.annotator, item_id: p.item_id, unit, values: new Map() }));
        const now = [...new Set(p.units.filter((u) => u.unit === unit).flatMap((u) => u.codes.map((c) => c.code)))];
        const first = p.first_finished_codes[unit] ?? now;
        if (first.length !== now.length || first.some((c) => !now.includes(c))) changedAfterFinished++;
        row.values.set(coder, basis === 'blind' ? first : now);
      }
    }
  }
  const codebookCodes = options.codebook?.codes.map((c) => c.name) ?? [];
  const codeNames = [...codebookCodes, ...[...seenCodes].filter((c) => !codebookCodes.includes(c)).sort()];
  const ordered = [...rows.values()].sort((a, b) =>
    a.annotator < b.annotator
      ? -1
      : a.annotator > b.annotator
        ? 1
        : a.item_id < b.item_id
          ? -1
          : a.item_id > b.item_id
            ? 1
            : compareUnits(a.unit, b.unit),
  );
  const valuesOf = (pick: (codes: string[]) => string | null) =>
    ordered.map((row) => names.map((coder) => (row.values.has(coder) ? pick(row.values.get(coder)!) : null)));

  const measure = (units: Array<Array<string | null>>, categories: string[]) => {
    const data = coincidenceData(units, categories, 'nominal');
    const result: AlphaResult = alphaOf(data);
    return {
      alpha: result.alpha,
      ci95: bootstrapAlpha(data, resamples, seed).ci95,
      pairable_units: result.pairable_units,
      pairable_values: result.pairable_values,
      undefined_reason: result.undefined_reason,
    };
  };
  const pairable = ordered.filter((r) => r.values.size >= 2);
  const codes: CodeAlpha[] = codeNames.map((code) => ({
    code,
    ...measure(
      valuesOf((given) => (given.includes(code) ? '1' : '0')),
      ['0', '1'],
    ),
    applied: pairable.reduce((n, r) => n + [...r.values.values()].filter((given) => given.includes(code)).length, 0),
    in_codebook: codebookCodes.includes(code),
  }));

  let overall: CodeAgreement['overall'] = null;
  if (options.codebook?.exclusive) {
    const categories = [...codeNames, NO_CODE];
    let multi = 0;
    const units = valuesOf((given) => {
      if (given.length > 1) multi++;
      return given.length === 0 ? NO_CODE : given.length === 1 ? given[0]! : null;
    });
    overall = { ...measure(units, categories), categories, multi_coded: multi };
  }

  const visible = options.detailsVisible ?? (() => true);
  /** how many coder pairs, over every code, one coder gave it and the other did not */
  const disagreeingPairs = (r: UnitRow): number => {
    const given = [...r.values.values()];
    let pairs = 0;
    for (const code of new Set(given.flat())) {
      const withCode = given.filter((g) => g.includes(code)).length;
      pairs += withCode * (given.length - withCode);
    }
    return pairs;
  };
  const hiddenDisagreements = pairable.filter((r) => !visible(r.annotator, r.item_id) && disagreeingPairs(r) > 0).length;
  const disagreements: UnitDisagreement[] = pairable
    .filter((r) => visible(r.annotator, r.item_id))
    .map((r) => {
      const pairs = disagreeingPairs(r);
      const unit = info.get(protocolKey(r.annotator, r.item_id))?.units.find((u) => u.unit === r.unit) ?? null;
      const coded =
        coders
          .flatMap((c) => c.protocols)
          .find((p) => p.annotator === r.annotator && p.item_id === r.item_id)
          ?.units.find((u) => u.unit === r.unit) ?? null;
      return {
        annotator: r.annotator,
        item_id: r.item_id,
        unit: r.unit,
        text: unit?.text ?? coded?.unit_text ?? null,
        t0_ms: unit?.t0_ms ?? coded?.t0_ms ?? null,
        t1_ms: unit?.t1_ms ?? coded?.t1_ms ?? null,
        codes: Object.fromEntries([...r.values].map(([coder, c]) => [coder, [...c].sort()])),
        disagreeing_pairs: pairs,
      };
    })
    .filter((d) => d.disagreeing_pairs > 0)
    .sort((a, b) => b.disagreeing_pairs - a.disagreeing_pairs)
    .slice(0, options.disagreementLimit ?? 50);

  return {
    hidden_disagreements: hiddenDisagreements,
    coders: coders.map(({ coder, protocols: own }) => ({
      coder,
      finished_items: own.filter((p) => p.finished).length,
      coded_units: own.reduce((n, p) => n + p.units.filter((u) => u.codes.length > 0).length, 0),
      codings: own.reduce((n, p) => n + p.units.reduce((m, u) => m + u.codes.length, 0), 0),
    })),
    codes,
    overall,
    pairable_units: pairable.length,
    disagreements,
    unfinished,
    basis,
    changed_after_finished: changedAfterFinished,
    codes_by_label: codesByLabel(coders, protocols, codeNames),
    codes_by_hesitation: codesByHesitation(coders, protocols, codeNames, options.longPauseMs),
    bootstrap: { method: 'percentile, resampling units with replacement', resamples, seed },
  };
}

/** Every coding (coder × unit × code) standing on a protocol now. */
function codingsOn(coders: readonly CoderProtocols[], annotator: string, itemId: string): Array<{ unit: string; code: string }> {
  return coders.flatMap((c) =>
    c.protocols
      .filter((p) => p.annotator === annotator && p.item_id === itemId)
      .flatMap((p) => p.units.flatMap((u) => u.codes.map((code) => ({ unit: u.unit, code: code.code })))),
  );
}

function codesByLabel(
  coders: readonly CoderProtocols[],
  protocols: readonly ProtocolInfo[],
  codeNames: readonly string[],
): CodeAgreement['codes_by_label'] {
  const table = (pick: (p: ProtocolInfo) => string | null): CodesByLabel[] => {
    const byLabel = new Map<string, CodesByLabel>();
    for (const p of protocols) {
      const label = pick(p);
      const codings = codingsOn(coders, p.annotator, p.item_id);
      if (label === null || codings.length === 0) continue;
      let row = byLabel.get(label);
      if (!row) byLabel.set(label, (row = { label, protocols: 0, codes: Object.fromEntries(codeNames.map((c) => [c, 0])) }));
      row.protocols++;
      for (const { code } of codings) row.codes[code] = (row.codes[code] ?? 0) + 1;
    }
    return [...byLabel.values()].sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  };
  return { final: table((p) => p.final_label), blind: table((p) => p.blind_label) };
}

/**
 * Codes by hesitation: a unit is followed by a long pause when the protocol's next unit starts at least `longPauseMs`
 * after it ends (times from the transcript's segments; the last unit of a protocol has no next unit and counts as not).
 */
function codesByHesitation(
  coders: readonly CoderProtocols[],
  protocols: readonly ProtocolInfo[],
  codeNames: readonly string[],
  longPauseMs: number,
): CodesByHesitation {
  let units = 0;
  let before = 0;
  const per = new Map(codeNames.map((c) => [c, { codings: 0, before: 0 }]));
  for (const p of protocols) {
    const codings = codingsOn(coders, p.annotator, p.item_id);
    if (codings.length === 0) continue;
    const beforePause = new Set(
      p.units.filter((u, i) => i + 1 < p.units.length && p.units[i + 1]!.t0_ms - u.t1_ms >= longPauseMs).map((u) => u.unit),
    );
    units += p.units.length;
    before += beforePause.size;
    const current = new Set(p.units.map((u) => u.unit));
    for (const { unit, code } of codings) {
      if (!current.has(unit)) continue;
      let row = per.get(code);
      if (!row) per.set(code, (row = { codings: 0, before: 0 }));
      row.codings++;
      if (beforePause.has(unit)) row.before++;
    }
  }
  return {
    units,
    units_before_long_pause: before,
    long_pause_ms: longPauseMs,
    per_code: [...per].map(([code, r]) => ({
      code,
      codings: r.codings,
      before_long_pause: r.before,
      share_before_long_pause: r.codings === 0 ? null : r.before / r.codings,
    })),
  };
}
