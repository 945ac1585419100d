import type { CodeActData, CodeActSource, SessionEvent } from '../session/sessionEvents';
import type { SessionFold } from '../session/sessionFold';
import { parseUnitId } from './codingUnits';

/** A code standing on a unit, with the act that applied it and the coder's memo on it. */
export interface StandingCode {
  code: string;
  applied_at: string;
  codebook_version: string;
  source: CodeActSource;
  /** applied after the coder had finished the item (in blind coding: after seeing the others' codes) */
  after_finished: boolean;
  memo: string | null;
  memo_at: string | null;
}

/** A unit as the coder coded it: its words and times as they were then, and the codes standing on it now. */
export interface CodedUnit {
  unit: string;
  unit_text: string;
  t0_ms: number;
  t1_ms: number;
  codes: StandingCode[];
}

/** One coder's work on one annotator's protocol of one item. */
export interface ProtocolCoding {
  annotator: string;
  item_id: string;
  /** every unit the coder ever coded (a unit whose codes were all removed stays, with none), in unit order */
  units: CodedUnit[];
  /** the last time the coder finished the item, and the units it had then; null while not finished */
  finished: { at: string; units: string[]; codebook_version: string } | null;
  /**
   * per unit, the codes it had when the coder first finished the item with it: in blind coding, the codes given
   * before the other coders' codes were shown (agreement counts these; later changes are the record's too)
   */
  first_finished_codes: Record<string, string[]>;
  /** she first finished it after choosing to see every coder's codes as the lead: her first codes are not blind */
  first_finished_unblinded: boolean;
}

export interface CodeProposal {
  seq: number;
  at: string;
  annotator: string;
  item_id: string;
  unit: string;
  name: string;
  quote: string;
  coder: string;
}

/** What a coder's log says about coding: their protocols, in the order first coded, and their in-vivo proposals. */
export interface CoderCodings {
  coder: string | null;
  protocols: ProtocolCoding[];
  proposals: CodeProposal[];
}

/** A code act as the fold keeps it for undo: which act, whether a later undo took it back, the codes it replaced. */
export interface CodeActRecord {
  seq: number;
  type: 'code_applied' | 'code_removed';
  data: CodeActData;
  undone: boolean;
  /** the removals (source "replaced") this application made in an exclusive codebook: undone with it */
  replaced: CodeActRecord[];
}

interface UnitFold {
  unit: string;
  unit_text: string;
  t0_ms: number;
  t1_ms: number;
  codes: Map<string, StandingCode>;
}

interface ProtocolFold {
  annotator: string;
  item_id: string;
  /** keyed by unit id and words: the same id with other words (never made by Aloud's unit rules) stays apart */
  units: Map<string, UnitFold>;
  finished: ProtocolCoding['finished'];
  firstFinished: Map<string, string[]>;
  firstFinishedUnblinded: boolean;
}

export const protocolKey = (annotator: string, itemId: string): string => `${annotator}\u0000${itemId}`;
const unitKey = (unit: string, text: string): string => `${unit}\u0000${text}`;

const CODING_EVENTS: ReadonlySet<string> = new Set([
  'session_started',
  'code_applied',
  'code_removed',
  'coding_memo',
  'code_proposed',
  'coding_finished',
  'codings_revealed',
]);

/** Unit order: by utterance, then sentence (an utterance unit before its sentences). */
export function compareUnits(a: string, b: string): number {
  const x = parseUnitId(a);
  const y = parseUnitId(b);
  if (!x || !y) return a < b ? -1 : a > b ? 1 : 0;
  return x.utterance - y.utterance || (x.sentence ?? -1) - (y.sentence ?? -1);
}

/**
 * The pure fold of a coder's coding events (code_applied, code_removed, coding_memo, code_proposed, coding_finished)
 * in their own session log, beside the session fold. Like labels, the log is the record and this is its reading: the
 * codes standing on each unit, the memos, whether the coder finished the item and with which units, the proposals,
 * and the acts an undo can take back.
 */
export class CodingFold {
  private coder: string | null = null;
  private readonly protocols = new Map<string, ProtocolFold>();
  private readonly proposals: CodeProposal[] = [];
  private readonly acts: CodeActRecord[] = [];
  private readonly bySeq = new Map<number, CodeActRecord>();
  /** when the person chose to see every coder's codes as the lead (codings_revealed), or null */
  private revealedAt: string | null = null;
  /** removals of an exclusive replacement, waiting for the application they make room for (the next event) */
  private replacing: CodeActRecord[] = [];

  static applies(event: SessionEvent): boolean {
    return CODING_EVENTS.has(event.type);
  }

  /** Any event of the log: the coding fold keeps the coder's name and coding acts, and passes over the rest. */
  apply(event: SessionEvent): void {
    if (!CodingFold.applies(event)) return;
    if (event.type !== 'code_removed' && event.type !== 'code_applied') this.replacing = [];
    switch (event.type) {
      case 'session_started':
        this.coder = event.data.annotator;
        return;
      case 'code_applied':
      case 'code_removed':
        return this.applyAct(event.seq, event.ts, event.type, event.data);
      case 'coding_memo': {
        const { annotator, item_id, unit, code, text } = event.data;
        const units = [...(this.protocols.get(protocolKey(annotator, item_id))?.units.values() ?? [])];
        const held = units.reverse().find((u) => u.unit === unit && u.codes.has(code));
        const standing = held?.codes.get(code);
        if (held && standing) held.codes.set(code, { ...standing, memo: text === '' ? null : text, memo_at: event.ts });
        return;
      }
      case 'codings_revealed':
        this.revealedAt ??= event.ts;
        return;
      case 'code_proposed':
        this.proposals.push({ seq: event.seq, at: event.ts, ...event.data });
        return;
      case 'coding_finished': {
        const protocol = this.protocol(event.data.annotator, event.data.item_id);
        if (protocol.finished === null && protocol.firstFinished.size === 0 && this.revealedAt !== null)
          protocol.firstFinishedUnblinded = true;
        protocol.finished = { at: event.ts, units: [...event.data.units], codebook_version: event.data.codebook_version };
        for (const unit of event.data.units) {
          if (protocol.firstFinished.has(unit)) continue;
          const held = [...protocol.units.values()].filter((u) => u.unit === unit).flatMap((u) => [...u.codes.keys()]);
          protocol.firstFinished.set(unit, [...new Set(held)]);
        }
        return;
      }
      default:
        return;
    }
  }

  private applyAct(seq: number, ts: string, type: 'code_applied' | 'code_removed', data: CodeActData): void {
    const protocol = this.protocol(data.annotator, data.item_id);
    const key = unitKey(data.unit, data.unit_text);
    let unit = protocol.units.get(key);
    if (!unit)
      protocol.units.set(
        key,
        (unit = { unit: data.unit, unit_text: data.unit_text, t0_ms: data.unit_t0_ms, t1_ms: data.unit_t1_ms, codes: new Map() }),
      );
    if (type === 'code_applied') {
      if (!unit.codes.has(data.code))
        unit.codes.set(data.code, {
          code: data.code,
          applied_at: ts,
          codebook_version: data.codebook_version,
          source: data.source,
          after_finished: data.after_finished,
          memo: null,
          memo_at: null,
        });
    } else unit.codes.delete(data.code);
    const record: CodeActRecord = { seq, type, data, undone: false, replaced: [] };
    if (data.undo_of !== null) {
      const undone = this.bySeq.get(data.undo_of);
      if (undone) undone.undone = true;
    }
    if (type === 'code_removed' && data.source === 'replaced') this.replacing.push(record);
    else if (type === 'code_removed') this.replacing = [];
    else {
      record.replaced = this.replacing.filter(
        (r) => r.data.annotator === data.annotator && r.data.item_id === data.item_id && r.data.unit === data.unit,
      );
      this.replacing = [];
    }
    this.acts.push(record);
    this.bySeq.set(seq, record);
  }

  private protocol(annotator: string, itemId: string): ProtocolFold {
    const key = protocolKey(annotator, itemId);
    let found = this.protocols.get(key);
    if (!found)
      this.protocols.set(
        key,
        (found = { annotator, item_id: itemId, units: new Map(), finished: null, firstFinished: new Map(), firstFinishedUnblinded: false }),
      );
    return found;
  }

  /** When the person chose to see every coder's codes as the lead (codings_revealed), or null: she then codes unblinded. */
  revealedToLead(): string | null {
    return this.revealedAt;
  }

  /** The coder's work on one protocol, or null when they never coded it. */
  protocolCoding(annotator: string, itemId: string): ProtocolCoding | null {
    const found = this.protocols.get(protocolKey(annotator, itemId));
    return found ? readProtocol(found) : null;
  }

  /** The codes the coder has on a unit of a protocol now (unit as it reads now). */
  codesOn(annotator: string, itemId: string, unit: string, unitText: string): StandingCode[] {
    return [...(this.protocols.get(protocolKey(annotator, itemId))?.units.get(unitKey(unit, unitText))?.codes.values() ?? [])];
  }

  /** The last act of the coder that an undo takes back: not itself an undo, nor undone, nor an import, nor a removal another code made. */
  lastUndoable(): CodeActRecord | null {
    for (let i = this.acts.length - 1; i >= 0; i--) {
      const act = this.acts[i]!;
      if (act.undone || act.data.source === 'undo' || act.data.source === 'import' || act.data.source === 'replaced') continue;
      return act;
    }
    return null;
  }

  codings(): CoderCodings {
    return { coder: this.coder, protocols: [...this.protocols.values()].map(readProtocol), proposals: [...this.proposals] };
  }
}

function readProtocol(p: ProtocolFold): ProtocolCoding {
  const units = [...p.units.values()]
    .map((u) => ({ unit: u.unit, unit_text: u.unit_text, t0_ms: u.t0_ms, t1_ms: u.t1_ms, codes: [...u.codes.values()] }))
    .sort((a, b) => compareUnits(a.unit, b.unit));
  return {
    annotator: p.annotator,
    item_id: p.item_id,
    units,
    finished: p.finished,
    first_finished_codes: Object.fromEntries(p.firstFinished),
    first_finished_unblinded: p.firstFinishedUnblinded,
  };
}

/**
 * A coder's log folded twice over the same events: the session fold for its items and the coding fold for its coding
 * acts. The session fold knows nothing of coding; whoever needs both (the coding rules' caller) composes them.
 */
export interface CoderFolds {
  readonly session: SessionFold;
  readonly coding: CodingFold;
}

/** A coder's codings from their whole log (the export and agreement read logs without the session fold's state). */
export function foldCodings(events: readonly SessionEvent[]): CoderCodings {
  const fold = new CodingFold();
  for (const event of events) fold.apply(event);
  return fold.codings();
}
