import { describe, expect, it } from 'vitest';
import { codebookVersion, parseCodebook } from '../../../../core/common/codebook/codebook';
import {
  CodingRefusal,
  decideCodeAct,
  decideCodingMemo,
  decideFinishCoding,
  decideProposeCode,
  decideRevealCodings,
  decideUndoCoding,
  othersCodesVisible,
  type ProtocolFacts,
} from '../../../../core/common/coding/codingRules';
import { CodingFold } from '../../../../core/common/coding/codingFold';
import { unitsOfItem } from '../../../../core/common/coding/codingUnits';
import { codingItemView } from '../../../../core/common/coding/codingViews';
import { ConfigError, formatConfigProblem } from '../../../../core/common/project/projectConfig';
import { checkEventData } from '../../../../core/common/session/sessionEventSchema';
import type { SessionEvent } from '../../../../core/common/session/sessionEvents';
import { codebookOf, contextFor, sessionLog, sha256, talkedThrough } from './codingSupport';

function anaProtocol(options: { complete?: boolean } = {}): ProtocolFacts {
  const ana = sessionLog('ana');
  talkedThrough(ana, 'demo-01', [' Hmm, I am not sure.', ' The guide says thanks count.', ' I label this polite.'], options);
  return {
    annotator: 'ana',
    item_id: 'demo-01',
    final: options.complete ?? true,
    units: unitsOfItem(ana.fold.itemState('demo-01')!, 'utterance'),
  };
}

const codesOn = (log: ReturnType<typeof sessionLog>, unit: string): string[] =>
  log.coding
    .protocolCoding('ana', 'demo-01')
    ?.units.filter((u) => u.unit === unit)
    .flatMap((u) => u.codes.map((c) => c.code)) ?? [];

describe('coding rules', () => {
  it('a coder applies several codes to a unit, by key and click, in their own log; toggling a code twice takes it off', () => {
    const protocol = anaProtocol();
    const bob = sessionLog('bob');
    const ctx = contextFor('bob');
    bob.append(decideCodeAct(bob.coding, ctx, protocol, { unit: 'u0', code: 'doubts', action: 'toggle', source: 'key' }));
    bob.append(decideCodeAct(bob.coding, ctx, protocol, { unit: 'u0', code: 'Rereads', action: 'apply', source: 'click' }));
    expect(codesOn(bob, 'u0')).toEqual(['Doubts', 'Rereads']);
    const applied = bob.events.filter((e) => e.type === 'code_applied');
    expect(applied.map((e) => e.data)).toEqual([
      expect.objectContaining({
        annotator: 'ana',
        item_id: 'demo-01',
        unit: 'u0',
        unit_text: 'Hmm, I am not sure.',
        code: 'Doubts',
        coder: 'bob',
        codebook_version: ctx.codebook!.version,
        source: 'key',
        after_finished: false,
        undo_of: null,
      }),
      expect.objectContaining({ code: 'Rereads', source: 'click' }),
    ]);
    for (const e of bob.events) expect(checkEventData(e.type, e.data)).toBeNull();
    // applying a code that stands logs nothing
    expect(decideCodeAct(bob.coding, ctx, protocol, { unit: 'u0', code: 'Doubts', action: 'apply', source: 'key' })).toEqual([]);
    bob.append(decideCodeAct(bob.coding, ctx, protocol, { unit: 'u0', code: 'Doubts', action: 'toggle', source: 'key' }));
    expect(codesOn(bob, 'u0')).toEqual(['Rereads']);
  });

  it('refuses unknown codes and units, non-final transcripts, own protocols when the project says so, and coding without a codebook', () => {
    const bob = sessionLog('bob');
    const refusal = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(CodingRefusal);
        return (e as Error).message;
      }
      throw new Error('not refused');
    };
    const protocol = anaProtocol();
    expect(
      refusal(() =>
        decideCodeAct(bob.coding, contextFor('bob'), protocol, { unit: 'u0', code: 'Sarcasm', action: 'apply', source: 'key' }),
      ),
    ).toMatch(/"Sarcasm" is not a code of the codebook/);
    expect(
      refusal(() => decideCodeAct(bob.coding, contextFor('bob'), protocol, { unit: 'u9', code: 'Doubts', action: 'apply', source: 'key' })),
    ).toMatch(/"u9" is not a unit .* \(units: u0, u1, u2\)/);
    expect(
      refusal(() =>
        decideCodeAct(bob.coding, contextFor('bob'), anaProtocol({ complete: false }), {
          unit: 'u0',
          code: 'Doubts',
          action: 'apply',
          source: 'key',
        }),
      ),
    ).toMatch(/not final yet/);
    expect(
      refusal(() =>
        decideCodeAct(bob.coding, contextFor('ana', { own_protocols: false }), protocol, {
          unit: 'u0',
          code: 'Doubts',
          action: 'apply',
          source: 'key',
        }),
      ),
    ).toMatch(/cannot code their own protocol/);
    expect(
      decideCodeAct(bob.coding, contextFor('ana'), protocol, { unit: 'u0', code: 'Doubts', action: 'apply', source: 'key' }),
    ).toHaveLength(1);
    expect(
      refusal(() =>
        decideCodeAct(bob.coding, { ...contextFor('bob'), codebook: null }, protocol, {
          unit: 'u0',
          code: 'Doubts',
          action: 'apply',
          source: 'key',
        }),
      ),
    ).toMatch(/no codebook\.yaml/);
    expect(refusal(() => decideCodingMemo(bob.coding, contextFor('bob'), protocol, { unit: 'u0', code: 'Doubts', text: 'why' }))).toMatch(
      /apply the code first/,
    );
  });

  it("an exclusive codebook replaces the unit's code, and undo puts the replaced code back", () => {
    const protocol = anaProtocol();
    const bob = sessionLog('bob');
    const ctx = contextFor(
      'bob',
      {},
      codebookOf(`exclusive: true\ncodes:\n  - {name: Doubts, definition: unsure}\n  - {name: Rereads, definition: reads again}\n`),
    );
    bob.append(decideCodeAct(bob.coding, ctx, protocol, { unit: 'u1', code: 'Doubts', action: 'apply', source: 'key' }));
    bob.append(decideCodeAct(bob.coding, ctx, protocol, { unit: 'u1', code: 'Rereads', action: 'apply', source: 'key' }));
    expect(codesOn(bob, 'u1')).toEqual(['Rereads']);
    expect(
      bob.events.slice(-2).map((e) => [e.type, (e.data as { code: string; source: string }).code, (e.data as { source: string }).source]),
    ).toEqual([
      ['code_removed', 'Doubts', 'replaced'],
      ['code_applied', 'Rereads', 'key'],
    ]);
    // composed beside the session fold, the coding fold sees every event: the session's own between any two change nothing
    const opened = (e: SessionEvent): SessionEvent =>
      ({ ...e, type: 'item_opened', data: { item_id: 'demo-02', text_sha256: null } }) as SessionEvent;
    const beside = new CodingFold();
    for (const event of bob.events.flatMap((e) => [e, opened(e)])) beside.apply(event);
    expect(beside.codings()).toEqual(bob.coding.codings());
    expect(beside.lastUndoable()).toEqual(bob.coding.lastUndoable());
    bob.append(decideUndoCoding(bob.coding, ctx).entries);
    expect(codesOn(bob, 'u1')).toEqual(['Doubts']);
    expect(
      bob.events.slice(-2).map((e) => [e.type, (e.data as { code: string }).code, (e.data as { source: string; undo_of: number }).undo_of]),
    ).toEqual([
      ['code_removed', 'Rereads', 4],
      ['code_applied', 'Doubts', 3],
    ]);
    // the next undo takes back the first application; then there is nothing left
    bob.append(decideUndoCoding(bob.coding, ctx).entries);
    expect(codesOn(bob, 'u1')).toEqual([]);
    expect(() => decideUndoCoding(bob.coding, ctx)).toThrow(/nothing to undo/);
  });

  it('memos belong to a coding; finishing lists the units; acts after finishing say so', () => {
    const protocol = anaProtocol();
    const bob = sessionLog('bob');
    const ctx = contextFor('bob');
    bob.append(decideCodeAct(bob.coding, ctx, protocol, { unit: 'u1', code: 'Cites the guideline', action: 'apply', source: 'click' }));
    bob.append(decideCodingMemo(bob.coding, ctx, protocol, { unit: 'u1', code: 'Cites the guideline', text: '  section 2  ' }));
    expect(bob.coding.protocolCoding('ana', 'demo-01')!.units[0]!.codes[0]).toMatchObject({ memo: 'section 2' });
    expect(decideCodingMemo(bob.coding, ctx, protocol, { unit: 'u1', code: 'Cites the guideline', text: 'section 2' })).toEqual([]);
    bob.append(decideFinishCoding(bob.coding, ctx, protocol));
    expect(bob.coding.protocolCoding('ana', 'demo-01')!.finished).toMatchObject({
      units: ['u0', 'u1', 'u2'],
      codebook_version: ctx.codebook!.version,
    });
    expect(decideFinishCoding(bob.coding, ctx, protocol)).toEqual([]);
    bob.append(decideCodeAct(bob.coding, ctx, protocol, { unit: 'u2', code: 'Doubts', action: 'apply', source: 'key' }));
    expect(bob.events.at(-1)!.data).toMatchObject({ after_finished: true });
  });

  it("the lead's choice to see every coder's codes is logged once; her codes after it, and items she finishes after it, are not blind", () => {
    const protocol = anaProtocol();
    const lea = sessionLog('lea');
    const ctx = contextFor('lea', { blind: true });
    expect(lea.coding.revealedToLead()).toBeNull();
    lea.append(decideRevealCodings(lea.coding));
    expect(lea.events.at(-1)).toMatchObject({ type: 'codings_revealed', data: { as: 'lead' } });
    expect(lea.coding.revealedToLead()).toBe(lea.events.at(-1)!.ts);
    expect(decideRevealCodings(lea.coding)).toEqual([]);
    expect(othersCodesVisible(ctx.config, null, true)).toBe(true);
    expect(othersCodesVisible(ctx.config, null, false)).toBe(false);
    lea.append(decideCodeAct(lea.coding, ctx, protocol, { unit: 'u1', code: 'Doubts', action: 'apply', source: 'key' }));
    expect(lea.events.at(-1)!.data).toMatchObject({ after_finished: true });
    lea.append(decideFinishCoding(lea.coding, ctx, protocol));
    expect(lea.coding.protocolCoding('ana', 'demo-01')!.first_finished_unblinded).toBe(true);
    // a coder who never chose it codes blind as before
    const bob = sessionLog('bob');
    bob.append(
      decideCodeAct(bob.coding, contextFor('bob', { blind: true }), protocol, {
        unit: 'u1',
        code: 'Doubts',
        action: 'apply',
        source: 'key',
      }),
    );
    expect(bob.events.at(-1)!.data).toMatchObject({ after_finished: false });
    bob.append(decideFinishCoding(bob.coding, contextFor('bob', { blind: true }), protocol));
    expect(bob.coding.protocolCoding('ana', 'demo-01')!.first_finished_unblinded).toBe(false);
  });

  it('in-vivo: the selected words of a unit become a proposed code, never a code of the codebook by themselves', () => {
    const protocol = anaProtocol();
    const bob = sessionLog('bob');
    bob.append(decideProposeCode(contextFor('bob'), protocol, { unit: 'u1', quote: ' thanks count. ' }));
    expect(bob.coding.codings().proposals).toEqual([
      expect.objectContaining({
        annotator: 'ana',
        item_id: 'demo-01',
        unit: 'u1',
        name: 'thanks count',
        quote: 'thanks count.',
        coder: 'bob',
      }),
    ]);
    expect(() => decideProposeCode(contextFor('bob'), protocol, { unit: 'u1', quote: 'not there' })).toThrow(/is not in unit u1/);
    expect(() => decideProposeCode(contextFor('bob'), protocol, { unit: 'u0', quote: 'Hmm' })).not.toThrow();
  });

  it('blind coding: the view of a coder who has not finished the item holds nothing of the other coders', () => {
    const protocol = anaProtocol();
    const bob = sessionLog('bob');
    const cat = sessionLog('cat');
    cat.append(decideCodeAct(cat.coding, contextFor('cat'), protocol, { unit: 'u0', code: 'Doubts', action: 'apply', source: 'key' }));
    cat.append(decideFinishCoding(cat.coding, contextFor('cat'), protocol));
    const others = [{ coder: 'cat', coding: cat.coding.protocolCoding('ana', 'demo-01') }];
    const view = () =>
      codingItemView(
        contextFor('bob', { blind: true }),
        { ...protocol, item_text: 'x' },
        bob.coding.protocolCoding('ana', 'demo-01'),
        others,
      );
    expect(view().others).toBeNull();
    expect(JSON.stringify(view())).not.toContain('cat');
    bob.append(decideFinishCoding(bob.coding, contextFor('bob', { blind: true }), protocol));
    expect(view().others).toEqual([{ coder: 'cat', finished_at: expect.any(String), codes: { u0: ['Doubts'] } }]);
    // not blind: seen at once
    expect(codingItemView(contextFor('dan'), { ...protocol, item_text: 'x' }, null, others).others).toHaveLength(1);
  });
});

describe('codebook.yaml for coding', () => {
  const problems = (text: string): string[] => {
    try {
      parseCodebook(text, 'codebook.yaml');
      return [];
    } catch (e) {
      if (e instanceof ConfigError) return e.problems.map(formatConfigProblem);
      throw e;
    }
  };

  it("exclusive is a boolean at the top; the coding view's own keys are refused, located", () => {
    expect(parseCodebook('exclusive: true\ncodes:\n  - {name: A, definition: a}\n').exclusive).toBe(true);
    expect(problems('exclusive: yes please\ncodes: []\n')).toEqual(['codebook.yaml:1: exclusive: must be boolean']);
    expect(problems('codes:\n  - {name: A, definition: a}\n  - {name: B, definition: b, key: m}\n')).toEqual([
      'codebook.yaml:3: codes[1].key: key "m" is the coding view\'s shortcut for the memo; choose another',
    ]);
  });

  it('the version changes whenever a definition changes, not with the order or the keys', () => {
    const v = (text: string) => codebookVersion(parseCodebook(text), sha256);
    const base = v('codes:\n  - {name: A, definition: one}\n  - {name: B, definition: two, key: b}\n');
    expect(base).toMatch(/^[0-9a-f]{12}$/);
    expect(v('codes:\n  - {name: B, definition: two, key: x}\n  - {name: A, definition: one}\n')).toBe(base);
    expect(v('codes:\n  - {name: A, definition: one!}\n  - {name: B, definition: two, key: b}\n')).not.toBe(base);
    expect(v('codes:\n  - {name: A, definition: one, example: e}\n  - {name: B, definition: two, key: b}\n')).not.toBe(base);
    expect(v('exclusive: true\ncodes:\n  - {name: A, definition: one}\n  - {name: B, definition: two, key: b}\n')).not.toBe(base);
  });
});
