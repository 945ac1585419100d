import { useEffect, useMemo, useRef, useState } from 'react';
import type { CodeDef } from '../../../../core/common/codebook/codebook';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import type { RunCall } from '../../shared/runCall';
import { formatClock } from '../../../../core/common/transcript/transcriptMarks';
import { useShortcuts } from '../../shared/useShortcuts';
import { Modal, ShortcutTable } from '../../shared/Dialogs';
import { CodebookPanel } from './CodebookPanel';
import { codingShortcut, codingShortcutList } from './codingKeys';
import { sameProtocol, useCodingDesk } from './useCodingDesk';
import './coding.css';
import { textInLanguage } from '../../../../core/common/guidelines/guidelines';
import { guidelineLanguage } from '../guidelines/guidelineLanguage';
import { GuidelinesPanel, useGuidelinesShortcut } from '../guidelines/GuidelinesPanel';

interface Props {
  project: ProjectView;
  run: RunCall;
  onLeave: () => void;
}

/**
 * Coding in Review: the coder (the session's annotator) codes the units of a protocol with the codebook's codes,
 * keyboard first (codingKeys), with the definitions at hand. What the page shows of the other coders is what the host
 * sent: in blind coding nothing of theirs until this coder finished the item.
 */
export function CodingView({ project, run, onLeave }: Props) {
  const desk = useCodingDesk(run);
  const { overview, view, at, unitIndex, notice, setNotice } = desk;
  const [shownCode, setShownCode] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const [memoUnit, setMemoUnit] = useState<string | null>(null);
  const [selection, setSelection] = useState<{ unit: string; quote: string } | null>(null);
  const unitRefs = useRef(new Map<string, HTMLLIElement>());

  const codes: CodeDef[] = useMemo(() => overview?.codebook?.codes ?? [], [overview]);
  const guidelinesShortcut = useGuidelinesShortcut(codes);
  const units = view?.units ?? [];
  const unit = units[Math.min(unitIndex, units.length - 1)] ?? null;

  useEffect(() => {
    if (unit) unitRefs.current.get(unit.unit)?.scrollIntoView?.({ block: 'nearest' });
  }, [unit]);
  useEffect(() => setSelection(null), [at]);

  const propose = () => {
    if (!selection) {
      setNotice('Select words of a unit with the mouse first, then press n (or the button) to propose them as a new code.');
      return;
    }
    desk.propose(selection);
    setSelection(null);
    window.getSelection()?.removeAllRanges();
  };

  useShortcuts(
    (press) => {
      const action = codingShortcut(press, codes);
      if (!action) return false;
      switch (action.kind) {
        case 'unit':
          desk.moveUnit(action.delta);
          break;
        case 'protocol':
          desk.moveProtocol(action.delta);
          break;
        case 'code':
          desk.toggle(action.code, 'key');
          break;
        case 'finish':
          desk.finishOrNext();
          break;
        case 'undo':
          desk.undo();
          break;
        case 'memo':
          desk.memoTarget(setMemoUnit);
          break;
        case 'propose':
          propose();
          break;
        case 'help':
          setHelp((h) => !h);
          break;
      }
      return true;
    },
    !help && memoUnit === null,
  );

  const noteSelection = (unitId: string, element: HTMLElement) => {
    const picked = window.getSelection();
    const quote =
      picked && !picked.isCollapsed && element.contains(picked.anchorNode) && element.contains(picked.focusNode)
        ? picked.toString().replace(/\s+/g, ' ').trim()
        : '';
    setSelection(quote ? { unit: unitId, quote } : null);
  };

  if (!overview) return <p className="muted">Loading the codebook…</p>;
  const definition = codes.find((c) => c.name === shownCode) ?? null;
  const textOf = new Map(project.items.map((i) => [i.id, i.text]));

  return (
    <div className="coding-screen">
      <aside className="coding-protocols" aria-label="protocols to code">
        <div className="coding-side-head">
          <button className="link" onClick={onLeave}>
            ← Review
          </button>
          <span className="muted">
            {overview.protocols.filter((p) => p.finished_at).length} of {overview.protocols.filter((p) => p.final).length} finished
          </span>
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
                  title={
                    p.final
                      ? `${p.annotator} on ${p.item_id}: ${p.coded_units} of ${p.units} units coded${p.finished_at ? ', finished' : ''}`
                      : `${p.annotator} has not completed ${p.item_id}: its transcript is not final`
                  }
                  onClick={() => desk.openProtocol(p)}
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
            {overview.own_protocols
              ? 'No protocol to code yet: annotators’ completed items appear here.'
              : 'No protocol of another annotator yet: this project codes only others’ protocols (coding.own_protocols: false), so yours are not listed.'}
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
                <code>{view.item_id}</code> · {view.annotator}&rsquo;s protocol · unit {unit ? <code>{unit.unit}</code> : '–'} (
                {units.length === 0 ? 0 : Math.min(unitIndex, units.length - 1) + 1} of {units.length})
                {view.finished_at ? (sameProtocol(desk.editing, view) ? ' · finished, editing' : ' · finished') : ''}
              </span>
              <span className="nav">
                <button onClick={desk.undo} title="Undo the last code act (Ctrl+Z)">
                  Undo
                </button>
                <button onClick={() => setHelp(true)} title="Definitions and shortcuts (?)">
                  Definitions
                </button>
                {view.finished_at && !sameProtocol(desk.editing, view) && (
                  <button
                    onClick={desk.editFinished}
                    title="Change the codes of this finished protocol (logged as a change after finishing)"
                  >
                    Edit codes
                  </button>
                )}
                <button className="primary" onClick={desk.finishOrNext} title="Finish the item (Enter)">
                  {view.finished_at && !sameProtocol(desk.editing, view) ? 'Next protocol' : 'Finish item'} <kbd>Enter</kbd>
                </button>
              </span>
            </div>
            <blockquote className="item-text compact">{textOf.get(view.item_id) ?? view.item_text}</blockquote>
            <p className="muted unit-note">
              {overview.unit === 'sentence'
                ? 'A unit is one sentence of an utterance (u3.s1: sentence 1 of utterance 3, counted from 0): you code each unit with the codes that apply.'
                : 'A unit is one utterance: a stretch of speech between pauses, as it was recorded (u0 is the first, counted from 0). You code each unit with the codes that apply.'}
            </p>
            {overview.blind && view.others === null && (
              <p className="muted blind-note">Blind coding: the other coders&rsquo; codes show once you finish this item.</p>
            )}
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
                    onClick={() => desk.selectUnit(i)}
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
                          <span
                            key={c.code}
                            className="code-chip mine"
                            title={((d) => (d ? textInLanguage(d.definition, [guidelineLanguage()]) : 'no longer in the codebook'))(
                              codes.find((d) => d.name === c.code),
                            )}
                          >
                            {c.code}
                            {c.memo && (
                              <span className="memo-mark" title={`memo: ${c.memo}`}>
                                {' '}
                                ✎
                              </span>
                            )}
                            <button
                              className="link"
                              aria-label={`remove ${c.code} from ${u.unit}`}
                              onClick={(e) => {
                                e.stopPropagation();
                                desk.toggle(c.code, 'click', u.unit);
                              }}
                            >
                              ×
                            </button>
                          </span>
                        ))}
                        {view.others?.map((o) =>
                          (o.codes[u.unit] ?? []).map((code) => (
                            <span
                              key={`${o.coder}:${code}`}
                              className="code-chip other"
                              title={`${o.coder}${o.finished_at ? '' : ' (not finished)'}`}
                            >
                              {o.coder}: {code}
                            </span>
                          )),
                        )}
                        {selection?.unit === u.unit && (
                          <button
                            className="propose"
                            onClick={(e) => {
                              e.stopPropagation();
                              propose();
                            }}
                          >
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
                  {view.stale.length} of your codings belong to an earlier transcript of this item (transcribed again since); they stay with
                  the words you coded
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
          <p className="empty">
            {overview.protocols.some((p) => p.final)
              ? 'Choose a protocol to code.'
              : 'No protocol is final yet: an item can be coded once its annotator completed it.'}
          </p>
        )}
      </section>

      <CodebookPanel
        run={run}
        overview={overview}
        onOverview={desk.setOverview}
        onApply={(code) => desk.toggle(code, 'click')}
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
                  {textInLanguage(c.definition, [guidelineLanguage()]) || <span className="muted">no definition yet</span>}
                  {c.example && <div className="muted">Example: {textInLanguage(c.example, [guidelineLanguage()])}</div>}
                  {c.counter_example && <div className="muted">Not this: {textInLanguage(c.counter_example, [guidelineLanguage()])}</div>}
                </dd>
              </div>
            ))}
          </dl>
          <ShortcutTable shortcuts={[...codingShortcutList(codes), guidelinesShortcut]} />
        </Modal>
      )}
      <GuidelinesPanel
        names={codes}
        kind="codes"
        projectLanguage={project.thinkaloud.languages[0] ?? 'en'}
        emphasis={(unit && view?.mine[unit.unit]?.map((c) => c.code)) ?? []}
      />
      {memoUnit !== null && view && (
        <MemoDialog
          unit={memoUnit}
          codes={view.mine[memoUnit] ?? []}
          onClose={() => setMemoUnit(null)}
          onSave={(code, text) => desk.writeMemo(memoUnit, code, text)}
        />
      )}
    </div>
  );
}

/** A memo per code on the unit: saved one by one (an empty memo clears it). */
function MemoDialog({
  unit,
  codes,
  onClose,
  onSave,
}: {
  unit: string;
  codes: ReadonlyArray<{ code: string; memo: string | null }>;
  onClose: () => void;
  onSave: (code: string, text: string) => Promise<void>;
}) {
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
