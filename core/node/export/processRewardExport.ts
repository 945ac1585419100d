import path from 'node:path';
import {
  buildProcessRewardReceipt,
  buildProcessRewardRecord,
  ProcessRewardCheck,
  serializeProcessReward,
  type ProcessRewardReceipt,
  type ProcessRewardRecord,
} from '../../common/reasoning/processReward';
import { InputError } from '../../common/io/inputProblem';
import { syntaxProblem } from '../../common/io/jsonInput';
import { parseStrictJson } from '../../common/io/strictJson';
import { itemModelReasoning } from '../../common/reasoning/reasoningSteps';
import type { Item } from '../../common/items/item';
import type { ItemSessionState } from '../../common/session/itemState';
import { ProjectError } from '../fs/projectError';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';
import { appVersion } from '../exportFiles/appVersion';
import { exportAnnotators } from './exportSessions';
import { writeExportPair } from '../exportFiles/exportTarget';
import type { SessionSource } from '../session/sessionSource';
import { stepJudgmentAgreement, type StepAgreement } from '../../common/reasoning/stepAgreement';

export interface ProcessRewardExportResult {
  file: string;
  receipt_file: string;
  receipt: ProcessRewardReceipt;
  warnings: string[];
}

/**
 * The steps a record is about: those the annotator was shown (logged with reasoning_shown), else the item's
 * reasoning split by today's rule (the annotator never saw it, so every reward is null).
 */
function stepCount(item: Item, state: ItemSessionState | null, project: OpenProject): number {
  if (state?.reasoning) return state.reasoning.steps.length;
  return itemModelReasoning(item, project.config.reasoning.split)?.steps.length ?? 0;
}

/** One record per annotator and project item with model reasoning, in annotator then item order. */
export function processRewardRecords(
  project: OpenProject,
  items: readonly Item[],
  sessions: ReadonlyArray<{ annotator: string; items: readonly ItemSessionState[] }>,
): ProcessRewardRecord[] {
  const records: ProcessRewardRecord[] = [];
  for (const session of sessions) {
    const byItem = new Map(session.items.map((s) => [s.item_id, s]));
    for (const item of items) {
      const state = byItem.get(item.id) ?? null;
      const count = stepCount(item, state, project);
      if (count === 0) continue;
      records.push(
        buildProcessRewardRecord({
          instanceId: item.id,
          annotator: session.annotator,
          stepCount: count,
          judgments: state?.step_judgments ?? [],
        }),
      );
    }
  }
  return records;
}

/**
 * `aloud export --format process-reward`: one annotator's session at a time, each record checked (schema and rules,
 * on the exact line written) and appended as it is made, then written with its receipt as a pair (writeExportPair).
 */
export async function exportProcessReward(options: {
  project: OpenProject;
  annotator?: string;
  out: string;
  sessions: SessionSource;
  force?: boolean;
  now?: () => Date;
}): Promise<ProcessRewardExportResult> {
  const { project, out } = options;
  const now = options.now ?? (() => new Date());
  const { items, annotators } = await exportAnnotators(project, out, options.sessions, options.annotator);
  const version = await appVersion();
  const warnings: string[] = [];
  const check = new ProcessRewardCheck(out);
  const { receiptFile, receipt } = await writeExportPair(
    out,
    async (sink) => {
      let line = 0;
      for (const annotator of annotators) {
        const session = await options.sessions.load(project, annotator);
        warnings.push(...session.warnings);
        for (const record of processRewardRecords(project, items, [session])) {
          const text = serializeProcessReward([record]);
          const at = ++line;
          try {
            check.record({ line: at, pointer: '', value: parseStrictJson(text.slice(0, -1), { firstLine: at }).value, locate: () => at });
          } catch (e) {
            check.unreadable(syntaxProblem(e, out));
          }
          await sink.write(text);
        }
      }
      if (line === 0)
        throw new ProjectError(
          `${project.dir}: no item has model reasoning (model_reasoning or model_steps), so there is nothing to export as process rewards`,
        );
      const { problems } = check.finish();
      if (problems.length > 0) throw new InputError(problems);
    },
    (written) =>
      buildProcessRewardReceipt({
        file: path.basename(out),
        sha256: written.sha256,
        bytes: written.bytes,
        records: check.tally,
        project: project.config.name,
        appVersion: version,
        createdAt: now().toISOString(),
      }),
    { project, force: options.force ?? false },
  );
  return { file: out, receipt_file: receiptFile, receipt, warnings };
}

/**
 * Agreement on step judgments across every annotator of the project (ordinal alpha per step position and over all
 * judged steps), on the rewards the process-reward export writes. For the agreement command to call.
 */
export async function projectStepAgreement(project: OpenProject, sessions: SessionSource): Promise<StepAgreement> {
  const items = await loadProjectItems(project);
  const loaded = [];
  for (const annotator of await sessions.annotators(project)) loaded.push(await sessions.load(project, annotator));
  return stepJudgmentAgreement(processRewardRecords(project, items, loaded));
}
