import { parserInputsText } from '../../common/analysis/parserInputs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { OpenProject } from '../project/projectFolder';
import { CodingFold } from '../../common/coding/codingFold';
import type { ItemSessionState } from '../../common/session/itemState';
import type { ItemSummary } from '../../common/session/itemSummary';
import { SessionFold, type FoldOptions, type SessionEntry, type SessionNote, type SessionState } from '../../common/session/sessionFold';
import type { SessionFacts } from '../../common/session/sessionRules';
import {
  type SessionEvent,
  type SessionEventData,
  type SessionEventOf,
  type SessionEventType,
  type SessionKind,
} from '../../common/session/sessionEvents';
import { SessionUsageError } from '../../common/session/sessionRefusals';
import type { UpcasterRegistry } from '../../common/session/sessionLog';
import type { ItemAudio } from '../../common/session/audioLedger';
import { PARSER_VERSION } from '../../common/parser/parserVersion';
import { WavWriter } from '../audio/wavWriter';
import { sha256Hex } from '../fs/sha256';
import type { WholeRecordingVad } from '../../common/signals/speechProbe';
import { itemAudioSignals } from './itemAudioSignals';
import { describeFsError, nodeDurableFs, DurableWriteError, type DurableFs } from '../fs/durableFile';
import { resolveInside } from '../fs/resolveInside';
import { clashingName } from '../../common/names/personNames';
import { decodeFileName } from './sessionPaths';
import { acquireSessionLock, type HeldSessionLock, type LockOwner } from './sessionLock';
import { SessionLogWriter } from './sessionLogFile';
import type { TornTail } from '../log/appendLog';
import { itemAudioRelativePath, resolveInSession, normalizeAnnotatorName, sessionPaths, type SessionPaths } from './sessionPaths';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';
import { labelGuidelinesInForce, type GuidelineInForce } from '../../common/guidelines/guidelines';
import { withGuidelinesInForce } from '../../common/guidelines/guidelineLogging';
import { say } from '../../common/refusal/refusalMessage';

/** What opening a session for writing found and repaired; the UI and the CLI report all of it. */
export interface SessionOpenReport {
  created: boolean;
  /** a lock left by a dead process that was taken over */
  tookOverLock: LockOwner | null;
  /** a torn last line of events.jsonl, cut away and kept in a .torn file */
  torn: TornTail | null;
  /** the recording a crash interrupted, now closed */
  interruptedRecording: string | null;
  /** items whose WAV differed from the log (length or header) and was repaired */
  recoveredAudio: Array<SessionEventData['audio_recovered']>;
}

export interface OpenSessionOptions {
  project: OpenProject;
  annotator: string;
  fs?: DurableFs;
  now?: () => Date;
  upcasters?: UpcasterRegistry;
  /**
   * someone other than the annotator opens the log to review it (their corrections carry the name): logged in
   * session_resumed; a reviewer never creates a session
   */
  reviewer?: string | null;
  /** a new session's kind (default an annotator's own) and, for a room's write-back, the room and member */
  kind?: SessionKind;
  room?: { code: string; member_id: string } | null;
  /**
   * the caller has judged the new name against every session of the project under the one name rule, for many names
   * at once (the codings import's coders): not judged again here, one listing of the project per session
   */
  lookAlikesJudged?: boolean;
}

/** What a session view holds besides its items and notes, as the fold has it after the last append. */
export type SessionFields = Pick<SessionState, 'current_item' | 'recording' | 'config_changed'> & { note_count: number };

/** sha256 of the project's aloud.yaml bytes, as exports record it in config_sha256. */
export function configSha256Of(project: Pick<OpenProject, 'configText'>): string {
  return sha256Hex(Buffer.from(project.configText, 'utf8'));
}

/** sha256 of what the parser reads of the project's aloud.yaml: voice labels are versioned by it. */
export function parserInputsSha256Of(project: Pick<OpenProject, 'config'>): string {
  return sha256Hex(Buffer.from(parserInputsText(project.config), 'utf8'));
}

/** What a fold of a session compares recorded labels with: the current aloud.yaml and the parser's inputs in it. */
export function foldOptionsOf(project: Pick<OpenProject, 'config' | 'configText'>): FoldOptions {
  return { configSha256: configSha256Of(project), parserInputsSha256: parserInputsSha256Of(project) };
}

/**
 * One annotator's session in a project, open for writing: holds the lock, appends events (each one fsynced)
 * and keeps the fold in step with them, and owns the per-item WAV writers. Opening repairs what a crash left:
 * the torn line, WAV headers, the interrupted recording.
 */
export class SessionStore {
  private readonly wavs = new Map<string, WavWriter>();
  private closing: Promise<void> | null = null;
  /** the commit deciding or writing: its owner's queue (SessionService's) lets one run at a time, and this says if not */
  private committing: Promise<unknown> | null = null;
  /** the labels' guidelines of the aloud.yaml this session runs under (null: none written) */
  private readonly labelGuidelines: GuidelineInForce | null;
  /** the codebook's guidelines the coding view last decided under (set before each coding commit) */
  codeGuidelines: GuidelineInForce | null = null;

  private constructor(
    readonly project: OpenProject,
    readonly annotator: string,
    readonly paths: SessionPaths,
    private readonly log: SessionLogWriter,
    private readonly fold: SessionFold,
    private readonly codingFold: CodingFold,
    private readonly lock: HeldSessionLock,
    private readonly fs: DurableFs,
    readonly report: SessionOpenReport,
    private readonly now: () => Date,
    private readonly opening: Pick<OpenSessionOptions, 'reviewer' | 'kind' | 'room'>,
  ) {
    this.labelGuidelines = labelGuidelinesInForce(project.config, sha256Hex);
  }

  static async open(options: OpenSessionOptions): Promise<SessionStore> {
    const { project } = options;
    const annotator = normalizeAnnotatorName(options.annotator);
    const fs = options.fs ?? nodeDurableFs;
    const paths = sessionPaths(project.dir, annotator);
    // a reviewer corrects a session that exists; never one of their own making
    if (
      options.reviewer &&
      !(await stat(paths.events).then(
        (info) => info.size > 0,
        () => false,
      ))
    )
      throw new SessionUsageError(say('refusal.session.hasNoSessionToReview', { annotator, dir: project.dir }));
    // a new session must not be one the project holds spelled another way ("ana" beside "Ana": one person, two
    // sessions) nor look like one ("bоb" beside "bob"): two people or one, nobody could tell
    if (
      !options.lookAlikesJudged &&
      !(await stat(paths.events).then(
        () => true,
        () => false,
      ))
    ) {
      const like = clashingName(annotator, await sessionNames(project.dir));
      if (like !== null)
        throw new SessionUsageError(say('refusal.session.looksLikeTheExistingAnnotator', { annotator, like, dir: project.dir }));
    }
    // One level at a time: a recursive mkdir reports ENOENT instead of EROFS on a read-only file system.
    for (const dir of [path.dirname(paths.dir), paths.dir, paths.audioDir]) {
      // Before creating anything: a linked folder would carry every later write out of the project.
      await resolveInside(project.dir, dir, 'write');
      try {
        await mkdir(dir);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw new DurableWriteError(
          say('refusal.storage.cannotCreateFolder', { dir, text: describeFsError(e).say }),
          dir,
          describeFsError(e).code,
        );
      }
    }
    const lock = await acquireSessionLock(paths.lock, {
      sessionLabel: say('refusal.session.lock.sessionOf', { annotator, dir: project.dir }),
      ...(options.now ? { now: options.now } : {}),
    });
    try {
      const { writer, events, torn } = await SessionLogWriter.open(paths.events, {
        fs,
        ...(options.now ? { now: options.now } : {}),
        ...(options.upcasters ? { upcasters: options.upcasters } : {}),
      });
      const fold = new SessionFold(project.config, paths.events, foldOptionsOf(project));
      // the coder's coding acts are a fold of their own over the same events, kept beside the session fold
      const codingFold = new CodingFold();
      for (const event of events) {
        fold.apply(event);
        codingFold.apply(event);
      }
      const report: SessionOpenReport = {
        created: events.length === 0,
        tookOverLock: lock.tookOverFrom,
        torn,
        interruptedRecording: null,
        recoveredAudio: [],
      };
      const store = new SessionStore(
        project,
        annotator,
        paths,
        writer,
        fold,
        codingFold,
        lock,
        fs,
        report,
        options.now ?? (() => new Date()),
        {
          reviewer: options.reviewer ?? null,
          kind: options.kind ?? 'annotator',
          room: options.room ?? null,
        },
      );
      try {
        await store.recover(events.length === 0);
      } catch (e) {
        await store.close().catch(() => undefined);
        throw e;
      }
      return store;
    } catch (e) {
      await lock.release();
      throw e;
    }
  }

  /** First events of this opening: session_started or session_resumed, then the repairs of a crash. */
  private async recover(isNew: boolean): Promise<void> {
    const entries: SessionEntry[] = [];
    const add = <T extends SessionEventType>(type: T, data: SessionEventData[T]): void => {
      entries.push({ type, data } as SessionEntry);
    };
    if (isNew) {
      add('session_started', {
        annotator: this.annotator,
        project_name: this.project.config.name,
        sample_rate: AUDIO_SAMPLE_RATE,
        config_sha256: this.configSha256,
        parser_version: PARSER_VERSION,
        parser_inputs_sha256: parserInputsSha256Of(this.project),
        kind: this.opening.kind ?? 'annotator',
        room: this.opening.room ?? null,
      });
    } else {
      add('session_resumed', {
        pid: process.pid,
        host: hostname(),
        config_sha256: this.configSha256,
        parser_version: PARSER_VERSION,
        reviewer: this.opening.reviewer ?? null,
        parser_inputs_sha256: parserInputsSha256Of(this.project),
      });
    }
    if (this.report.torn) {
      add('log_repaired', { torn_line: this.report.torn.line, torn_bytes: this.report.torn.bytes, torn_file: this.report.torn.tornFile });
    }
    const ledger = this.fold.audioLedger();
    const needSignals = new Set<string>();
    // Only a take that may be torn can differ from the log: the recording a crash left open, and a take a write
    // error ended. Every other WAV is as its recording_stopped left it, so opening costs the same at any size.
    const mayBeTorn = new Set(ledger.unsettled);
    if (ledger.openRecording) mayBeTorn.add(ledger.openRecording.item_id);
    for (const itemId of mayBeTorn) {
      const audio = ledger.items.get(itemId)!;
      const { writer, recovered } = await this.openLoggedWav(audio);
      await writer.close();
      if (recovered) {
        add('audio_recovered', recovered);
        this.report.recoveredAudio.push(recovered);
        needSignals.add(audio.item_id);
      }
    }
    if (ledger.openRecording) {
      const itemId = ledger.openRecording.item_id;
      const samples = this.report.recoveredAudio.find((r) => r.item_id === itemId)?.samples_total ?? ledger.items.get(itemId)!.samples;
      add('recording_stopped', { item_id: itemId, total_samples: samples, reason: 'recovered', error: null });
      this.report.interruptedRecording = itemId;
      needSignals.add(itemId);
    }
    for (const itemId of needSignals) {
      const wavPath = resolveInSession(this.paths, ledger.items.get(itemId)!.audio_path);
      // recovery runs before any engine: no VAD here (the next recording of the item computes its vad_* signals)
      const { samples, audio, takes } = await itemAudioSignals(wavPath, this.project.config.thinkaloud, null, this.takeStarts(itemId));
      add('signals_computed', { item_id: itemId, audio_samples: samples, audio, vad: null, vad_model: null, takes });
    }
    await this.appendAll(entries);
  }

  /** sha256 of the aloud.yaml this session runs under: recorded when it opens, compared with what labels were derived under */
  get configSha256(): string {
    return configSha256Of(this.project);
  }

  /** The item's current utterances and their segments (what corrections and re-transcription name). */
  utterancesOf(itemId: string): ReturnType<SessionFold['utterancesOf']> {
    return this.fold.utterancesOf(itemId);
  }

  get seq(): number {
    return this.log.seq;
  }

  /** Appends one event (fsynced) and applies it to the fold. */
  async append<T extends SessionEventType>(type: T, data: SessionEventData[T]): Promise<SessionEventOf<T>> {
    const [event] = await this.appendAll([{ type, data } as SessionEntry]);
    return event as SessionEventOf<T>;
  }

  /** Appends events as one commit point and applies them to the fold. */
  appendAll(entries: readonly SessionEntry[]): Promise<SessionEvent[]> {
    return this.commit(() => entries);
  }

  /**
   * Decides and appends in one step: `decide` reads the fold as every earlier append left it and returns the events to
   * append (or throws its refusal), which become one commit point at the time it decided. The store keeps no queue of
   * its own: its owner runs commits one at a time (SessionService's queue; a CLI command awaits each), and a second
   * commit started while one runs is an error, never an interleaving.
   */
  commit(decide: (facts: SessionFold, at: string) => readonly SessionEntry[]): Promise<SessionEvent[]> {
    if (this.closing)
      return Promise.reject(new SessionUsageError(say('refusal.session.theSessionIsClosed', { events: this.paths.events })));
    if (this.committing)
      return Promise.reject(new Error(`${this.paths.events}: a commit started while another was running (commits run one at a time)`));
    const commit = this.decideAndAppend(decide).finally(() => {
      this.committing = null;
    });
    this.committing = commit;
    return commit;
  }

  private async decideAndAppend(decide: (facts: SessionFold, at: string) => readonly SessionEntry[]): Promise<SessionEvent[]> {
    const at = this.now().toISOString();
    const decided = decide(this.fold, at);
    if (decided.length === 0) return [];
    // every label and code act is logged under the guidelines in force: their version first when it is not the last logged
    const entries = withGuidelinesInForce(
      decided,
      (scope) => this.fold.guidelineLogged(scope),
      { labels: this.labelGuidelines, codes: this.codeGuidelines },
      (data): SessionEntry => ({ type: 'guideline_in_force', data }),
    );
    // Check against the fold first so an event that would make the log unreadable is never written.
    this.fold.checkAppend(entries, this.log.seq + 1);
    // checked just above: the log's writer need not check them again
    const events = await this.log.appendAll(entries, at, true);
    for (const event of events) {
      this.fold.apply(event);
      this.codingFold.apply(event);
    }
    return events;
  }

  /** What the session's rules read: the fold, as the appends so far left it. */
  get facts(): SessionFacts {
    return this.fold;
  }

  /** The whole session: visits every item (opening a session, a full view); an act reads the fields below instead. */
  state(): SessionState {
    return this.fold.state();
  }

  /** The session's own fields, read off the fold as it stands (no item is visited). */
  fields(): SessionFields {
    return {
      current_item: this.fold.currentItemId,
      recording: this.fold.openRecording,
      config_changed: this.fold.configChanged,
      note_count: this.fold.noteCount,
    };
  }

  /** The item whose time on item runs now: every event changes its view. */
  get timedItem(): string | null {
    return this.fold.timedItemId;
  }

  /** The notes from the `start`-th on, oldest first. */
  notesFrom(start: number): SessionNote[] {
    return this.fold.notesFrom(start);
  }

  /** What this annotator coded as a coder, as their log holds it (the coding fold beside the session fold). */
  get coding(): CodingFold {
    return this.codingFold;
  }

  itemState(itemId: string): ItemSessionState | null {
    return this.fold.itemState(itemId);
  }

  /** Every item the log knows as its line in the item list, in the order first seen (opening a session answers these). */
  summaries(): ItemSummary[] {
    return this.fold.summaries();
  }

  get kind(): SessionKind {
    return this.fold.sessionKind;
  }

  nextUtteranceIndex(itemId: string): number {
    return this.fold.nextUtteranceIndex(itemId);
  }

  /** The item's WAV path relative to the project folder. */
  audioPath(itemId: string): string {
    return itemAudioRelativePath(this.paths, itemId);
  }

  absoluteAudioPath(itemId: string): string {
    return resolveInSession(this.paths, this.audioPath(itemId));
  }

  /**
   * The open WAV writer of an item, opened (and created) on first use. A WAV the log records audio in must exist; if
   * it no longer holds what the log says (changed since its take was closed), audio_recovered is logged first, so
   * the next take starts where the audio really ends.
   */
  async audioWriter(itemId: string): Promise<WavWriter> {
    let writer = this.wavs.get(itemId);
    if (!writer) {
      const logged = this.fold.audioLedger().items.get(itemId);
      if (logged && logged.samples > 0) {
        let recovered: SessionEventData['audio_recovered'] | null;
        ({ writer, recovered } = await this.openLoggedWav(logged));
        if (recovered)
          await this.append('audio_recovered', recovered).catch(async (e: unknown) => {
            await writer!.abandon();
            throw e;
          });
      } else {
        ({ writer } = await WavWriter.open(await resolveInside(this.project.dir, this.absoluteAudioPath(itemId), 'write'), {
          sampleRate: AUDIO_SAMPLE_RATE,
          fs: this.fs,
        }));
      }
      this.wavs.set(itemId, writer);
    }
    return writer;
  }

  /** Opens a WAV the log records (once, never creating it) and says what differs from the log, if anything. */
  private async openLoggedWav(audio: ItemAudio): Promise<{ writer: WavWriter; recovered: SessionEventData['audio_recovered'] | null }> {
    const wavPath = await resolveInside(this.project.dir, resolveInSession(this.paths, audio.audio_path), 'write');
    const exists = await stat(wavPath).then(
      () => true,
      () => false,
    );
    if (!exists) {
      throw new DurableWriteError(
        say('refusal.storage.wavMissing', { wavPath, events: this.paths.events, samples: String(audio.samples), itemId: audio.item_id }),
        wavPath,
        'ENOENT',
      );
    }
    const { writer, repair } = await WavWriter.open(wavPath, { sampleRate: AUDIO_SAMPLE_RATE, fs: this.fs, existing: true });
    const differs = repair !== null && (repair.samples !== audio.samples || repair.headerRepaired || repair.truncatedBytes > 0);
    const recovered = differs
      ? {
          item_id: audio.item_id,
          samples_logged: audio.samples,
          samples_total: repair.samples,
          header_repaired: repair.headerRepaired || repair.truncatedBytes > 0,
        }
      : null;
    return { writer, recovered };
  }

  /** Closes an item's WAV writer (flushing unless `abandon`). */
  async closeAudio(itemId: string, options: { abandon?: boolean } = {}): Promise<void> {
    const writer = this.wavs.get(itemId);
    if (!writer) return;
    this.wavs.delete(itemId);
    if (options.abandon) await writer.abandon();
    else await writer.close();
  }

  /** Audio signals over the item's WAV within its takes, as logged in signals_computed (the vad_* ones when a VAD is given). */
  itemAudioSignals(itemId: string, vad: WholeRecordingVad | null = null): ReturnType<typeof itemAudioSignals> {
    return itemAudioSignals(this.absoluteAudioPath(itemId), this.project.config.thinkaloud, vad, this.takeStarts(itemId));
  }

  /** Where each recording of the item begins in its WAV, in samples (the log's recording_started offsets). */
  takeStarts(itemId: string): number[] {
    return (this.fold.itemState(itemId)?.recordings ?? []).map((r) => Math.round((r.offset_ms * AUDIO_SAMPLE_RATE) / 1000));
  }

  /** Closes the WAVs and the log and releases the lock. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.committing?.catch(() => undefined);
      try {
        for (const itemId of [...this.wavs.keys()]) await this.closeAudio(itemId).catch(() => undefined);
        await this.log.close();
      } finally {
        await this.lock.release();
      }
    })();
    return this.closing;
  }
}

/** The names of the project's sessions, from their folder names (no log is read). */
async function sessionNames(projectDir: string): Promise<string[]> {
  const folders = await readdir(path.join(projectDir, 'sessions'), { withFileTypes: true }).catch(() => []);
  return folders.filter((f) => f.isDirectory()).map((f) => decodeFileName(f.name));
}
