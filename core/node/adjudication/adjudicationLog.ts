import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  ADJUDICATION_EVENT_VERSIONS,
  isAdjudicationEventType,
  upcastAdjudicationData,
  type AdjudicationEvent,
  type AdjudicationPayload,
} from '../../common/adjudication/adjudicationEvents';
import {
  AdjudicationLogError,
  emptyAdjudicationState,
  foldAdjudicationLog,
  type AdjudicationState,
} from '../../common/adjudication/adjudicationFold';
import { encodedFileName } from '../../common/names/nameRules';
import { annotatorNameProblem, normalizeAnnotatorName } from '../../common/names/personNames';
import { syncFolder } from '../fs/atomicFile';
import { AppendLog } from '../log/appendLog';
import { lockRoom, readRoomLog, roomLogReading } from '../rooms/roomLogFile';
import { decodeFileName, SessionNameError } from '../session/sessionPaths';
import { say } from '../../common/refusal/refusalMessage';

/** adjudication/<adjudicator>/ inside the project: the adjudicator's own log, never inside sessions/. */
export function adjudicationPaths(projectDir: string, adjudicator: string): { dir: string; events: string; lock: string } {
  const name = normalizeAnnotatorName(adjudicator);
  const problem = annotatorNameProblem(name);
  if (problem !== null) throw new SessionNameError(problem); // i18n-ignore: the problem is core/common/names' rule text (shared with the CLI's import checks), not yet a catalog message
  const dir = path.join(path.resolve(projectDir), 'adjudication', encodedFileName(name));
  return { dir, events: path.join(dir, 'events.jsonl'), lock: path.join(dir, '.lock') };
}

/** Checks one parsed line of an adjudication log: an event of a known type at a version this Aloud knows. */
export function checkAdjudicationEvent(value: unknown, file: string, line: number): AdjudicationEvent {
  const e = value as Partial<AdjudicationEvent> | null;
  if (
    typeof e !== 'object' ||
    e === null ||
    !isAdjudicationEventType(e.type) ||
    typeof e.seq !== 'number' ||
    typeof e.ts !== 'string' ||
    typeof e.data !== 'object' ||
    e.data === null
  ) {
    throw new AdjudicationLogError(say('refusal.adjudication.notAnAdjudicationEvent', { file, line }));
  }
  const upcast = upcastAdjudicationData(e.type, e.v as number, e.data);
  if ('problem' in upcast) throw new AdjudicationLogError(say('refusal.rooms.message', { file, line, problem: upcast.problem }));
  // read at the current version; the line on disk stays as it was written
  return { ...e, v: ADJUDICATION_EVENT_VERSIONS[e.type], data: upcast.data } as AdjudicationEvent;
}

/**
 * Every adjudicator's log of the project folded together, read-only (a torn last line, a crash mid-write, is left out
 * and reported). No log yet: the empty state.
 */
export async function readProjectAdjudication(projectDir: string): Promise<{ state: AdjudicationState; warnings: string[] }> {
  const root = path.join(path.resolve(projectDir), 'adjudication');
  const entries = await readdir(root, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  const state = emptyAdjudicationState();
  const warnings: string[] = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const file = path.join(root, entry.name, 'events.jsonl');
    if (
      !(await stat(file).then(
        (s) => s.isFile(),
        () => false,
      ))
    )
      continue;
    const { events, torn } = await readRoomLog(file, checkAdjudicationEvent);
    if (torn) warnings.push(`${file}:${torn.line}: torn last line (a crash while writing) left out`);
    const first = events[0];
    if (first?.type === 'adjudication_started' && normalizeAnnotatorName(first.data.adjudicator) !== decodeFileName(entry.name)) {
      throw new AdjudicationLogError(
        say('refusal.adjudication.theLogOfSaysIt', {
          file,
          decodeFileName: decodeFileName(entry.name),
          adjudicator: first.data.adjudicator,
        }),
      );
    }
    foldAdjudicationLog(state, events, file);
  }
  return { state, warnings };
}

/**
 * The adjudicator's log, open for appending under its lock (one writer at a time); created with its first event when
 * new. Appends go through the one append-only log (AppendLog): one write and one fsync per decision.
 */
export class AdjudicationLog {
  private constructor(
    private readonly log: AppendLog,
    private readonly unlock: () => Promise<void>,
    private seq: number,
    private readonly started: AdjudicationPayload,
  ) {}

  static async open(projectDir: string, adjudicator: string, project: string): Promise<AdjudicationLog> {
    const paths = adjudicationPaths(projectDir, adjudicator);
    await mkdir(paths.dir, { recursive: true });
    const unlock = await lockRoom(paths.lock);
    try {
      const { log, records } = await AppendLog.open(paths.events, (bytes) => roomLogReading(bytes, paths.events, checkAdjudicationEvent));
      // a log just created: its folder entry made durable too
      if (records.length === 0) await syncFolder(paths.dir);
      return new AdjudicationLog(log, unlock, records.length === 0 ? 0 : records[records.length - 1]!.seq, {
        type: 'adjudication_started',
        data: { adjudicator: normalizeAnnotatorName(adjudicator), project },
      });
    } catch (e) {
      await unlock();
      throw e;
    }
  }

  /** Appends what the rules decided, numbered after the log's last line, durable together; a new log gets its first event with them. */
  async append(decided: readonly AdjudicationPayload[], now = new Date()): Promise<AdjudicationEvent[]> {
    if (decided.length === 0) return [];
    const payloads = this.seq === 0 ? [this.started, ...decided] : decided;
    const events = payloads.map(
      (p, i) =>
        ({
          v: ADJUDICATION_EVENT_VERSIONS[p.type],
          seq: this.seq + i + 1,
          ts: now.toISOString(),
          type: p.type,
          data: p.data,
        }) as AdjudicationEvent,
    );
    await this.log.append(
      events.map((e) => JSON.stringify(e)),
      () => `events up to seq ${this.seq} are kept`,
    );
    this.seq += events.length;
    return events.slice(payloads.length - decided.length);
  }

  async close(): Promise<void> {
    await this.log.close();
    await this.unlock();
  }
}
