import { findCode, type CodeDef } from '../../common/codebook/codebook';
import type { SerialQueue } from '../../common/concurrency/serialQueue';
import type { CodeAgreementReport, CodingApi } from '../../common/coding/codingApi';
import type { Item } from '../../common/items/item';
import { Refusal } from '../../common/refusal/refusal';
import type { CodeProposal, CoderFolds } from '../../common/coding/codingFold';
import {
  decideCodeAct,
  decideCodingMemo,
  decideFinishCoding,
  decideProposeCode,
  decideRevealCodings,
  decideUndoCoding,
  othersCodesVisible,
  type ProtocolFacts,
} from '../../common/coding/codingRules';
import { sameName } from '../../common/names/personNames';
import { codingItemView, type CodingItemView, type CodingOverview } from '../../common/coding/codingViews';
import type { SessionEntry } from '../../common/session/sessionFold';
import {
  addCodeToCodebook,
  codeGuidelinesOf,
  codingContext,
  itemTextOf,
  loadCodebook,
  projectCodeAgreement,
  protocolFacts,
} from './projectCoding';
import { CodingSessionReader } from './codingSessionReader';
import type { SessionService } from '../session/sessionService';
import type { OpenProject } from '../project/projectFolder';
import type { SessionSlot } from '../session/sessionSlot';
import { say } from '../../common/refusal/refusalMessage';

/** What the coding handlers use of the app: the call queue, the project and its items (both replaced when another opens), the session. */
export interface CodingHost {
  readonly calls: SerialQueue;
  readonly project: OpenProject;
  readonly items: Item[];
  readonly session: Pick<SessionSlot, 'require'>;
}

/**
 * The coding domain of the app API: the open session's annotator codes protocols (their own or others', as aloud.yaml
 * `coding` allows) with the project's codebook. Every act is decided by the coding rules on the coder's own log and
 * answered with the protocol's coding view, which holds the other coders' codes only when blind coding allows it:
 * the host leaves them out, the page never has them.
 */
export function codingHandlers(app: CodingHost): CodingApi {
  const reader = new CodingSessionReader(app);

  const protocolOf = async (open: SessionService, annotator: string, itemId: string): Promise<ProtocolFacts & { item_text: string }> => {
    const states = await reader.load(annotator, open);
    const state = states.items.find((i) => i.item_id === itemId);
    if (!state || state.segments.length === 0)
      throw new Refusal('not_found', say('refusal.coding.hasNoTranscriptOfTo', { annotator: states.annotator, itemId }));
    return { ...protocolFacts(app.project, states.annotator, state), item_text: itemTextOf(app.items, itemId) };
  };

  const viewOf = async (
    open: SessionService,
    annotator: string,
    itemId: string,
    changedUnit: string | null = null,
  ): Promise<CodingItemView> => {
    const protocol = await protocolOf(open, annotator, itemId);
    const coder = open.store.annotator;
    const own = open.store.coding.protocolCoding(protocol.annotator, itemId);
    const context = { coder, config: app.project.config.coding, revealed: open.store.coding.revealedToLead() !== null };
    // blind: the others' logs are not even read for a coder who has not finished the item
    const others = othersCodesVisible(context.config, own, context.revealed)
      ? (await reader.all(open))
          .filter((s) => s.annotator !== coder)
          .map((s) => ({
            coder: s.annotator,
            coding: s.codings
              ? (s.codings.protocols.find((p) => p.annotator === protocol.annotator && p.item_id === itemId) ?? null)
              : null,
          }))
      : [];
    return codingItemView(context, protocol, own, others, changedUnit);
  };

  /** Decides on the coder's log with the protocol and the codebook as they are now, appends, answers with the view. */
  const act = (
    annotator: string,
    itemId: string,
    decide: (fold: CoderFolds, context: ReturnType<typeof codingContext>, protocol: ProtocolFacts) => readonly SessionEntry[],
    changedUnit: string | null,
  ) =>
    app.calls.run(async () => {
      const open = app.session.require();
      const protocol = await protocolOf(open, annotator, itemId);
      const context = codingContext(app.project, open.store.annotator, await loadCodebook(app.project));
      open.store.codeGuidelines = codeGuidelinesOf(app.project, context);
      await open.recordCoding((fold) => decide(fold, context, protocol));
      return viewOf(open, protocol.annotator, itemId, changedUnit);
    });

  /** agreement on codes as the open session's person may see it: in blind coding, units only of items she finished, or all once she chose the lead's view */
  const agreementAsSeen = async (): Promise<CodeAgreementReport> => {
    const open = app.session.require();
    const blind = app.project.config.coding.blind;
    const coding = open.store.coding;
    const { warnings: _warnings, ...report } = await projectCodeAgreement(app.project, reader.source(open), {
      detailsVisible: (annotator, itemId) =>
        !blind || coding.revealedToLead() !== null || coding.protocolCoding(annotator, itemId)?.finished != null,
    });
    return report;
  };

  /** the codebook, the coding settings, every protocol with the coder's progress, the proposals not in the codebook yet */
  const overview = async (): Promise<CodingOverview> => {
    const open = app.session.require();
    const coder = open.store.annotator;
    const loaded = await loadCodebook(app.project);
    const sessions = await reader.all(open);
    const { coding } = app.project.config;
    const protocols = sessions
      .filter((s) => coding.own_protocols || !sameName(s.annotator, coder))
      .flatMap((s) =>
        s.items
          .filter((state) => state.segments.length > 0)
          .map((state) => {
            const facts = protocolFacts(app.project, s.annotator, state);
            const own = open.store.coding.protocolCoding(s.annotator, state.item_id);
            const words = new Map(facts.units.map((u) => [u.unit, u.text]));
            return {
              annotator: s.annotator,
              item_id: state.item_id,
              units: facts.units.length,
              final: facts.final,
              coded_units: own?.units.filter((u) => u.codes.length > 0 && words.get(u.unit) === u.unit_text).length ?? 0,
              finished_at: own?.finished?.at ?? null,
            };
          }),
      );
    const order = new Map(app.items.map((item, i) => [item.id, i]));
    protocols.sort(
      (a, b) =>
        (order.get(a.item_id) ?? Infinity) - (order.get(b.item_id) ?? Infinity) ||
        (a.annotator < b.annotator ? -1 : a.annotator > b.annotator ? 1 : 0),
    );
    const proposals: CodeProposal[] = [];
    const named = new Set<string>();
    // blind: another coder's proposal names words they found in a unit, so it waits until this coder finished that item
    const seen = (p: CodeProposal): boolean =>
      p.coder === coder ||
      othersCodesVisible(coding, open.store.coding.protocolCoding(p.annotator, p.item_id), open.store.coding.revealedToLead() !== null);
    for (const p of sessions.flatMap((s) => s.codings?.proposals ?? []).sort((a, b) => (a.at < b.at ? -1 : 1))) {
      const key = p.name.normalize('NFKC').toLowerCase();
      if (!seen(p) || named.has(key) || ('codebook' in loaded && findCode(loaded.codebook, p.name))) continue;
      named.add(key);
      proposals.push(p);
    }
    return {
      coder,
      codebook:
        'codebook' in loaded
          ? { codes: loaded.codebook.codes, exclusive: loaded.codebook.exclusive === true, version: loaded.version }
          : null,
      codebook_problem: 'problem' in loaded ? loaded.problem : null,
      codebook_problem_said: 'problem' in loaded && typeof loaded.problemSaid === 'object' ? loaded.problemSaid : null,
      unit: coding.unit,
      blind: coding.blind,
      own_protocols: coding.own_protocols,
      protocols,
      proposals,
    };
  };

  return {
    codingOverview: () => app.calls.run(overview),
    codingItem: (annotator, itemId) => app.calls.run(async () => viewOf(app.session.require(), annotator, itemId)),
    codeUnit: (annotator, itemId, unit, code, action, source) =>
      act(
        annotator,
        itemId,
        (fold, context, protocol) => decideCodeAct(fold.coding, context, protocol, { unit, code, action, source }),
        unit,
      ),
    writeCodingMemo: (annotator, itemId, unit, code, text) =>
      act(annotator, itemId, (fold, context, protocol) => decideCodingMemo(fold.coding, context, protocol, { unit, code, text }), unit),
    proposeCode: (annotator, itemId, unit, quote) =>
      act(annotator, itemId, (_fold, context, protocol) => decideProposeCode(context, protocol, { unit, quote }), unit),
    finishCoding: (annotator, itemId) =>
      act(annotator, itemId, (fold, context, protocol) => decideFinishCoding(fold.coding, context, protocol), null),
    undoCoding: () =>
      app.calls.run(async () => {
        const open = app.session.require();
        const context = codingContext(app.project, open.store.annotator, await loadCodebook(app.project));
        open.store.codeGuidelines = codeGuidelinesOf(app.project, context);
        let undone: { annotator: string; item_id: string; unit: string } | null = null;
        await open.recordCoding((fold) => {
          const decided = decideUndoCoding(fold.coding, context);
          undone = decided.undone.data;
          return decided.entries;
        });
        const at = undone as { annotator: string; item_id: string; unit: string } | null;
        if (!at) throw new Refusal('conflict', say('refusal.coding.nothingToUndo'));
        return viewOf(open, at.annotator, at.item_id, at.unit);
      }),
    addCode: (code: CodeDef) =>
      app.calls.run(async () => {
        await addCodeToCodebook(app.project, code);
        return overview();
      }),
    codeAgreement: () => app.calls.run(() => agreementAsSeen()),
    revealCodingsAsLead: () =>
      app.calls.run(async () => {
        await app.session.require().recordCoding((folds) => decideRevealCodings(folds.coding));
        return agreementAsSeen();
      }),
  };
}
