import { adjudicationItemView, adjudicationQueueView, type AdjudicationItemView } from '../../common/adjudication/adjudicationViews';
import type { AdjudicationApi, HuddleView } from '../../common/adjudication/adjudicationApi';
import type { AdjudicationState } from '../../common/adjudication/adjudicationFold';
import { foldRoom } from '../../common/rooms/roomFold';
import { readRoomLog, roomPaths } from '../rooms/roomLogFile';
import type { RoomController } from '../rooms/roomController';
import type { SerialQueue } from '../../common/concurrency/serialQueue';
import type { Item } from '../../common/items/item';
import { Refusal } from '../../common/refusal/refusal';
import type { ProtocolCoding } from '../../common/coding/codingFold';
import type { ItemSessionState } from '../../common/session/itemState';
import { assignedItems } from '../../common/adjudication/adjudicationFold';
import { readProjectAdjudication } from './adjudicationLog';
import { adjudicate, decideFromRoom, readAdjudication, sendToHuddle } from './projectAdjudication';
import { transcribeRationale, type TranscribedRationale } from './spokenRationale';
import { forkEngineLauncher, type EngineLauncher } from '../engine/engineProcessHost';
import { projectSessionSource } from '../session/projectSessions';
import type { OpenProject } from '../project/projectFolder';
import type { SessionSlot } from '../session/sessionSlot';
import { say } from '../../common/refusal/refusalMessage';

/** What the adjudication handlers use of the app: the call queue, the project and its items, the open session (the lead's). */
export interface AdjudicationHost {
  readonly calls: SerialQueue;
  readonly project: OpenProject;
  readonly items: Item[];
  readonly session: Pick<SessionSlot, 'require'>;
  /** the project's norming room (a new controller when another project opens): a huddle is served there */
  readonly rooms: Pick<RoomController, 'openHuddle' | 'status'>;
  /** the engine a spoken rationale is transcribed with: the app's model file or engine script */
  readonly options: {
    readonly modelFile?: string | null;
    readonly engineScript?: string | null;
    readonly modelsDir?: string;
    readonly engineLauncher?: EngineLauncher;
  };
}

/**
 * The adjudication domain of the app API: the lead (the open session's annotator) reads the queue and one item side by
 * side, and decides gold labels in her own adjudication log (core/node/adjudication). Annotators' sessions are only
 * read; with blind_names the names never leave the host.
 */
export function adjudicationHandlers(app: AdjudicationHost): AdjudicationApi {
  const itemView = async (itemId: string): Promise<AdjudicationItemView> => {
    const read = await readAdjudication(app.project);
    const standing = read.queue.items.get(itemId);
    if (!standing) throw new Refusal('not_found', say('refusal.adjudication.itemHasNoLabelsAnd', { itemId }));
    const states = new Map<string, ItemSessionState>();
    const labelled = new Set(standing.labels.map((l) => l.annotator));
    const codings: ProtocolCoding[] = [];
    // one pass over the sessions: the labelling annotators' states of the item, and every coder's codes on it
    for (const name of await projectSessionSource.annotators(app.project)) {
      const session = await projectSessionSource.load(app.project, name);
      const state = labelled.has(session.annotator) ? session.items.find((i) => i.item_id === itemId) : undefined;
      if (state) states.set(session.annotator, state);
      codings.push(...(session.codings?.protocols.filter((p) => p.item_id === itemId && labelled.has(p.annotator)) ?? []));
    }
    const text = app.items.find((i) => i.id === itemId)?.text ?? '';
    return adjudicationItemView(standing, read.state.decisions.get(itemId) ?? [], text, states, app.project.config.adjudication, codings);
  };
  // the spoken rationale under way: the item it is for, and once transcribed, what the decision will log
  let spoken: { lead: string; itemId: string; transcribed: TranscribedRationale | null } | null = null;
  const spokenFor = (lead: string, itemId: string): TranscribedRationale => {
    if (!spoken || spoken.lead !== lead || spoken.itemId !== itemId || !spoken.transcribed)
      throw new Refusal('conflict', say('refusal.adjudication.noSpokenRationaleRecordedFor', { itemId }));
    return spoken.transcribed;
  };
  const huddleView = async (state: AdjudicationState, lead: string, room: string): Promise<HuddleView> => {
    const sent = state.huddles.filter((h) => h.adjudicator === lead && h.room === room).at(-1)!;
    const served = app.rooms.status();
    const file = roomPaths(app.project.dir, room).events;
    const closed = foldRoom((await readRoomLog(file)).events, file).closed;
    const decisions = [...state.decisions.values()].flat().filter((d) => d.adjudicator === lead && d.room === room).length;
    return { room, item_ids: sent.item_ids, sent_at: sent.sent_at, url: served?.code === room ? served.url : null, closed, decisions };
  };
  return {
    sendToHuddle: (itemIds, lan) =>
      app.calls.run(async () => {
        const lead = app.session.require().store.annotator;
        const { room } = await sendToHuddle(app.project, lead, itemIds, projectSessionSource, async (_project, ids) => {
          return (await app.rooms.openHuddle(ids, lan)).code;
        });
        return huddleView((await readProjectAdjudication(app.project.dir)).state, lead, room);
      }),
    huddles: () =>
      app.calls.run(async () => {
        const lead = app.session.require().store.annotator;
        const { state } = await readProjectAdjudication(app.project.dir);
        const rooms = [...new Set(state.huddles.filter((h) => h.adjudicator === lead).map((h) => h.room))].reverse();
        return Promise.all(rooms.map((room) => huddleView(state, lead, room)));
      }),
    decideFromRoom: (code, confidence, causes, rationale) =>
      app.calls.run(async () => {
        const lead = app.session.require().store.annotator;
        if (app.rooms.status()?.code === code) throw new Refusal('conflict', say('refusal.adjudication.roomIsStillOpenClose', { code }));
        const result = await decideFromRoom(app.project, lead, code, { confidence, causes, rationale });
        return { room: result.room, outcomes: result.outcomes, decisions: result.events.length };
      }),
    beginSpokenRationale: (itemId) =>
      app.calls.run(async () => {
        const lead = app.session.require().store.annotator;
        spoken = { lead, itemId, transcribed: null };
        return null;
      }),
    spokenRationaleAudio: (wav) =>
      app.calls.run(async () => {
        const lead = app.session.require().store.annotator;
        if (!spoken || spoken.lead !== lead) throw new Refusal('conflict', say('refusal.adjudication.sayWhichItemTheRationale'));
        const { itemId } = spoken;
        const { modelFile, engineScript, modelsDir, engineLauncher } = app.options;
        const transcribed = await transcribeRationale(app.project, lead, itemId, wav, 'the recorded rationale', {
          modelFile: modelFile ?? null,
          engineScript: engineScript ?? null,
          launchEngine: engineLauncher ?? forkEngineLauncher,
          ...(modelsDir ? { modelsDir } : {}),
        });
        spoken = { lead, itemId, transcribed };
        return { item_id: itemId, text: transcribed.rationale.text, audio_ms: transcribed.rationale.audio_ms };
      }),
    decideGoldLabelSpoken: (itemId, label, confidence, causes, guidelineFlag) =>
      app.calls.run(async () => {
        const lead = app.session.require().store.annotator;
        const transcribed = spokenFor(lead, itemId);
        await adjudicate(
          app.project,
          lead,
          { kind: 'decide', item_id: itemId, label, confidence, causes, guideline_flag: guidelineFlag },
          projectSessionSource,
          transcribed,
        );
        spoken = null;
        return itemView(itemId);
      }),
    assignedItems: () =>
      app.calls.run(async () => {
        const annotator = app.session.require().store.annotator;
        return assignedItems((await readProjectAdjudication(app.project.dir)).state, annotator);
      }),
    adjudicationQueue: () =>
      app.calls.run(async () => {
        app.session.require();
        const read = await readAdjudication(app.project, projectSessionSource, { uncertainty: true });
        return adjudicationQueueView(read.queue, app.project.config.schema, app.project.config.adjudication);
      }),
    adjudicationItem: (itemId) => app.calls.run(() => itemView(itemId)),
    decideGoldLabel: (itemId, label, confidence, causes, rationale, guidelineFlag) =>
      app.calls.run(async () => {
        const lead = app.session.require().store.annotator;
        await adjudicate(app.project, lead, {
          kind: 'decide',
          item_id: itemId,
          label,
          confidence,
          causes,
          rationale,
          guideline_flag: guidelineFlag,
        });
        return itemView(itemId);
      }),
  };
}
