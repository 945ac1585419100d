import { createTranscriptAnalyzer } from '../../common/analysis/transcriptAnalysis';
import { PARSER_VERSION } from '../../common/parser/parserVersion';
import { SessionFold } from '../../common/session/sessionFold';
import { EVENT_VERSIONS, type SessionEventData } from '../../common/session/sessionEvents';
import type { OpenProject } from '../project/projectFolder';
import { streamSessionLog } from './sessionLogStream';
import { sessionPaths } from './sessionPaths';
import { voiceCommitmentsOf } from '../../common/session/voiceCommitments';
import { configSha256Of, foldOptionsOf, parserInputsSha256Of, SessionStore } from './sessionStore';
import { Refusal } from '../../common/refusal/refusal';
import { say, type RefusalMessage } from '../../common/refusal/refusalMessage';

/** What re-deriving one item's voice labels with the current configuration does (or would do). */
export interface ReparsedItem {
  item_id: string;
  /** final label before → after */
  from: string | null;
  to: string | null;
  /** voice labels (in audio order) before → after */
  voice_from: string[];
  voice_to: string[];
  /** the voice labels themselves differ (not only the configuration they were derived under) */
  changed: boolean;
}

export interface ReparseResult {
  annotator: string;
  dry_run: boolean;
  config_sha256: string;
  parser_version: string;
  /** every item whose voice labels were derived under another configuration, or would change */
  items: ReparsedItem[];
}

/**
 * `aloud session reparse`: re-derives voice labels from the verbatim transcripts with the current configuration.
 * An item gets an auditable labels_rederived event (old → new) when its labels would change or were derived under
 * another aloud.yaml; nothing else changes. With `dryRun` the log is only read and nothing is written.
 */
export async function reparseSession(project: OpenProject, annotator: string, options: { dryRun: boolean }): Promise<ReparseResult> {
  const configSha256 = configSha256Of(project);
  const analyze = createTranscriptAnalyzer(project.config);
  const paths = sessionPaths(project.dir, annotator);
  /**
   * What re-deriving does to the log: one fold, advanced as the log is read (never held whole), then each item's
   * labels_rederived applied to it in turn (items are independent).
   */
  const plan = async (): Promise<Array<{ item: ReparsedItem; data: SessionEventData['labels_rederived'] }>> => {
    const fold = new SessionFold(project.config, paths.events, foldOptionsOf(project));
    const { events } = await streamSessionLog(paths.events, (event) => fold.apply(event));
    if (events === 0)
      throw new SessionReparseError(say('refusal.session.noSessionOfInNot', { annotator, dir: project.dir, events: paths.events }));
    let seq = events;
    const planned: Array<{ item: ReparsedItem; data: SessionEventData['labels_rederived'] }> = [];
    for (const itemId of fold.itemIds()) {
      const before = fold.itemState(itemId)!;
      const utterances = fold.utterancesOf(itemId);
      if (utterances.length === 0 && before.commitments.length === 0) continue;
      const found = voiceCommitmentsOf(utterances, analyze);
      const key = (list: ReadonlyArray<{ label: string; start: number; end: number }>) =>
        list.map((c) => `${c.start}:${c.end}:${c.label}`).join('|');
      const changed = key(found.commitments) !== key(before.commitments);
      if (!changed && !before.config_changed) continue;
      const data: SessionEventData['labels_rederived'] = {
        item_id: itemId,
        config_sha256: configSha256,
        parser_version: PARSER_VERSION,
        parser_inputs_sha256: parserInputsSha256Of(project),
        from_final: before.final_label,
        to_final: null,
        commitments: found.commitments,
        diagnostics: found.diagnostics,
      };
      // the final label after it: the whole timeline (clicks and keys stay) with the new voice labels
      fold.apply({ v: EVENT_VERSIONS.labels_rederived, seq: ++seq, ts: new Date().toISOString(), type: 'labels_rederived', data });
      data.to_final = fold.itemState(itemId)!.final_label;
      planned.push({
        item: {
          item_id: itemId,
          from: before.final_label,
          to: data.to_final,
          voice_from: before.commitments.map((c) => c.label),
          voice_to: found.commitments.map((c) => c.label),
          changed,
        },
        data,
      });
    }
    return planned;
  };

  const planned = await plan();
  // nothing to write (or a dry run): the log is only read, no lock taken, no session_resumed appended
  if (options.dryRun || planned.length === 0) {
    return {
      annotator,
      dry_run: options.dryRun,
      config_sha256: configSha256,
      parser_version: PARSER_VERSION,
      items: planned.map((p) => p.item),
    };
  }
  const store = await SessionStore.open({ project, annotator });
  try {
    // planned again under the lock: the log may have grown since it was read
    const underLock = await plan();
    if (underLock.length > 0) await store.appendAll(underLock.map((p) => ({ type: 'labels_rederived' as const, data: p.data })));
    return { annotator, dry_run: false, config_sha256: configSha256, parser_version: PARSER_VERSION, items: underLock.map((p) => p.item) };
  } finally {
    await store.close();
  }
}

export class SessionReparseError extends Refusal {
  override name = 'SessionReparseError';
  constructor(message: string | RefusalMessage) {
    super('not_found', message);
  }
}
