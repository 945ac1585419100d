/**
 * The one app API. The renderer calls it through a client; Electron (IPC) and browser mode (HTTP on
 * 127.0.0.1) are two transports of the same contract, and the same handlers serve both.
 */
import type { AlphaResult } from '../agreement/krippendorff';
import type { GoldView } from '../labelModels/goldReport';
import type { LeadRoomStatus } from '../rooms/roomViews';
import type { ShadowRoomStatus } from '../rooms/shadowViews';
import type { Item } from '../items/item';
import type { LabelSchema, ThinkAloudConfig } from '../project/projectConfig';
import type { ItemSessionState } from '../session/itemState';
import type { ItemSummary } from '../session/itemSummary';
import type { ReasoningView } from '../reasoning/reasoningReveal';
import type { RefusalCode } from './refusal';
import type { CodeDef } from '../codebook/codebook';
import type { CodeAgreement } from '../coding/codeAgreement';
import type { CodingItemView, CodingOverview } from '../coding/codingViews';
import type { DeidentifyReviewView } from '../deidentify/reviewView';
import type { SpanRef } from '../deidentify/deidentifyRecord';
import type { ReviewDecisionKind } from '../deidentify/reviewDecisions';
import type { AdjudicationItemView, AdjudicationQueueView } from '../adjudication/adjudicationViews';

export interface AppInfo {
  app_version: string;
  /** how this renderer is hosted */
  mode: 'electron' | 'browser';
  engine: { available: boolean; model: { name: string; sha256: string } | null; problem: string | null };
}

export interface ProjectView {
  name: string;
  /** the project folder (absent in hosts older than the projects panel) */
  dir?: string;
  schema: LabelSchema;
  thinkaloud: ThinkAloudConfig;
  items: Item[];
}

/** Where the annotator is and what each item holds so far. */
export interface SessionView {
  annotator: string;
  current_item: string | null;
  recording_item: string | null;
  /** every item the annotator has touched, folded from the event log, as its line in the item list (itemSummary.ts) */
  items: ItemSummary[];
  /**
   * items in full, by id: the open item when the view was made; a page adds each item a patch, an item event or
   * sessionItem brings (an item touched but not here is fetched with sessionItem when it is shown)
   */
  item_states: Record<string, ItemSessionState>;
  /** transcriptions queued or running */
  pending_transcriptions: number;
  /** the same per item: an item listed here has words still being transcribed ("transcribing…" where its label goes) */
  pending_items: Record<string, number>;
  /** a torn last log line found (and set aside) when the session was opened */
  recovered: string | null;
  /** the item whose completion waits for its last transcriptions ("finishing transcription…"), if any */
  finishing_item: string | null;
  /** some recorded voice labels were derived under other parser inputs (labels, synonyms, languages, stems) than the current aloud.yaml's (kept as recorded) */
  config_changed: boolean;
  /** the annotator's notes, oldest first */
  notes: SessionNoteView[];
  /** who is reviewing this annotator's session (their corrections and labels carry the name); null: the annotator works */
  reviewer: string | null;
  /** an annotator's own session, a norming room's votes written back, or a coder's log made by import --codings */
  kind: 'annotator' | 'room' | 'coder';
  /**
   * this view's place in the host's order of views, patches and item events (each later one has a larger stamp): a
   * page keeps an item's state or the session's fields only from something newer than what set them (sessionPatch.ts)
   */
  stamp: number;
}

/** A note as the page shows it. */
export interface SessionNoteView {
  item_id: string | null;
  text: string;
  ts: string;
}

/**
 * What a call that acts on the open session answers instead of the whole view (whose size grows with the study): the
 * items whose fold changed since the last view or patch the host handed out, each whole as the fold now has it, the
 * notes added since then, and the session's own fields. Derived from the fold after the events were appended;
 * `applySessionPatch` (sessionPatch.ts) turns the view before into the view after. Only openSession and session()
 * answer the whole view.
 */
export interface SessionPatch {
  /** items changed, each in full, in the order their first change was logged (an item new to the session is added at the end) */
  changed_items: ItemSessionState[];
  /** the notes added since the last patch, oldest first, and where they start in the session's notes (a page holding more from a view read since keeps the first notes_from) */
  notes_from: number;
  added_notes: SessionNoteView[];
  current_item: string | null;
  recording_item: string | null;
  pending_transcriptions: number;
  pending_items: Record<string, number>;
  finishing_item: string | null;
  config_changed: boolean;
  /** its place in the host's order (SessionView.stamp): a patch older than the page's view or fields changes nothing there */
  stamp: number;
}

export type ExportFormat = 'jsonl' | 'json' | 'csv';
/** What the Export menu offers: records, or a folder for another tool (core/common/export/interop/interopFormats). */
export type ProjectExportFormat = ExportFormat | 'eaf' | 'textgrid' | 'qdpx' | 'hf' | 'maxqda';

/** Project → Collect…: what collecting an annotator's session pack did (aloud session unpack). */
export interface CollectSummary {
  annotator: string;
  /** added: a new session; extended: events appended to the held one; unchanged: nothing new */
  status: 'added' | 'extended' | 'unchanged';
  /** events appended by this pack, and the session's events now */
  appended: number;
  events: number;
  audio_files: number;
}

export interface ExportSummary {
  /** where the host wrote the file (the renderer never chooses a path) */
  file: string;
  receipt: string;
  records: number;
  gaps: number;
  /** the gaps in words: "26 records; 12 have no audio, 13 have no label" */
  summary: string;
  sha256: string;
  /** whose sessions the file holds */
  annotators?: string[];
  /** `file` is a folder (the interop formats: the files for the tool and their receipt); absent: a file */
  folder?: boolean;
}

/** The app's view of the whisper (and VAD) models: the manifest's, and any imported file. */
export interface ModelsView {
  /** the models folder */
  dir: string;
  /** the open project's thinkaloud.model */
  project_model: string;
  manifest_default: string;
  models: Array<{
    name: string;
    file: string;
    approx_mib: number;
    bytes: number | null;
    english_only: boolean;
    kind: 'whisper' | 'vad';
    installed: boolean;
    /** the file matches the manifest's checksum; null when not installed */
    verified: boolean | null;
    problem: string | null;
    downloading: boolean;
    in_manifest: boolean;
  }>;
}

/** The thinkaloud settings the app can change (written to aloud.yaml through its validation). */
export interface ThinkAloudSettings {
  model: string;
  chunk_seconds: number;
  silence_threshold_dbfs: number;
  min_pause_ms: number;
  long_pause_ms: number;
  require_spoken_label: boolean;
}

export interface SettingsChange {
  project: ProjectView;
  /** the values before the change: send them back to undo it */
  previous: ThinkAloudSettings;
}

/** An items import: all or nothing; problems name the file, line and field. */
export interface ImportOutcome {
  ok: boolean;
  added: number;
  unchanged: number;
  changed: number;
  removed: number;
  total: number;
  problems: Array<{ file: string; line: number | null; field: string | null; message: string }>;
}

export interface NewProjectSpec {
  /** full path of a new or empty folder */
  dir: string;
  name: string;
  labels: Array<{ name: string; key: string | null }>;
  /** full path of an items file (JSONL, JSON or CSV), imported strictly; null: no items yet */
  items_file: string | null;
}

export interface ProjectChange {
  project: ProjectView;
  /** the items import, when one was asked for */
  items: ImportOutcome | null;
}

export interface AgreementReport {
  annotators: string[];
  items: number;
  blind: AlphaResult;
  final: AlphaResult;
  /** per item: each annotator's blind and final label */
  table: Array<{ item_id: string; labels: Record<string, { blind: string | null; final: string | null }> }>;
}

/** Events pushed to the renderer (IPC messages in Electron, server-sent events in browser mode). */
export type AloudEvent =
  /** an item changed outside any act (a transcription landing or failing); stamped like patches */
  | { type: 'item'; item: ItemSessionState; stamp: number }
  /** the open session was opened again (new settings, items or a model): its whole view replaces the page's */
  | { type: 'session_reopened'; view: SessionView }
  | { type: 'recording'; item_id: string | null; stamp: number }
  /** transcriptions queued or running, in all and per item */
  | { type: 'transcription'; pending: number; items: Record<string, number>; stamp: number }
  /** completing this item waits for its transcriptions (null: stopped waiting) */
  | { type: 'finishing'; item_id: string | null; stamp: number }
  /**
   * text of an utterance still being spoken: show it greyed, replace it with the final; never a transcript.
   * speculative: the speech ended and this is the final text unless speech resumes (shown in the final style, marked
   * "still listening"; the transcript and any label come only from the final at the cut)
   */
  | { type: 'partial'; item_id: string; utterance: number; text: string; speculative: boolean }
  | { type: 'error'; message: string }
  /** the transcription engine's process died ('crashed'), came back with its model ('restarted') or gave up ('stopped') */
  | { type: 'engine'; state: 'crashed' | 'restarted' | 'stopped'; message: string }
  /** an export running: records built of all (the file and receipt are written when done = total) */
  | { type: 'export_progress'; done: number; total: number }
  /** a session pack being collected: bytes read of all (checked before anything is written) */
  | { type: 'collect_progress'; done: number; total: number }
  | {
      type: 'model_download';
      name: string;
      state: 'running' | 'done' | 'cancelled' | 'failed';
      received_bytes: number;
      total_bytes: number | null;
      percent: number | null;
      message: string | null;
    };

/** What a native dialog picks: a project folder to open, a (new or empty) folder to create one in, an items file, a session pack. */
export type PathKind = 'project-folder' | 'new-project-folder' | 'items-file' | 'pack-file';
export const PATH_KINDS: readonly PathKind[] = ['project-folder', 'new-project-folder', 'items-file', 'pack-file'];

/** Every method of the app API; arguments and results are plain JSON, except audio which is binary. */
export interface AloudApi {
  appInfo(): Promise<AppInfo>;
  project(): Promise<ProjectView>;
  /** opens (or resumes) this annotator's session; recovers after a crash */
  openSession(annotator: string): Promise<SessionView>;
  /** opens an existing annotator's session for review under the reviewer's own name: their corrections and labels carry it */
  reviewSession(annotator: string, reviewer: string): Promise<SessionView>;
  session(): Promise<SessionView>;
  /** one item of the open session in full, as the fold has it now (null: the session holds nothing of it); changes nothing */
  sessionItem(itemId: string): Promise<ItemSessionState | null>;
  openItem(itemId: string): Promise<SessionPatch>;
  startRecording(device: string | null): Promise<SessionPatch>;
  /** one binary chunk frame (core/common/audio/chunkFrame) of the current recording */
  appendAudio(frame: Uint8Array): Promise<void>;
  stopRecording(): Promise<SessionPatch>;
  /** a label act; on a completed item a change of its label is refused (code confirmation_required) until confirmed */
  commitLabel(label: string, source: 'click' | 'key'): Promise<SessionPatch>;
  /** the same act once the annotator has confirmed changing a completed item's label (a change after completion) */
  confirmLabelChange(label: string, source: 'click' | 'key'): Promise<SessionPatch>;
  completeItem(): Promise<SessionPatch>;
  addNote(text: string): Promise<SessionPatch>;
  /** the current item's model reasoning, if aloud.yaml reasoning.reveal allows it now; the first showing is logged */
  showReasoning(): Promise<ReasoningView>;
  /** judge step `index` (1-based) of the shown reasoning: 1 correct, 0 neutral, -1 wrong, null withdraws */
  judgeStep(index: number, reward: 1 | 0 | -1 | null, source: 'click' | 'key'): Promise<SessionPatch>;
  /** words of the open item's text selected (start and end: UTF-16 offsets at word boundaries), or cleared (both null) */
  selectText(start: number | null, end: number | null): Promise<SessionPatch>;
  /** the keep-talking cue was shown while recording, after silenceMs of silence (logged as a cue_shown event) */
  logCue(cue: 'keep_talking', silenceMs: number): Promise<SessionPatch>;
  exportSession(format: ExportFormat): Promise<ExportSummary>;
  agreement(): Promise<AgreementReport>;
  /** labels with error bars over the project's sessions (`aloud gold`, model auto): competence, uncertain items, confused pairs */
  goldLabels(): Promise<GoldView>;
  /** norming rooms, the lead's side (one room at a time, on its own listener); itemIds null: a huddle on today's disagreements */
  openRoom(itemIds: string[] | null, lan: boolean): Promise<LeadRoomStatus>;
  room(): Promise<LeadRoomStatus | null>;
  revealRoomItem(itemId: string): Promise<LeadRoomStatus>;
  removeRoomMember(memberId: string): Promise<LeadRoomStatus>;
  closeRoom(): Promise<null>;
  /** a closed room's final votes as labels (source "room") of a new session per member */
  writeBackRoom(code: string): Promise<Array<{ member_id: string; annotator: string; labels: number }>>;
  /**
   * a shadow room of the open session: trainees watch the annotator label and think aloud, live, and practise against
   * her (one room at a time, on its own listener; lan: open to the local network); her session is never written by it
   */
  openShadowRoom(lan: boolean): Promise<ShadowRoomStatus>;
  shadowRoom(): Promise<ShadowRoomStatus | null>;
  /** her audio to the trainees (off by default) */
  shareShadowAudio(on: boolean): Promise<ShadowRoomStatus>;
  removeShadowTrainee(memberId: string): Promise<ShadowRoomStatus>;
  closeShadowRoom(): Promise<null>;
  /** annotators with a session in this project (one spelling each) */
  annotators(): Promise<string[]>;
  /** every annotator's session (annotator null) or one annotator's */
  exportProject(format: ProjectExportFormat, annotator: string | null): Promise<ExportSummary>;
  /** the same export, de-identified by the project's deidentify.yaml (placeholders, masked recordings, the receipt says so) */
  exportDeidentified(format: ProjectExportFormat, annotator: string | null): Promise<ExportSummary>;
  /** rehash: check every file's checksum again (verify) */
  models(rehash: boolean): Promise<ModelsView>;
  /** starts a download; progress and the outcome arrive as model_download events */
  downloadModel(name: string): Promise<ModelsView>;
  cancelModelDownload(name: string): Promise<ModelsView>;
  /** copies a local model file (full path) into the models folder, checked */
  importModel(file: string): Promise<ModelsView>;
  removeModel(name: string): Promise<ModelsView>;
  /** a reviewer's correction of one segment (the lead's transcript_corrected event; the verbatim text is kept) */
  correctSegment(itemId: string, utterance: number, segment: number, text: string): Promise<SessionPatch>;
  /** a label act of source "correction" from the corrected transcript */
  rederiveLabelsFromCorrections(itemId: string): Promise<SessionPatch>;
  /** the label that would set (the corrected text's last commitment), or null when it commits to none; nothing is logged */
  labelFromCorrections(itemId: string): Promise<{ label: string; quote: string } | null>;
  /** transcribes recorded audio again (null: every item with audio and no transcript); earlier transcripts superseded */
  transcribeLater(itemId: string | null): Promise<SessionPatch>;
  /** recently opened project folders, newest first */
  recentProjects(): Promise<Array<{ dir: string; name: string | null; problem: string | null }>>;
  /** the desktop app's native dialog (null when cancelled); browser mode has none and says to type the path */
  choosePath(kind: PathKind): Promise<string | null>;
  /** opens another project folder (closing the session); the page then starts again with an annotator */
  openProject(dir: string): Promise<ProjectView>;
  createProject(spec: NewProjectSpec): Promise<ProjectChange>;
  /** imports items into the open project through the strict import (append or replace) */
  importItems(file: string, mode: 'append' | 'replace'): Promise<ProjectChange>;
  /** Project → Collect…: an annotator's session pack (full path) into the open project, checked first; progress as collect_progress events */
  collectPack(file: string): Promise<CollectSummary>;
  /** changes thinkaloud settings in aloud.yaml (validated; nothing written when invalid) */
  updateThinkAloud(patch: Partial<ThinkAloudSettings>): Promise<SettingsChange>;
  /** coding: the codebook, the coding settings, the protocols with this coder's progress, the in-vivo proposals */
  codingOverview(): Promise<CodingOverview>;
  /** one annotator's protocol of an item as this coder may see it (others' codes only when blind coding allows) */
  codingItem(annotator: string, itemId: string): Promise<CodingItemView>;
  /** apply, remove or toggle a code on a unit (a code_applied / code_removed event in the coder's own log) */
  codeUnit(
    annotator: string,
    itemId: string,
    unit: string,
    code: string,
    action: 'apply' | 'remove' | 'toggle',
    source: 'key' | 'click',
  ): Promise<CodingItemView>;
  /** the coder's memo on a code standing on a unit ('' clears it) */
  writeCodingMemo(annotator: string, itemId: string, unit: string, code: string, text: string): Promise<CodingItemView>;
  /** words of a unit proposed as a new code (in vivo); the lead adds it to the codebook */
  proposeCode(annotator: string, itemId: string, unit: string, quote: string): Promise<CodingItemView>;
  /** the coder has finished coding the protocol (in blind coding, the others' codes may then be seen) */
  finishCoding(annotator: string, itemId: string): Promise<CodingItemView>;
  /** takes back the coder's last code act; answers with the protocol it was on */
  undoCoding(): Promise<CodingItemView>;
  /** adds a code to codebook.yaml (validated like the file; its comments kept) */
  addCode(code: CodeDef): Promise<CodingOverview>;
  /** agreement on codes: α per code, overall when exclusive, the units coders disagree on, codes beside labels and pauses */
  codeAgreement(): Promise<CodeAgreementReport>;
  /** what a de-identified export would hide in one item of the open session, with the review decisions in force */
  deidentifyReview(itemId: string): Promise<DeidentifyReviewView>;
  /** the open session's annotator accepts or rejects a match, or adds a span (words of one segment) with its class */
  decideDeidentify(itemId: string, decision: ReviewDecisionKind, span: SpanRef, cls: string): Promise<DeidentifyReviewView>;
  /** items an adjudicator assigned to the open session's annotator, in the order assigned (the Label screen shows them first) */
  assignedItems(): Promise<string[]>;
  /** the lead's adjudication queue (annotators by shown name only: "Annotator n" with adjudication.blind_names) */
  adjudicationQueue(): Promise<AdjudicationQueueView>;
  /** one item side by side: each annotator's protocol, commit phrase, changes of mind, time on item, the decisions */
  adjudicationItem(itemId: string): Promise<AdjudicationItemView>;
  /** the open session's annotator decides (or revises) the item's gold label, in her own adjudication log */
  decideGoldLabel(
    itemId: string,
    label: string,
    confidence: string,
    causes: string[],
    rationale: string | null,
    guidelineFlag: string | null,
  ): Promise<AdjudicationItemView>;
  /** the lead is about to speak her rationale for this item (the recording that follows is for it) */
  beginSpokenRationale(itemId: string): Promise<null>;
  /** her spoken rationale as a WAV: transcribed verbatim, held (not yet kept) until she decides with it */
  spokenRationaleAudio(wav: Uint8Array): Promise<SpokenRationaleView>;
  /** decides (or revises) the item's gold label with the spoken rationale transcribed for it; the WAV is kept then */
  decideGoldLabelSpoken(
    itemId: string,
    label: string,
    confidence: string,
    causes: string[],
    guidelineFlag: string | null,
  ): Promise<AdjudicationItemView>;
}

/** A spoken rationale as transcribed, before the decision it goes with. */
export interface SpokenRationaleView {
  item_id: string;
  text: string;
  audio_ms: number;
}

/** `agreement --codes` as the Agreement tab gets it: the figures, the codebook it was computed under, the unit rule. */
export type CodeAgreementReport = CodeAgreement & { codebook_version: string | null; exclusive: boolean; unit: string };

export type AloudMethod = keyof AloudApi;

/** A refusal crossing the contract as data (CallOutcome): a code the UI can act on and a message a person can read. */
export interface RefusalBody {
  code: RefusalCode;
  message: string;
}
