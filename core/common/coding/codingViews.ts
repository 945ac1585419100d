import type { CodeDef } from '../codebook/codebook';
import type { CodingUnitKind } from '../project/projectConfig';
import type { SaidMessage } from '../refusal/refusalMessage';
import type { CodeProposal, ProtocolCoding } from './codingFold';
import { othersCodesVisible, type CodingContext, type ProtocolFacts } from './codingRules';
import type { CodingUnit } from './codingUnits';

export interface CodebookView {
  codes: CodeDef[];
  exclusive: boolean;
  version: string;
}

/** A protocol the coder can open: whose, which item, how far it is. */
export interface ProtocolSummary {
  annotator: string;
  item_id: string;
  units: number;
  /** the transcript is final (the item was completed): only then can it be coded */
  final: boolean;
  /** units the coder has given a code */
  coded_units: number;
  finished_at: string | null;
}

/** What the coding view starts from: the codebook, the project's coding settings, the protocols, the proposals. */
export interface CodingOverview {
  coder: string;
  codebook: CodebookView | null;
  /** why there is no codebook to code with (none, or codebook.yaml does not validate) */
  codebook_problem: string | null;
  /** the problem as a catalog message, said in the person's language */
  codebook_problem_said?: SaidMessage | null;
  unit: CodingUnitKind;
  blind: boolean;
  own_protocols: boolean;
  protocols: ProtocolSummary[];
  /** in-vivo codes proposed by any coder and not in the codebook yet */
  proposals: CodeProposal[];
}

/** A code the coder has on a unit, with their memo. */
export interface CodeOnUnit {
  code: string;
  memo: string | null;
}

/** One protocol in the coding view: its units, the coder's own codes, and the other coders' only when they may be seen. */
export interface CodingItemView {
  annotator: string;
  item_id: string;
  item_text: string;
  final: boolean;
  units: CodingUnit[];
  /** unit → the coder's codes on it */
  mine: Record<string, CodeOnUnit[]>;
  finished_at: string | null;
  /** the other coders' codes (unit → codes), or null while blind coding hides them (the host never sends them) */
  others: Array<{ coder: string; finished_at: string | null; codes: Record<string, string[]> }> | null;
  /** the coder's codes on units this protocol no longer has (re-transcribed since): kept with the words they were given to */
  stale: Array<{ unit: string; unit_text: string; codes: string[] }>;
  /** the unit the call changed (an undo may change a unit of another protocol, which this view then is) */
  changed_unit: string | null;
}

/** The units of a protocol the coder's codes stand on now: the same unit id with the same words. */
function codesByUnit(
  coding: ProtocolCoding | null,
  units: readonly CodingUnit[],
): { current: Map<string, CodeOnUnit[]>; stale: CodingItemView['stale'] } {
  const current = new Map<string, CodeOnUnit[]>();
  const stale: CodingItemView['stale'] = [];
  const words = new Map(units.map((u) => [u.unit, u.text]));
  for (const u of coding?.units ?? []) {
    const codes = u.codes.map((c) => ({ code: c.code, memo: c.memo }));
    if (words.get(u.unit) === u.unit_text) current.set(u.unit, [...(current.get(u.unit) ?? []), ...codes]);
    else if (codes.length > 0) stale.push({ unit: u.unit, unit_text: u.unit_text, codes: codes.map((c) => c.code) });
  }
  return { current, stale };
}

/**
 * The coding view of one protocol for one coder. The other coders' codes are in it only when the coder may see them
 * (blind coding: once the coder finished the item); otherwise `others` is null and nothing of theirs is in the view.
 */
export function codingItemView(
  /** revealed: she chose to see every coder's codes as the lead (codings_revealed) */
  context: Pick<CodingContext, 'coder' | 'config'> & { revealed?: boolean },
  protocol: ProtocolFacts & { item_text: string },
  own: ProtocolCoding | null,
  others: ReadonlyArray<{ coder: string; coding: ProtocolCoding | null }>,
  changedUnit: string | null = null,
): CodingItemView {
  const mine = codesByUnit(own, protocol.units);
  const visible = othersCodesVisible(context.config, own, context.revealed ?? false);
  return {
    annotator: protocol.annotator,
    item_id: protocol.item_id,
    item_text: protocol.item_text,
    final: protocol.final,
    units: [...protocol.units],
    mine: Object.fromEntries(mine.current),
    finished_at: own?.finished?.at ?? null,
    others: visible
      ? others
          .filter(
            (o) =>
              o.coder !== context.coder &&
              o.coding !== null &&
              (o.coding.finished !== null || o.coding.units.some((u) => u.codes.length > 0)),
          )
          .map((o) => ({
            coder: o.coder,
            finished_at: o.coding!.finished?.at ?? null,
            codes: Object.fromEntries(
              [...codesByUnit(o.coding, protocol.units).current].map(([unit, codes]) => [unit, codes.map((c) => c.code)]),
            ),
          }))
      : null,
    stale: mine.stale,
    changed_unit: changedUnit,
  };
}
