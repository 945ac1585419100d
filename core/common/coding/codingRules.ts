import { findCode, type Codebook } from '../codebook/codebook';
import { Refusal } from '../refusal/refusal';
import { sameName } from '../names/personNames';
import type { CodingConfig } from '../project/projectConfig';
import type { SessionEntry } from '../session/sessionFold';
import type { CodeActData, CodeActSource } from '../session/sessionEvents';
import type { CodeActRecord, CodingFold } from './codingFold';
import type { CodingUnit } from './codingUnits';
import { say, type RefusalMessage } from '../refusal/refusalMessage';

/** A coding act that does not fit the codebook, the protocol or the project's coding rules. */
export class CodingRefusal extends Refusal {
  override name = 'CodingRefusal';
  constructor(message: string | RefusalMessage) {
    super('conflict', message);
  }
}

/**
 * What the coding rules know besides the coder's log: who codes, the project's coding settings, and the codebook in
 * force with its version (null when the project has none, or its codebook.yaml does not validate: `problem` says why).
 */
export interface CodingContext {
  coder: string;
  config: CodingConfig;
  codebook: { codebook: Codebook; version: string } | null;
  /** why there is no codebook to code with (missing, or invalid: its first problem) */
  problem?: string | null;
}

/** A protocol as its annotator's log holds it: whose, which item, its current units, whether its transcript is final. */
export interface ProtocolFacts {
  annotator: string;
  item_id: string;
  final: boolean;
  units: readonly CodingUnit[];
}

/** The coder may code this protocol: a codebook, a final transcript, and their own protocols only when the project allows. */
export function requireCodable(context: CodingContext, protocol: ProtocolFacts): { codebook: Codebook; version: string } {
  if (!context.codebook)
    throw new CodingRefusal(
      context.problem ?? // the codebook's own problem stays in the words of its check (core/common/codebook)
        say('refusal.coding.noCodebookYaml'),
    );
  if (!context.config.own_protocols && sameName(protocol.annotator, context.coder)) {
    throw new CodingRefusal(say('refusal.coding.cannotCodeTheirOwnProtocol', { coder: context.coder }));
  }
  if (!protocol.final)
    throw new CodingRefusal(say('refusal.coding.theTranscriptOfByIs', { itemId: protocol.item_id, annotator: protocol.annotator }));
  return context.codebook;
}

function requireUnit(protocol: ProtocolFacts, unit: string): CodingUnit {
  const found = protocol.units.find((u) => u.unit === unit);
  if (!found)
    throw new CodingRefusal(
      say('refusal.coding.isNotAUnitOf', {
        unit,
        itemId: protocol.item_id,
        annotator: protocol.annotator,
        value: protocol.units.map((u) => u.unit).join(', ') || 'none',
      }),
    );
  return found;
}

function requireCode(codebook: Codebook, code: string): string {
  const def = findCode(codebook, code);
  if (!def) throw new CodingRefusal(say('refusal.coding.isNotACodeOf', { code, codes: codebook.codes.map((c) => c.name).join(', ') }));
  return def.name;
}

/** A code act's data: the protocol, the unit as it reads now, the code, who and under which codebook version. */
export function codeActData(
  protocol: Pick<ProtocolFacts, 'annotator' | 'item_id'>,
  unit: CodingUnit,
  code: string,
  coder: string,
  version: string,
  source: CodeActSource,
  afterFinished: boolean,
  undoOf: number | null = null,
): CodeActData {
  return {
    annotator: protocol.annotator,
    item_id: protocol.item_id,
    unit: unit.unit,
    unit_text: unit.text,
    unit_t0_ms: unit.t0_ms,
    unit_t1_ms: unit.t1_ms,
    code,
    coder,
    codebook_version: version,
    source,
    after_finished: afterFinished,
    undo_of: undoOf,
  };
}

/**
 * A code applied to, removed from or toggled on a unit by a key or a click. Several codes may stand on a unit; in an
 * exclusive codebook, applying a code first removes the unit's other codes (logged as removals of source
 * "replaced", undone together with it). Applying a code that stands, or removing one that does not, logs nothing.
 */
export function decideCodeAct(
  fold: CodingFold,
  context: CodingContext,
  protocol: ProtocolFacts,
  command: { unit: string; code: string; action: 'apply' | 'remove' | 'toggle'; source: 'key' | 'click' },
): SessionEntry[] {
  const { codebook, version } = requireCodable(context, protocol);
  const unit = requireUnit(protocol, command.unit);
  const standing = fold.codesOn(protocol.annotator, protocol.item_id, unit.unit, unit.text);
  const has = (name: string): boolean => standing.some((c) => c.code === name);
  // a code removed from the codebook can still be taken off a unit
  const code = command.action === 'remove' && has(command.code) ? command.code : requireCode(codebook, command.code);
  const apply = command.action === 'apply' || (command.action === 'toggle' && !has(code));
  // after finishing, or after choosing to see every coder's codes as the lead: not a blind code
  const afterFinished = fold.protocolCoding(protocol.annotator, protocol.item_id)?.finished != null || fold.revealedToLead() !== null;
  if (!apply)
    return has(code)
      ? [{ type: 'code_removed', data: codeActData(protocol, unit, code, context.coder, version, command.source, afterFinished) }]
      : [];
  if (has(code)) return [];
  const entries: SessionEntry[] = [];
  if (codebook.exclusive) {
    for (const other of standing)
      entries.push({
        type: 'code_removed',
        data: codeActData(protocol, unit, other.code, context.coder, version, 'replaced', afterFinished),
      });
  }
  entries.push({ type: 'code_applied', data: codeActData(protocol, unit, code, context.coder, version, command.source, afterFinished) });
  return entries;
}

/** The coder's memo on a code standing on a unit; an empty text clears it. */
export function decideCodingMemo(
  fold: CodingFold,
  context: CodingContext,
  protocol: ProtocolFacts,
  command: { unit: string; code: string; text: string },
): SessionEntry[] {
  const { version } = requireCodable(context, protocol);
  const unit = requireUnit(protocol, command.unit);
  const standing = fold.codesOn(protocol.annotator, protocol.item_id, unit.unit, unit.text).find((c) => c.code === command.code);
  if (!standing) throw new CodingRefusal(say('refusal.coding.isNotOnUnitA', { code: command.code, unit: unit.unit }));
  const text = command.text.trim();
  if ((standing.memo ?? '') === text) return [];
  return [
    {
      type: 'coding_memo',
      data: {
        annotator: protocol.annotator,
        item_id: protocol.item_id,
        unit: unit.unit,
        code: standing.code,
        coder: context.coder,
        text,
        codebook_version: version,
      },
    },
  ];
}

/** An in-vivo code: words selected in a unit proposed as a new code named by them (the lead adds it to the codebook). */
export function decideProposeCode(
  context: CodingContext,
  protocol: ProtocolFacts,
  command: { unit: string; quote: string },
): SessionEntry[] {
  const { codebook } = requireCodable(context, protocol);
  const unit = requireUnit(protocol, command.unit);
  const quote = command.quote.replace(/\s+/gu, ' ').trim();
  if (quote === '') throw new CodingRefusal(say('refusal.coding.selectSomeWordsOfThe'));
  if (!unit.text.replace(/\s+/gu, ' ').includes(quote))
    throw new CodingRefusal(say('refusal.coding.isNotInUnitAn', { quote, unit: unit.unit }));
  const name = quote.replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, '').slice(0, 200);
  if (name === '') throw new CodingRefusal(say('refusal.coding.theSelectedWordsAreOnly'));
  if (findCode(codebook, name)) throw new CodingRefusal(say('refusal.coding.isACodeOfThe', { name }));
  return [
    {
      type: 'code_proposed',
      data: { annotator: protocol.annotator, item_id: protocol.item_id, unit: unit.unit, name, quote, coder: context.coder },
    },
  ];
}

/**
 * The coder has finished the item: the units listed are what they coded (a unit without a code: no code applies), so
 * agreement counts each of them; in blind coding, the others' codes on the item may now be shown to them.
 */
export function decideFinishCoding(fold: CodingFold, context: CodingContext, protocol: ProtocolFacts): SessionEntry[] {
  const { version } = requireCodable(context, protocol);
  const units = protocol.units.map((u) => u.unit);
  const finished = fold.protocolCoding(protocol.annotator, protocol.item_id)?.finished ?? null;
  if (finished && finished.codebook_version === version && finished.units.join(' ') === units.join(' ')) return [];
  return [
    {
      type: 'coding_finished',
      data: { annotator: protocol.annotator, item_id: protocol.item_id, coder: context.coder, units, codebook_version: version },
    },
  ];
}

/**
 * Undo: the coder's last code act (in any protocol) taken back by its inverse, which names it (`undo_of`). Taking back
 * an application in an exclusive codebook puts back the codes it replaced. Nothing to undo: a refusal that says so.
 */
export function decideUndoCoding(
  fold: CodingFold,
  context: Pick<CodingContext, 'coder' | 'codebook'>,
): { entries: SessionEntry[]; undone: CodeActRecord } {
  const last = fold.lastUndoable();
  if (!last) throw new CodingRefusal(say('refusal.coding.nothingToUndoNoCode'));
  const { data } = last;
  const version = context.codebook?.version ?? data.codebook_version;
  const afterFinished = fold.protocolCoding(data.annotator, data.item_id)?.finished != null || fold.revealedToLead() !== null;
  const inverse = (record: CodeActRecord, type: 'code_applied' | 'code_removed'): SessionEntry => ({
    type,
    data: {
      ...record.data,
      coder: context.coder,
      codebook_version: version,
      source: 'undo',
      after_finished: afterFinished,
      undo_of: record.seq,
    },
  });
  if (last.type === 'code_removed') return { entries: [inverse(last, 'code_applied')], undone: last };
  return { entries: [inverse(last, 'code_removed'), ...last.replaced.map((r) => inverse(r, 'code_applied'))], undone: last };
}

/** Whether a coder may see the other coders' codes on an item: always, or in blind coding only once they finished it. */
export function othersCodesVisible(
  config: Pick<CodingConfig, 'blind'>,
  own: { finished: unknown } | null,
  revealedToLead = false,
): boolean {
  return !config.blind || revealedToLead || (own?.finished ?? null) !== null;
}

/**
 * The person chooses to see every coder's codes as the lead (the Agreement tab's lead view): logged once in her own log;
 * from then on her own codes are not blind. Nothing to log when she chose it before.
 */
export function decideRevealCodings(fold: CodingFold): SessionEntry[] {
  return fold.revealedToLead() !== null ? [] : [{ type: 'codings_revealed', data: { as: 'lead' } }];
}
