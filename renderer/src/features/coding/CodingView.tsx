import { useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CodeDef } from '../../../../core/common/codebook/codebook';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import type { RunCall } from '../../shared/runCall';
import { saidText } from '../../shared/refusalText';
import { useShortcuts } from '../../shared/useShortcuts';
import { Modal, ShortcutTable } from '../../shared/Dialogs';
import { useCodeChangeAnnouncement } from './useCodeChangeAnnouncement';
import { CodebookPanel } from './CodebookPanel';
import { codingShortcut, codingShortcutList } from './codingKeys';
import { sameProtocol, useCodingDesk } from './useCodingDesk';
import './coding.css';
import { textInLanguage } from '../../../../core/common/guidelines/guidelines';
import { guidelineLanguage } from '../guidelines/guidelineLanguage';
import { GuidelinesPanel, useGuidelinesShortcut } from '../guidelines/GuidelinesPanel';
import { useFormatClock } from '../../shared/i18n/useDuration';

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
  const intl = useIntl();
  const formatClock = useFormatClock();
  const desk = useCodingDesk(run);
  const { overview, view, at, unitIndex, notice, setNotice } = desk;
  const [shownCode, setShownCode] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const [memoUnit, setMemoUnit] = useState<string | null>(null);
  const [selection, setSelection] = useState<{ unit: string; quote: string } | null>(null);
  const unitRefs = useRef(new Map<string, HTMLLIElement>());
  const codeChange = useCodeChangeAnnouncement(view);

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
      setNotice({ id: 'coding.notice.proposeHow' });
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

  if (!overview)
    return (
      <p className="muted">
        <FormattedMessage id="coding.loading" />
      </p>
    );
  const definition = codes.find((c) => c.name === shownCode) ?? null;
  const textOf = new Map(project.items.map((i) => [i.id, i.text]));

  return (
    <div className="coding-screen">
      <aside className="coding-protocols" aria-label={intl.formatMessage({ id: 'coding.protocols.label' })}>
        <div className="coding-side-head">
          <button className="link" onClick={onLeave}>
            <FormattedMessage id="coding.back" />
          </button>
          <span className="muted">
            <FormattedMessage
              id="coding.protocols.finished"
              values={{
                finished: overview.protocols.filter((p) => p.finished_at).length,
                final: overview.protocols.filter((p) => p.final).length,
              }}
            />
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
                      ? intl.formatMessage(
                          { id: 'coding.protocol.title' },
                          {
                            annotator: p.annotator,
                            item: p.item_id,
                            coded: p.coded_units,
                            units: p.units,
                            finished: p.finished_at ? 'yes' : 'no',
                          },
                        )
                      : intl.formatMessage({ id: 'coding.protocol.notFinalTitle' }, { annotator: p.annotator, item: p.item_id })
                  }
                  onClick={() => desk.openProtocol(p)}
                >
                  <span className="dot" aria-hidden="true" />
                  <span className="protocol-name">
                    {p.item_id} <span className="muted">· {p.annotator}</span>
                  </span>
                  <span className="protocol-count">
                    {p.final ? `${p.coded_units}/${p.units}` : intl.formatMessage({ id: 'coding.protocol.notFinal' })}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
        {overview.protocols.length === 0 && (
          <p className="empty">
            <FormattedMessage id={overview.own_protocols ? 'coding.protocols.noneOwn' : 'coding.protocols.noneOthers'} />
          </p>
        )}
      </aside>

      <section className="coding-main" aria-label={intl.formatMessage({ id: 'coding.units.label' })}>
        {!overview.codebook && (
          <p className="refusal" role="alert">
            {saidText(intl, overview.codebook_problem_said, overview.codebook_problem ?? '')}
          </p>
        )}
        {/* a code given or taken back (by key, click or undo), said politely in the interface's language */}
        <p className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-code-change>
          {codeChange && intl.formatMessage({ id: codeChange.id }, { code: codeChange.code, unit: codeChange.unit })}
        </p>
        {notice && (
          <p className="coding-notice" role="status">
            {intl.formatMessage({ id: notice.id }, notice.values)}
            <button className="link" onClick={() => setNotice(null)} aria-label={intl.formatMessage({ id: 'coding.notice.dismiss' })}>
              ✕
            </button>
          </p>
        )}
        {view ? (
          <>
            <div className="item-head">
              <span className="counter">
                <FormattedMessage
                  id="coding.head"
                  values={{
                    item: view.item_id,
                    annotator: view.annotator,
                    unit: unit?.unit ?? '–',
                    position: units.length === 0 ? 0 : Math.min(unitIndex, units.length - 1) + 1,
                    count: units.length,
                    state: view.finished_at ? (sameProtocol(desk.editing, view) ? 'editing' : 'finished') : 'open',
                    code: (chunks) => <code>{chunks}</code>,
                  }}
                />
              </span>
              <span className="nav">
                <button onClick={desk.undo} title={intl.formatMessage({ id: 'coding.undo.title' })}>
                  <FormattedMessage id="coding.undo" />
                </button>
                <button onClick={() => setHelp(true)} title={intl.formatMessage({ id: 'coding.definitions.title' })}>
                  <FormattedMessage id="coding.definitions" />
                </button>
                {view.finished_at && !sameProtocol(desk.editing, view) && (
                  <button onClick={desk.editFinished} title={intl.formatMessage({ id: 'coding.edit.title' })}>
                    <FormattedMessage id="coding.edit" />
                  </button>
                )}
                <button className="primary" onClick={desk.finishOrNext} title={intl.formatMessage({ id: 'coding.finish.title' })}>
                  <FormattedMessage id={view.finished_at && !sameProtocol(desk.editing, view) ? 'coding.next' : 'coding.finish'} />{' '}
                  {/* i18n-ignore: the key's name, as printed on keyboards */}
                  <kbd>Enter</kbd>
                </button>
              </span>
            </div>
            <blockquote className="item-text compact">{textOf.get(view.item_id) ?? view.item_text}</blockquote>
            <p className="muted unit-note">
              <FormattedMessage id={overview.unit === 'sentence' ? 'coding.unitNote.sentence' : 'coding.unitNote.utterance'} />
            </p>
            {overview.blind && view.others === null && (
              <p className="muted blind-note">
                <FormattedMessage id="coding.blindNote" />
              </p>
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
                            title={((d) =>
                              d ? textInLanguage(d.definition, [guidelineLanguage()]) : intl.formatMessage({ id: 'coding.code.gone' }))(
                              codes.find((d) => d.name === c.code),
                            )}
                          >
                            {c.code}
                            {c.memo && (
                              <span className="memo-mark" title={intl.formatMessage({ id: 'coding.code.memo' }, { memo: c.memo })}>
                                {' '}
                                ✎
                              </span>
                            )}
                            <button
                              className="link"
                              aria-label={intl.formatMessage({ id: 'coding.code.remove' }, { code: c.code, unit: u.unit })}
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
                              title={intl.formatMessage(
                                { id: 'coding.code.other' },
                                { coder: o.coder, finished: o.finished_at ? 'yes' : 'no' },
                              )}
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
                            <FormattedMessage id="coding.propose" values={{ quote: selection.quote }} />{' '}
                            <kbd>n{/* i18n-ignore: the key's name */}</kbd>
                          </button>
                        )}
                      </div>
                    </div>
                  </li>
                );
              })}
            </ol>
            {units.length === 0 && (
              <p className="empty">
                <FormattedMessage id="coding.units.none" />
              </p>
            )}
            {view.stale.length > 0 && (
              <details className="stale">
                <summary>
                  <FormattedMessage id="coding.stale" values={{ count: view.stale.length }} />
                </summary>
                <ul>
                  {view.stale.map((s) => (
                    <li key={`${s.unit}:${s.unit_text}`}>
                      <code>{s.unit}</code> {intl.formatMessage({ id: 'coding.quoted' }, { text: s.unit_text })}: {s.codes.join(', ')}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </>
        ) : (
          <p className="empty">
            <FormattedMessage id={overview.protocols.some((p) => p.final) ? 'coding.choose' : 'coding.noneFinal'} />
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
        <Modal title={intl.formatMessage({ id: 'coding.help.title' })} onClose={() => setHelp(false)}>
          <dl className="definitions">
            {codes.map((c) => (
              <div key={c.name}>
                <dt>
                  {c.key && <kbd>{c.key}</kbd>} {c.name}
                  {c.parent && (
                    <span className="muted">
                      {' '}
                      <FormattedMessage id="coding.definition.under" values={{ parent: c.parent }} />
                    </span>
                  )}
                </dt>
                <dd>
                  {textInLanguage(c.definition, [guidelineLanguage()]) || (
                    <span className="muted">
                      <FormattedMessage id="coding.definition.none" />
                    </span>
                  )}
                  {c.example && (
                    <div className="muted">
                      <FormattedMessage
                        id="coding.definition.example"
                        values={{ example: textInLanguage(c.example, [guidelineLanguage()]) }}
                      />
                    </div>
                  )}
                  {c.counter_example && (
                    <div className="muted">
                      <FormattedMessage
                        id="coding.definition.counterExample"
                        values={{ example: textInLanguage(c.counter_example, [guidelineLanguage()]) }}
                      />
                    </div>
                  )}
                </dd>
              </div>
            ))}
          </dl>
          <ShortcutTable shortcuts={[...codingShortcutList(codes, intl), guidelinesShortcut]} />
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
  const intl = useIntl();
  const [texts, setTexts] = useState(() => Object.fromEntries(codes.map((c) => [c.code, c.memo ?? ''])));
  return (
    <Modal title={intl.formatMessage({ id: 'coding.memo.title' }, { unit })} onClose={onClose}>
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
          <FormattedMessage id="coding.memo.save" />
        </button>
      </form>
    </Modal>
  );
}
