import { useCallback, useEffect, useRef, useState } from 'react';
import type { CodingItemView, CodingOverview, ProtocolSummary } from '../../../../core/common/coding/codingViews';
import type { RunCall } from '../../shared/runCall';
import { useApi } from '../../shared/api';
import type { AppMessageId } from '../../shared/i18n/catalogs';

export type ProtocolRef = Pick<ProtocolSummary, 'annotator' | 'item_id'>;
export const sameProtocol = (a: ProtocolRef | null, b: ProtocolRef | null): boolean =>
  a !== null && b !== null && a.annotator === b.annotator && a.item_id === b.item_id;

/** The next protocol to code after `from`: a final one this coder has not finished (wrapping around), or null. */
export function nextOpenProtocol(protocols: readonly ProtocolSummary[], from: ProtocolRef | null): ProtocolSummary | null {
  const at = protocols.findIndex((p) => sameProtocol(p, from));
  for (let k = 1; k <= protocols.length; k++) {
    const p = protocols[(at + k + protocols.length) % protocols.length]!;
    if (p.final && p.finished_at === null && !sameProtocol(p, from)) return p;
  }
  return null;
}

/** What the coding view tells the coder, as a catalog message the view formats in the interface's language. */
export interface CodingNotice {
  id: AppMessageId;
  values?: Record<string, string | number>;
}

const ref = (p: ProtocolRef): ProtocolRef => ({ annotator: p.annotator, item_id: p.item_id });

/**
 * The coding view's state and acts. Every act — a move, a code, finishing, undo, a protocol opened — takes its turn in
 * one queue and reads the protocol and unit as the acts before it left them, so keys typed faster than the host answers
 * do what the same keys typed slowly do: a code key after PgDn codes the next protocol, never the one just left.
 */
export function useCodingDesk(run: RunCall) {
  const client = useApi();
  const [overview, setOverviewState] = useState<CodingOverview | null>(null);
  const [view, setViewState] = useState<CodingItemView | null>(null);
  const [at, setAtState] = useState<ProtocolRef | null>(null);
  const [unitIndex, setUnitIndexState] = useState(0);
  const [notice, setNotice] = useState<CodingNotice | null>(null);
  /** the finished protocol the coder chose to edit (Edit codes): the only finished one a code act may change */
  const [editing, setEditingState] = useState<ProtocolRef | null>(null);
  const now = useRef<{
    overview: CodingOverview | null;
    view: CodingItemView | null;
    at: ProtocolRef | null;
    unit: number;
    editing: ProtocolRef | null;
  }>({
    overview: null,
    view: null,
    at: null,
    unit: 0,
    editing: null,
  });
  const setEditing = (p: ProtocolRef | null) => {
    now.current.editing = p;
    setEditingState(p);
  };
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const setOverview = useCallback((next: CodingOverview) => {
    now.current.overview = next;
    setOverviewState(next);
  }, []);
  const setUnit = (index: number) => {
    const units = now.current.view && sameProtocol(now.current.view, now.current.at) ? now.current.view.units.length : 1;
    now.current.unit = Math.max(0, Math.min(units - 1, index));
    setUnitIndexState(now.current.unit);
  };
  /** the view of the protocol the acts are on, once loaded (null while it loads or failed to) */
  const shown = (): CodingItemView | null => (now.current.view && sameProtocol(now.current.view, now.current.at) ? now.current.view : null);
  const currentUnit = (): string | null => shown()?.units[now.current.unit]?.unit ?? null;

  /** one act after another, in the order asked */
  const inTurn = useCallback((act: () => Promise<void> | void): Promise<void> => {
    const next = queue.current.then(act, act);
    queue.current = next.catch(() => undefined);
    return next;
  }, []);

  /** An act's answer is the protocol's view; the overview's line for it follows from it. */
  const took = (v: CodingItemView | undefined): v is CodingItemView => {
    if (!v) return false;
    if (sameProtocol(v, now.current.at)) {
      now.current.view = v;
      setViewState(v);
    }
    const o = now.current.overview;
    if (o) {
      const coded = Object.values(v.mine).filter((c) => c.length > 0).length;
      setOverview({
        ...o,
        protocols: o.protocols.map((p) => (sameProtocol(p, v) ? { ...p, coded_units: coded, finished_at: v.finished_at } : p)),
      });
    }
    return true;
  };

  /** open a protocol (and land on a unit of it) */
  const open = async (target: ProtocolRef, landOn: string | null = null): Promise<void> => {
    // an edit of a finished protocol ends when the coder leaves it
    if (!sameProtocol(now.current.editing, target)) setEditing(null);
    now.current.at = ref(target);
    now.current.unit = 0;
    setAtState(now.current.at);
    setUnitIndexState(0);
    const v = await run(() => client.codingItem(target.annotator, target.item_id));
    if (!v || !sameProtocol(v, now.current.at)) return;
    now.current.view = v;
    setViewState(v);
    setUnit(
      Math.max(
        0,
        v.units.findIndex((u) => u.unit === landOn),
      ),
    );
  };

  const refresh = useCallback(async (): Promise<CodingOverview | undefined> => {
    const fresh = await run(() => client.codingOverview());
    if (fresh) setOverview(fresh);
    return fresh;
  }, [client, run, setOverview]);

  useEffect(() => {
    void inTurn(async () => {
      const fresh = await refresh();
      if (!fresh || now.current.at) return;
      const first = nextOpenProtocol(fresh.protocols, null) ?? fresh.protocols.find((p) => p.final) ?? null;
      if (first) await open(first);
    });
    // the overview is loaded once when the view opens; acts keep it up to date
  }, []);

  const finishOrNext = async (): Promise<void> => {
    const v = shown();
    const o = now.current.overview;
    if (!v || !o) return;
    const edited = sameProtocol(now.current.editing, v);
    if (v.finished_at && !edited) {
      // finished before and not being edited: Enter goes on to the next protocol not finished
      const next = nextOpenProtocol(o.protocols, v);
      if (next) {
        setNotice(null);
        return open(next);
      }
    }
    const done = await run(() => client.finishCoding(v.annotator, v.item_id));
    if (!took(done)) return;
    if (edited) setEditing(null);
    const next = nextOpenProtocol(now.current.overview?.protocols ?? [], done);
    // Enter finishes and goes on, as the help says; in blind coding the others' codes on the finished one are now
    // there to compare (PgUp), and keys typed from here on act on the next protocol, never on the revealed one
    const revealed = done.others !== null && done.others.length > 0;
    const item = done.item_id;
    if (next) {
      setNotice(revealed ? { id: 'coding.notice.finishedRevealed', values: { item } } : null);
      await open(next);
    } else setNotice({ id: revealed ? 'coding.notice.allFinishedRevealed' : 'coding.notice.allFinished', values: { item } });
  };

  /** A code act on a finished protocol is an explicit edit (Edit codes) and is logged as after finishing; else it is refused here. */
  const finishedRefusal = (v: CodingItemView): boolean => {
    if (!v.finished_at || sameProtocol(now.current.editing, v)) return false;
    setNotice({ id: 'coding.notice.finishedRefusal', values: { item: v.item_id } });
    return true;
  };

  return {
    overview,
    view,
    at,
    unitIndex,
    notice,
    setNotice,
    setOverview,
    refresh,
    inTurn,
    /** ↓/↑, or a click on a unit */
    moveUnit: (delta: number) => void inTurn(() => setUnit(now.current.unit + delta)),
    selectUnit: (index: number) => void inTurn(() => setUnit(index)),
    /** PgDn/PgUp: the next or previous final protocol */
    moveProtocol: (delta: number) =>
      void inTurn(async () => {
        const final = (now.current.overview?.protocols ?? []).filter((p) => p.final);
        const i = final.findIndex((p) => sameProtocol(p, now.current.at));
        const next = final[Math.max(0, Math.min(final.length - 1, i + delta))];
        if (next && !sameProtocol(next, now.current.at)) await open(next);
      }),
    openProtocol: (p: ProtocolRef) => void inTurn(() => open(p)),
    /** a code toggled on a unit: the current one (a key, the codebook's button) or a named one (a chip's ×) */
    toggle: (code: string, source: 'key' | 'click', unit?: string) =>
      void inTurn(async () => {
        const v = shown();
        const on = unit ?? currentUnit();
        if (!v || !on || finishedRefusal(v)) return;
        took(await run(() => client.codeUnit(v.annotator, v.item_id, on, code, 'toggle', source)));
      }),
    finishOrNext: () => void inTurn(finishOrNext),
    editing,
    /** Edit codes: the finished protocol shown may be changed, each act logged as after finishing, until Enter finishes it again */
    editFinished: () =>
      void inTurn(() => {
        const v = shown();
        if (!v?.finished_at) return;
        setEditing(ref(v));
        setNotice({ id: 'coding.notice.editing', values: { item: v.item_id } });
      }),
    /** undo the last code act, wherever it was: that protocol and unit are shown */
    undo: () =>
      void inTurn(async () => {
        const v = await run(() => client.undoCoding());
        if (!v) return;
        if (!sameProtocol(v, now.current.at)) await open(v, v.changed_unit);
        took(v);
        const i = v.units.findIndex((u) => u.unit === v.changed_unit);
        if (i >= 0) setUnit(i);
      }),
    /** the unit whose codes a memo is for, once the acts before are answered; null (said) when it has none */
    memoTarget: (onTarget: (unit: string) => void) =>
      void inTurn(() => {
        const on = currentUnit();
        if (on && (shown()?.mine[on]?.length ?? 0) > 0) onTarget(on);
        else setNotice({ id: 'coding.notice.memoNeedsCode' });
      }),
    writeMemo: (unit: string, code: string, text: string) =>
      inTurn(async () => {
        const v = shown();
        if (v) took(await run(() => client.writeCodingMemo(v.annotator, v.item_id, unit, code, text)));
      }),
    propose: (picked: { unit: string; quote: string }) =>
      void inTurn(async () => {
        const v = shown();
        if (!v) return;
        if (!took(await run(() => client.proposeCode(v.annotator, v.item_id, picked.unit, picked.quote)))) return;
        setNotice({ id: 'coding.notice.proposed', values: { quote: picked.quote } });
        await refresh();
      }),
  };
}
