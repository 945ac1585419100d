import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CodeDef } from '../../../../core/common/codebook/codebook';
import type { CodingItemView, CodingOverview, ProtocolSummary } from '../../../../core/common/coding/codingViews';
import type { ProjectView } from '../../../../core/common/contract/aloudApi';
import type { RunCall } from '../../app/runCall';
import { formatClock } from '../../app/transcriptMarks';
import type { ApiClient } from '../../contract/apiClient';
import { useShortcuts } from '../../hooks/useShortcuts';
import { Modal, ShortcutTable } from '../Dialogs';
import { CodebookPanel } from './CodebookPanel';
import { codingShortcut, codingShortcutList } from './codingKeys';
import './coding.css';

interface Props {
  client: ApiClient;
  project: ProjectView;
  run: RunCall;
  onLeave: () => void;
}

type ProtocolRef = Pick<ProtocolSummary, 'annotator' | 'item_id'>;
const sameProtocol = (a: ProtocolRef | null, b: ProtocolRef | null): boolean => a !== null && b !== null && a.annotator === b.annotator && a.item_id === b.item_id;

/** The next protocol to code after `from`: a final one this coder has not finished (wrapping around), or null. */
function nextOpenProtocol(protocols: readonly ProtocolSummary[], from: ProtocolRef | null): ProtocolSummary | null {
  const at = protocols.findIndex((p) => sameProtocol(p, from));
  for (let k = 1; k <= protocols.length; k++) {
    const p = protocols[(at + k + protocols.length) % protocols.length]!;
    if (p.final && p.finished_at === null && !sameProtocol(p, from)) return p;
  }
  return null;
}

/**
 * Coding in Review: the coder (the session's annotator) codes the units of a protocol with the codebook's codes,
 * keyboard first (codingKeys), with the definitions at hand. What the page shows of the other coders is what the host
 * sent: in blind coding nothing of theirs until this coder finished the item.
 */
export function CodingView({ client, project, run, onLeave }: Props) {
  const [overview, setOverview] = useState<CodingOverview | null>(null);
  const [at, setAtState] = useState<ProtocolRef | null>(null);
  const [view, setViewState] = useState<CodingItemView | null>(null);
  /** the protocol shown and its view as of now, for answers that arrive after the coder moved on */
  const atNow = useRef<ProtocolRef | null>(null);
  const viewNow = useRef<CodingItemView | null>(null);
  const setAt = (next: ProtocolRef) => {
    atNow.current = next;
    setAtState(next);
  };
  const setView = (next: CodingItemView) => {
    viewNow.current = next;
    setViewState(next);
  };
  /** the coder's acts go to the host one after another, in the order of the keys (none lost, none overtaking) */
  const acts = useRef<Promise<unknown>>(Promise.resolve());
  const inTurn = (act: () => Promise<void>): Promise<void> => {
    const next = acts.current.then(act, act);
    acts.current = next.catch(() => undefined);
    return next;
  };
  const [unitIndex, setUnitIndex] = useState(0);
  const [shownCode, setShownCode] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const [memoUnit, setMemoUnit] = useState<string | null>(null);
  const [selection, setSelection] = useState<{ unit: string; quote: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const unitRefs = useRef(new Map<string, HTMLLIElement>());
  /** the unit to land on when the protocol being opened has loaded (an undo in another protocol) */
  const landOn = useRef<string | null>(null);

  const refresh = useCallback(async () => {
    const fresh = await run(() => client.codingOverview());
    if (fresh) setOverview(fresh);
    return fresh;
  }, [client, run]);

  useEffect(() => {
    void refresh().then((fresh) => {
      if (fresh && !at) {
        const first = nextOpenProtocol(fresh.protocols, null) ?? fresh.protocols.find((p) => p.final) ?? null;
        if (first) setAt({ annotator: first.annotator, item_id: first.item_id });
      }
    });
    // the overview is loaded once when the view opens; acts update it below
  }, []);

  useEffect(() => {
    if (!at) return;
    let live = true;
    void run(() => client.codingItem(at.annotator, at.item_id)).then((v) => {
      if (!live || !v || !sameProtocol(v, atNow.current)) return;
      setView(v);
      setUnitIndex(Math.max(0, v.units.findIndex((u) => u.unit === landOn.current)));
      landOn.current = null;
      setSelection(null);
    });
    return () => {
      live = false;
    };
  }, [at, client, run]);

  const codes: CodeDef[] = useMemo(() => overview?.codebook?.codes ?? [], [overview]);
  const units = view?.units ?? [];
  const unit = units[Math.min(unitIndex, units.length - 1)] ?? null;

  useEffect(() => {
    if (unit) unitRefs.current.get(unit.unit)?.scrollIntoView?.({ block: 'nearest' });
  }, [unit]);

  /**
   * An act's answer is the protocol's view; the overview's line for it follows from it. Only an undo moves to the unit
   * it changed: the answer to a code key may come after the coder has moved on.
   */
  const took = (v: CodingItemView | undefined, follow = false): void => {
    if (!v) return;
    if (sameProtocol(v, atNow.current)) setView(v);
    setOverview((o) =>
      o && {
        ...o,
        protocols: o.protocols.map((p) =>
          p.annotator === v.annotator && p.item_id === v.item_id ? { ...p, coded_units: Object.values(v.mine).filter((c) => c.length > 0).length, finished_at: v.finished_at } : p,
        ),
      },
    );
    if (follow && v.changed_unit !== null) {
      const i = v.units.findIndex((u) => u.unit === v.changed_unit);
      if (i >= 0) setUnitIndex(i);
    }
  };

  /** a code on the unit the coder is on when they press its key (or on the unit of a clicked ×) */
  const toggle = (code: string, source: 'key' | 'click', onUnit = unit?.unit) => {
    const on = view;
    if (!on || !onUnit) return;
    void inTurn(async () => took(await run(() => client.codeUnit(on.annotator, on.item_id, onUnit, code, 'toggle', source))));
  };

  const finish = () => {
    const on = view;
    if (!on || !overview) return;
    void inTurn(() => finished(on));
  };
  const finished = async (on: ProtocolRef) => {
    const v = await run(() => client.finishCoding(on.annotator, on.item_id));
    if (!v || !overview) return;
    took(v);
    if (!sameProtocol(v, atNow.current)) return;
    const next = nextOpenProtocol(overview.protocols.map((p) => (sameProtocol(p, v) ? { ...p, finished_at: v.finished_at } : p)), v);
    // blind coding: the others' codes are shown now; go on only when there are none to look at
    if (v.others && v.others.length > 0) setNotice(`Finished. The other coders' codes on ${v.item_id} are shown now.${next ? ' Press Enter again, or PgDn, for the next protocol.' : ''}`);
    else if (next) {
      setNotice(null);
      setAt({ annotator: next.annotator, item_id: next.item_id });
    } else setNotice('Finished. Every protocol you can code is finished.');
  };

  const undo = () => void inTurn(undone);
  const undone = async () => {
    const v = await run(() => client.undoCoding());
    if (!v) return;
    if (!sameProtocol(v, atNow.current)) {
      landOn.current = v.changed_unit;
      setAt({ annotator: v.annotator, item_id: v.item_id });
    }
    took(v, true);
  };

  const propose = () => {
    const on = view;
    const picked = selection;
    if (!on || !picked) {
      setNotice('Select words of a unit with the mouse first, then press n (or the button) to propose them as a new code.');
      return;
    }
    setSelection(null);
    window.getSelection()?.removeAllRanges();
    void inTurn(async () => {
      const v = await run(() => client.proposeCode(on.annotator, on.item_id, picked.unit, picked.quote));
      if (!v) return;
      took(v);
      setNotice(`Proposed “${picked.quote}” as a new code; the lead can add it to the codebook.`);
      await refresh();
    });
  };

  /** a memo on the unit's codes: asked once the acts before it are answered (a code key just pressed counts) */
  const memo = () => {
    const onUnit = unit?.unit;
    if (!onUnit) return;
    void inTurn(async () => {
      if ((viewNow.current?.mine[onUnit]?.length ?? 0) > 0) setMemoUnit(onUnit);
      else setNotice('A memo belongs to a coding: give the unit a code first.');
    });
  };

  const move = (delta: number) => setUnitIndex((i) => Math.max(0, Math.min(units.length - 1, i + delta)));
  const moveProtocol = (delta: number) => {
    if (!overview) return;
    const final = overview.protocols.filter((p) => p.final);
    const i = final.findIndex((p) => sameProtocol(p, at));
    const next = final[Math.max(0, Math.min(final.length - 1, i + delta))];
    if (next) setAt({ annotator: next.annotator, item_id: next.item_id });
  };

  const afterFinishNext = (): boolean => {
    if (!view?.finished_at || !overview) return false;
    const next = nextOpenProtocol(overview.protocols, view);
    if (!next) return false;
    setNotice(null);
    setAt({ annotator: next.annotator, item_id: next.item_id });
    return true;
  };

  useShortcuts((press) => {
    const action = codingShortcut(press, codes);
    if (!action) return false;
    switch (action.kind) {
      case 'unit':
        move(action.delta);
        break;
      case 'protocol':
        moveProtocol(action.delta);
        break;
      case 'code':
        toggle(action.code, 'key');
        break;
      case 'finish':
        if (!afterFinishNext()) finish();
        break;
      case 'undo':
        undo();
        break;
      case 'memo':
        memo();
        break;
      case 'propose':
        propose();
        break;
      case 'help':
        setHelp((h) => !h);
        break;
    }
    return true;
  }, !help && memoUnit === null);

  const noteSelection = (unitId: string, element: HTMLElement) => {
    const picked = window.getSelection();
    const quote = picked && !picked.isCollapsed && element.contains(picked.anchorNode) && element.contains(picked.focusNode) ? picked.toString().replace(/\s+/g, ' ').trim() : '';
    setSelection(quote ? { unit: unitId, quote } : null);
  };

  if (!overview) return <p className="muted">Loading the codebook…</p>;
  const definition = codes.find((c) => c.name === shownCode) ?? null;
  const textOf = new Map(project.items.map((i) => [i.id, i.text]));

  /** A clicked button does its act and leaves the keys to the view: Enter after a click finishes, never presses it again. */
  const keepKeysWithView = (e: React.MouseEvent) => {
    const target = e.target instanceof Element ? e.target : null;
    if (!target?.closest('button') || target.closest('[role="dialog"]')) return;
    e.preventDefault();
    if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body) document.activeElement.blur();
  };

  return (
    <div className="coding-screen" onMouseDown={keepKeysWithView}>
      <aside className="coding-protocols" aria-label="protocols to code">
        <div className="coding-side-head">
          <button className="link" onClick={onLeave}>
            ← Review
          </button>
          <span className="muted">{overview.protocols.filter((p) => p.finished_at).length} of {overview.protocols.filter((p) => p.final).length} finished</span>
        </div>
        <ol>
          {overview.protocols.map((p) => {
            const current = sameProtocol(p, at);
            return (
              <li key={`${p.annotator}/${p.item_id}`}>
                <button
                  className={`protocol-link ${current ? 'current' : ''} ${p.finished_at ? 'finished' : p.coded_units > 0 ? 'started' : ''}`}
                  aria-current={current ? 'true' : undefined}
                  tabIndex={current ? 0 : -1}
                  disabled={!p.final}
                  title={p.final ? `${p.annotator} on ${p.item_id}: ${p.coded_units} of ${p.units} units coded${p.finished_at ? ', finished' : ''}` : `${p.annotator} has not completed ${p.item_id}: its transcript is not final`}
                  onClick={() => setAt({ annotator: p.annotator, item_id: p.item_id })}
                >
                  <span className="dot" aria-hidden="true" />
                  <span className="protocol-name">
                    {p.item_id} <span className="muted">· {p.annotator}</span>
                  </span>
                  <span className="protocol-count">{p.final ? `${p.coded_units}/${p.units}` : 'not final'}</span>
                </button>
              </li>
            );
          })}
        </ol>
        {overview.protocols.length === 0 && (
          <p className="empty">
            {overview.own_protocols ? 'No protocol to code yet: annotators’ completed items appear here.' : 'No protocol of another annotator yet: this project codes only others’ protocols (coding.own_protocols: false), so yours are not listed.'}
          </p>
        )}
      </aside>

      <section className="coding-main" aria-label="units of the protocol">
        {!overview.codebook && (
          <p className="refusal" role="alert">
            {overview.codebook_problem}
          </p>
        )}
        {notice && (
          <p className="coding-notice" role="status">
            {notice}
            <button className="link" onClick={() => setNotice(null)} aria-label="dismiss">
              ✕
            </button>
          </p>
        )}
        {view ? (
          <>
            <div className="item-head">
              <span className="counter">
                <code>{view.item_id}</code> · {view.annotator}&rsquo;s protocol · unit {units.length === 0 ? 0 : Math.min(unitIndex, units.length - 1) + 1} of {units.length}
                {view.finished_at ? ' · finished' : ''}
              </span>
              <span className="nav">
                <button onClick={undo} title="Undo the last code act (Ctrl+Z)">
                  Undo
                </button>
                <button onClick={() => setHelp(true)} title="Definitions and shortcuts (?)">
                  Definitions
                </button>
                <button className="primary" onClick={() => afterFinishNext() || finish()} title="Finish the item (Enter)">
                  {view.finished_at ? 'Next protocol' : 'Finish item'} <kbd>Enter</kbd>
                </button>
              </span>
            </div>
            <blockquote className="item-text compact">{textOf.get(view.item_id) ?? view.item_text}</blockquote>
            {overview.blind && view.others === null && <p className="muted blind-note">Blind coding: the other coders&rsquo; codes show once you finish this item.</p>}
            <ol className="coding-units">
              {units.map((u, i) => {
                const mine = view.mine[u.unit] ?? [];
                const current = i === Math.min(unitIndex, units.length - 1);
                return (
                  <li
                    key={u.unit}
                    ref={(el) => {
                      if (el) unitRefs.current.set(u.unit, el);
                      else unitRefs.current.delete(u.unit);
                    }}
                    className={`coding-unit ${current ? 'current' : ''}`}
                    aria-current={current ? 'true' : undefined}
                    data-unit={u.unit}
                    onClick={() => setUnitIndex(i)}
                  >
                    <span className="unit-id muted" title={`${formatClock(u.t0_ms)}–${formatClock(u.t1_ms)}`}>
                      {u.unit}
                      <br />
                      {formatClock(u.t0_ms)}
                    </span>
                    <div className="unit-body">
                      <p className="unit-text" onMouseUp={(e) => noteSelection(u.unit, e.currentTarget)}>
                        {u.text}
                      </p>
                      <div className="unit-codes">
                        {mine.map((c) => (
                          <span key={c.code} className="code-chip mine" title={codes.find((d) => d.name === c.code)?.definition ?? 'no longer in the codebook'}>
                            {c.code}
                            {c.memo && <span className="memo-mark" title={`memo: ${c.memo}`}> ✎</span>}
                            <button className="link" aria-label={`remove ${c.code} from ${u.unit}`} onClick={(e) => {
                              e.stopPropagation();
                              toggle(c.code, 'click', u.unit);
                            }}>
                              ×
                            </button>
                          </span>
                        ))}
                        {view.others?.map((o) =>
                          (o.codes[u.unit] ?? []).map((code) => (
                            <span key={`${o.coder}:${code}`} className="code-chip other" title={`${o.coder}${o.finished_at ? '' : ' (not finished)'}`}>
                              {o.coder}: {code}
                            </span>
                          )),
                        )}
                        {selection?.unit === u.unit && (
                          <button className="propose" onClick={(e) => {
                            e.stopPropagation();
                            propose();
                          }}>
                            Propose “{selection.quote}” as a code <kbd>n</kbd>
                          </button>
                        )}
                      </div>
                    </div>
                  </li>
                );
              })}
            </ol>
            {units.length === 0 && <p className="empty">This protocol has no words to code.</p>}
            {view.stale.length > 0 && (
              <details className="stale">
                <summary>
                  {view.stale.length} of your codings belong to an earlier transcript of this item (transcribed again since); they stay with the words you coded
                </summary>
                <ul>
                  {view.stale.map((s) => (
                    <li key={`${s.unit}:${s.unit_text}`}>
                      <code>{s.unit}</code> “{s.unit_text}”: {s.codes.join(', ')}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </>
        ) : (
          <p className="empty">{overview.protocols.some((p) => p.final) ? 'Choose a protocol to code.' : 'No protocol is final yet: an item can be coded once its annotator completed it.'}</p>
        )}
      </section>

      <CodebookPanel
        client={client}
        run={run}
        overview={overview}
        onOverview={setOverview}
        onApply={(code) => toggle(code, 'click')}
        applied={new Set((unit && view?.mine[unit.unit]?.map((c) => c.code)) ?? [])}
        shown={definition}
        onShow={setShownCode}
        canApply={unit !== null && Boolean(overview.codebook)}
      />

      {help && (
        <Modal title="Codebook and shortcuts" onClose={() => setHelp(false)}>
          <dl className="definitions">
            {codes.map((c) => (
              <div key={c.name}>
                <dt>
                  {c.key && <kbd>{c.key}</kbd>} {c.name}
                  {c.parent && <span className="muted"> (under {c.parent})</span>}
                </dt>
                <dd>
                  {c.definition || <span className="muted">no definition yet</span>}
                  {c.example && <div className="muted">Example: {c.example}</div>}
                  {c.counter_example && <div className="muted">Not this: {c.counter_example}</div>}
                </dd>
              </div>
            ))}
          </dl>
          <ShortcutTable shortcuts={codingShortcutList(codes)} />
        </Modal>
      )}
      {memoUnit !== null && view && (
        <MemoDialog
          unit={memoUnit}
          codes={view.mine[memoUnit] ?? []}
          onClose={() => setMemoUnit(null)}
          onSave={(code, text) => inTurn(async () => took(await run(() => client.writeCodingMemo(view.annotator, view.item_id, memoUnit, code, text))))}
        />
      )}
    </div>
  );
}

/** A memo per code on the unit: saved one by one (an empty memo clears it). */
function MemoDialog({ unit, codes, onClose, onSave }: { unit: string; codes: ReadonlyArray<{ code: string; memo: string | null }>; onClose: () => void; onSave: (code: string, text: string) => Promise<void> }) {
  const [texts, setTexts] = useState(() => Object.fromEntries(codes.map((c) => [c.code, c.memo ?? ''])));
  return (
    <Modal title={`Memo on ${unit}`} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void (async () => {
            for (const c of codes) if ((c.memo ?? '') !== texts[c.code]) await onSave(c.code, texts[c.code] ?? '');
            onClose();
          })();
        }}
      >
        {codes.map((c) => (
          <label key={c.code} className="memo-field">
            {c.code}
            <textarea value={texts[c.code] ?? ''} rows={3} onChange={(e) => setTexts({ ...texts, [c.code]: e.target.value })} />
          </label>
        ))}
        <button className="primary" type="submit">
          Save memo
        </button>
      </form>
    </Modal>
  );
}
