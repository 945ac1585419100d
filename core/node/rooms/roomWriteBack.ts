import { stat } from 'node:fs/promises';
import type { RoomEventData } from '../../common/rooms/roomEvents';
import { type RoomMember, RoomRuleError, type RoomState } from '../../common/rooms/roomFold';
import { writeBackAnnotatorName } from '../../common/rooms/roomNames';
import type { SessionEvent } from '../../common/session/sessionEvents';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';
import { readSessionLog } from '../session/sessionLogFile';
import { SessionService } from '../session/sessionService';
import { sessionPaths } from '../session/sessionPaths';
import { say } from '../../common/refusal/refusalMessage';

interface WriteBackPlan {
  member: RoomMember;
  annotator: string;
  /** item id → the member's final vote, in the room's item order */
  votes: Map<string, string>;
  /** item id → the member's blind vote (before the reveal), when it differs from the final one */
  blind: Map<string, string>;
  note: string;
}

/**
 * What an earlier run of this write-back left in the member's session: the items already labelled. A session that
 * holds anything else — another label, another source, acts a write-back never logs — is somebody's own, and the
 * write-back refuses before anything is written.
 */
async function earlierWriteBack(
  project: OpenProject,
  plan: WriteBackPlan,
): Promise<{ labelled: Set<string>; blindLogged: Set<string>; noted: boolean }> {
  const paths = sessionPaths(project.dir, plan.annotator);
  const labelled = new Set<string>();
  const blindLogged = new Set<string>();
  let noted = false;
  if (
    !(await stat(paths.dir).then(
      () => true,
      () => false,
    ))
  )
    return { labelled, blindLogged, noted };
  // a folder with only a lock (killed while the session was being created) reads as an empty log
  const { events } = await readSessionLog(paths.events);
  const foreign = (event: SessionEvent): boolean => {
    switch (event.type) {
      case 'session_started':
        return event.data.annotator !== plan.annotator;
      case 'session_resumed':
      case 'log_repaired':
      case 'item_opened':
        return false;
      case 'label_committed': {
        if (event.data.source !== 'room') return true;
        const id = event.data.item_id;
        if (plan.votes.get(id) === event.data.label) labelled.add(id);
        else if (plan.blind.get(id) === event.data.label && !labelled.has(id)) blindLogged.add(id);
        else return true;
        return false;
      }
      case 'label_changed':
        // the change from a blind vote to the final one, as the session logs it
        return event.data.source !== 'room';
      case 'note':
        noted ||= event.data.text === plan.note;
        return event.data.text !== plan.note;
      default:
        return true;
    }
  };
  const other = events.find(foreign);
  if (other) {
    throw new RoomRuleError(
      409,
      say('refusal.rooms.aSessionExistsAlreadyAnd', { annotator: plan.annotator, events: paths.events, seq: other.seq, type: other.type }),
    );
  }
  return { labelled, blindLogged, noted };
}

/**
 * Room votes as labels (source "room") of a NEW session per member, of kind "room" (kept apart from the annotators: out
 * of project agreement unless asked for, not offered to "Continue as"): the blind vote first when the member changed
 * it after the reveal, then the final vote, so the session's blind and final labels are the room's. Resumable: a run cut short (the
 * app or the process killed) is finished by the next one, which recognises the sessions it started by the room's
 * code and the member (their labels are this member's votes, from this room, and nothing else) and adds only what is
 * missing. A session of that name holding anything else is refused before anything is written. Items no longer in
 * the project are left out and reported.
 */
export async function writeBackRoomVotes(
  project: OpenProject,
  state: RoomState,
): Promise<{ sessions: RoomEventData['written_back']['sessions']; warnings: string[] }> {
  const items = await loadProjectItems(project);
  const known = new Set(items.map((i) => i.id));
  const schemaLabels = new Set(project.config.schema.labels.map((l) => l.name));
  const warnings: string[] = [];
  const plans: WriteBackPlan[] = [...state.members.values()]
    .filter((m) => !m.removed)
    .map((m) => ({
      member: m,
      annotator: writeBackAnnotatorName(m, state.code),
      note: `final votes of ${m.name} in norming room ${state.code}`,
      blind: new Map(
        [...state.items.entries()].flatMap(([itemId, item]) => {
          const blind = item.blind.get(m.member_id);
          return blind !== undefined && blind !== item.current.get(m.member_id) && known.has(itemId) && schemaLabels.has(blind)
            ? [[itemId, blind] as const]
            : [];
        }),
      ),
      votes: new Map(
        [...state.items.entries()].flatMap(([itemId, item]) => {
          const label = item.current.get(m.member_id);
          if (label === undefined) return [];
          if (!known.has(itemId)) {
            warnings.push(`item "${itemId}" is not in the project's items any more: ${m.name}'s vote on it is not written back`);
            return [];
          }
          if (!schemaLabels.has(label)) {
            warnings.push(`"${label}" is not a label of the project any more: ${m.name}'s vote on "${itemId}" is not written back`);
            return [];
          }
          return [[itemId, label] as const];
        }),
      ),
    }))
    .filter((p) => p.votes.size > 0);
  const earlier = [];
  for (const plan of plans) earlier.push(await earlierWriteBack(project, plan));
  const sessions: RoomEventData['written_back']['sessions'] = [];
  for (const [i, plan] of plans.entries()) {
    const { labelled, blindLogged, noted } = earlier[i]!;
    if (labelled.size < plan.votes.size || !noted) {
      const session = await SessionService.open({
        project,
        annotator: plan.annotator,
        items,
        kind: 'room',
        room: { code: state.code, member_id: plan.member.member_id },
      });
      try {
        for (const [itemId, label] of plan.votes) {
          if (labelled.has(itemId)) continue;
          await session.openItem(itemId);
          const blind = plan.blind.get(itemId);
          if (blind !== undefined && !blindLogged.has(itemId)) await session.commitLabel(blind, 'room');
          await session.commitLabel(label, 'room');
        }
        if (!noted) await session.addNote(plan.note);
      } finally {
        await session.close();
      }
    }
    sessions.push({ member_id: plan.member.member_id, annotator: plan.annotator, labels: plan.votes.size });
  }
  return { sessions, warnings };
}
