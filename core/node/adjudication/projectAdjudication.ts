import { countedLabels, DEFAULT_COUNTING, type CountableSession } from '../../common/agreement/countingRules';
import type { LabelRecord } from '../../common/agreement/agreementAnalysis';
import { majorityLabel } from '../../common/agreement/agreementAnalysis';
import type { AdjudicationEvent, AdjudicationPayload } from '../../common/adjudication/adjudicationEvents';
import type { AdjudicationState } from '../../common/adjudication/adjudicationFold';
import { adjudicationQueue, type AdjudicationQueue } from '../../common/adjudication/adjudicationQueue';
import {
  AdjudicationRefusal,
  decideAdjudication,
  type AdjudicationCommand,
  type AdjudicationContext,
} from '../../common/adjudication/adjudicationRules';
import { foldRoom } from '../../common/rooms/roomFold';
import { countableSession } from '../agreement/agreementSources';
import { projectSessionSource } from '../session/projectSessions';
import type { SessionSource } from '../session/sessionSource';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';
import { RoomHost } from '../rooms/roomHost';
import { readRoomLog, roomPaths } from '../rooms/roomLogFile';
import { AdjudicationLog, readProjectAdjudication } from './adjudicationLog';
import { keepRationaleAudio, type TranscribedRationale } from './spokenRationale';
import { say } from '../../common/refusal/refusalMessage';
import type { HuddleItemOutcome } from '../../common/adjudication/adjudicationApi';

/** What adjudication reads from a project: labels counted as agreement counts them, who has seen what, the logs' fold. */
export interface ProjectAdjudication {
  itemIds: string[];
  records: LabelRecord[];
  /** annotator → the items her session holds (opened, labelled or completed) */
  seen: Map<string, Set<string>>;
  state: AdjudicationState;
  queue: AdjudicationQueue;
  warnings: string[];
}

/**
 * Reads the annotators' sessions (read-only: no lock, nothing repaired or written) and every adjudicator's log, and
 * derives the queue. The labels are the agreement report's: completed items, each annotator's own acts, no room write-backs.
 */
export async function readAdjudication(
  project: OpenProject,
  sessions: SessionSource = projectSessionSource,
  /** fit the label model for each item's uncertainty (the queue's order): only what shows the queue needs it */
  options: { uncertainty?: boolean } = {},
): Promise<ProjectAdjudication> {
  const items = await loadProjectItems(project);
  const countable: CountableSession[] = [];
  const seen = new Map<string, Set<string>>();
  const warnings: string[] = [];
  for (const name of await sessions.annotators(project)) {
    const session = await sessions.load(project, name);
    countable.push(countableSession(session));
    seen.set(name, new Set(session.items.map((i) => i.item_id)));
    warnings.push(...session.warnings);
  }
  const { records } = countedLabels(countable, DEFAULT_COUNTING);
  const { state, warnings: logWarnings } = await readProjectAdjudication(project.dir);
  const itemIds = items.map((i) => i.id);
  return {
    itemIds,
    records,
    seen,
    state,
    queue: adjudicationQueue(
      itemIds,
      records,
      project.config.adjudication,
      state,
      options.uncertainty ? project.config.schema.labels.map((l) => l.name) : undefined,
    ),
    warnings: [...warnings, ...logWarnings],
  };
}

function contextOf(project: OpenProject, adjudicator: string, read: ProjectAdjudication): AdjudicationContext {
  return {
    adjudicator,
    labels: project.config.schema.labels.map((l) => l.name),
    config: project.config.adjudication,
    queue: read.queue,
    hasSeen: (annotator, itemId) => read.seen.get(annotator)?.has(itemId) ?? false,
  };
}

/**
 * One adjudication command: the adjudicator's log is locked first, then everything is read and the pure rules decide,
 * then only what they return is appended to her own log. The annotators' logs are only read. A decision with a spoken
 * rationale (transcribed already) keeps its WAV in her folder just before the event that names it.
 */
export async function adjudicate(
  project: OpenProject,
  adjudicator: string,
  command: AdjudicationCommand,
  sessions: SessionSource = projectSessionSource,
  spoken: TranscribedRationale | null = null,
): Promise<{ events: AdjudicationEvent[]; queue: AdjudicationQueue }> {
  const log = await AdjudicationLog.open(project.dir, adjudicator, project.config.name);
  try {
    const read = await readAdjudication(project, sessions);
    const asked = spoken && command.kind === 'decide' ? { ...command, spoken_rationale: spoken.rationale } : command;
    const payloads = decideAdjudication(read.state, contextOf(project, adjudicator, read), asked);
    if (spoken && payloads.length > 0) await keepRationaleAudio(project, spoken);
    const events = await log.append(payloads);
    return { events, queue: events.length > 0 ? (await readAdjudication(project, sessions)).queue : read.queue };
  } finally {
    await log.close();
  }
}

/** Opens the huddle room over the (checked, queued) items and gives its code; the app serves it, the CLI only creates it. */
export type HuddleRoomOpener = (project: OpenProject, itemIds: readonly string[]) => Promise<string>;

/** The CLI's huddle room: its log is created and closed again (`aloud room resume CODE` serves it). */
export const createHuddleRoom: HuddleRoomOpener = async (project, itemIds) => {
  const byId = new Map((await loadProjectItems(project)).map((i) => [i.id, i]));
  const schema = project.config.schema;
  const host = await RoomHost.create(project.dir, {
    project: project.config.name,
    mode: 'huddle',
    items: itemIds.map((id) => {
      const item = byId.get(id);
      if (!item) throw new AdjudicationRefusal('not_found', say('refusal.adjudication.itemIsNotInThe5', { id }));
      return { id, text: item.text, ...(item.context !== undefined ? { context: item.context } : {}) };
    }),
    labels: schema.labels.map((l) => l.name),
    level: schema.ordered ? 'ordinal' : 'nominal',
    max_members: 12,
  });
  const room = host.code;
  await host.close();
  return room;
};

/**
 * Sends queued items to a new huddle room: the rules check the items first, then the room is opened (`openRoom`), then
 * the sending is logged with the room's code in the adjudicator's own log.
 */
export async function sendToHuddle(
  project: OpenProject,
  adjudicator: string,
  itemIds: readonly string[],
  sessions: SessionSource = projectSessionSource,
  openRoom: HuddleRoomOpener = createHuddleRoom,
): Promise<{ room: string; events: AdjudicationEvent[] }> {
  const log = await AdjudicationLog.open(project.dir, adjudicator, project.config.name);
  try {
    const read = await readAdjudication(project, sessions);
    const context = contextOf(project, adjudicator, read);
    decideAdjudication(read.state, context, { kind: 'send_to_huddle', item_ids: itemIds, room: 'check' });
    const room = await openRoom(project, [...new Set(itemIds)]);
    const events = await log.append(decideAdjudication(read.state, context, { kind: 'send_to_huddle', item_ids: itemIds, room }));
    return { room, events };
  } finally {
    await log.close();
  }
}

/** One item of a huddle's outcome, as the app's API answers it. */
export type RoomOutcome = HuddleItemOutcome;

/**
 * A huddle's outcome as the lead's decisions: each revealed item of the room whose current votes have a strict
 * majority becomes her decision with the room named; the rest are listed with why not.
 */
export async function decideFromRoom(
  project: OpenProject,
  adjudicator: string,
  code: string,
  decision: { confidence: string; causes: readonly string[]; rationale?: string | null; guideline_flag?: string | null },
  sessions: SessionSource = projectSessionSource,
): Promise<{ room: string; outcomes: RoomOutcome[]; events: AdjudicationEvent[] }> {
  const file = roomPaths(project.dir, code).events;
  const { events: roomEvents } = await readRoomLog(file);
  const room = foldRoom(roomEvents, file);
  const log = await AdjudicationLog.open(project.dir, adjudicator, project.config.name);
  try {
    const outcomes: RoomOutcome[] = [];
    const payloads: AdjudicationPayload[] = [];
    // each item is its own decision, so all are decided against one reading and appended together
    const read = await readAdjudication(project, sessions);
    const context = contextOf(project, adjudicator, read);
    for (const [itemId, item] of room.items) {
      const label = item.revealed ? majorityLabel([...item.current.values()]) : null;
      if (label === null) {
        outcomes.push({
          item_id: itemId,
          label: null,
          decided: false,
          reason: item.revealed ? 'the room has no majority on it' : 'not revealed in the room',
          why: item.revealed ? 'no_majority' : 'not_revealed',
        });
        continue;
      }
      try {
        payloads.push(...decideAdjudication(read.state, context, { kind: 'decide', item_id: itemId, label, ...decision, room: room.code }));
        outcomes.push({ item_id: itemId, label, decided: true });
      } catch (e) {
        if (!(e instanceof AdjudicationRefusal) || e.code === 'bad_request') throw e; // a bad confidence or cause is the command's, for every item
        outcomes.push({ item_id: itemId, label, decided: false, reason: e.message, why: 'refused', ...(e.say ? { say: e.say } : {}) });
      }
    }
    const written = await log.append(payloads);
    return { room: room.code, outcomes, events: written };
  } finally {
    await log.close();
  }
}
