import { stat } from 'node:fs/promises';
import type { RoomEventData } from '../../common/rooms/roomEvents';
import type { RoomState } from '../../common/rooms/roomFold';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';
import { SessionService } from '../session/sessionService';
import { sessionPaths } from '../session/sessionPaths';

/** The annotator a member's room votes are written as: never the member's own session, so nothing is overwritten. */
export function roomAnnotatorName(memberName: string, code: string): string {
  return `${memberName} (room ${code})`;
}

/**
 * Final room votes as labels (source "room") of a NEW annotator session per member. A session of that name that
 * exists already is refused before anything is written; items no longer in the project are left out and reported.
 */
export async function writeBackRoomVotes(project: OpenProject, state: RoomState): Promise<{ sessions: RoomEventData['written_back']['sessions']; warnings: string[] }> {
  const items = await loadProjectItems(project);
  const known = new Set(items.map((i) => i.id));
  const schemaLabels = new Set(project.config.schema.labels.map((l) => l.name));
  const warnings: string[] = [];
  const plans = [...state.members.values()]
    .filter((m) => !m.removed)
    .map((m) => ({
      member: m,
      annotator: roomAnnotatorName(m.name, state.code),
      votes: [...state.items.entries()].flatMap(([itemId, item]) => {
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
    }))
    .filter((p) => p.votes.length > 0);
  for (const plan of plans) {
    const exists = await stat(sessionPaths(project.dir, plan.annotator).dir).then(() => true, () => false);
    if (exists) throw new Error(`a session "${plan.annotator}" exists already: room votes are written back once, never over existing labels`);
  }
  const sessions: RoomEventData['written_back']['sessions'] = [];
  for (const plan of plans) {
    const session = await SessionService.open({ project, annotator: plan.annotator, items });
    try {
      for (const [itemId, label] of plan.votes) {
        await session.openItem(itemId);
        await session.commitLabel(label, 'room');
      }
      await session.addNote(`final votes of ${plan.member.name} in norming room ${state.code}`);
    } finally {
      await session.close();
    }
    sessions.push({ member_id: plan.member.member_id, annotator: plan.annotator, labels: plan.votes.length });
  }
  return { sessions, warnings };
}
