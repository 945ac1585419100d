import { LabelModelInputError } from '../../common/labelModels/annotationTable';
import { type GoldView, goldReport } from '../../common/labelModels/goldReport';
import { projectSessionSource } from '../session/projectSessions';
import type { SessionSource } from '../session/sessionSource';
import type { OpenProject } from '../project/projectFolder';
import { projectLabelSet } from './agreementSources';

/** The app's resamples: enough for a 95% interval to read, few enough that a study of thousands of items answers in seconds. */
export const APP_GOLD_RESAMPLES = 100;

/**
 * `aloud gold --project` for the app: the project's sessions under the default counting rules (completed items, the
 * annotators' own final labels), read-only, the best model on held-out labels. No labels yet is an answer, not an error.
 */
export async function projectGold(project: OpenProject, sessions: SessionSource = projectSessionSource): Promise<GoldView> {
  const set = await projectLabelSet(project, sessions);
  const known = new Set(project.config.schema.labels.map((l) => l.name));
  // a label the schema no longer has is left out, as the agreement figures leave it out
  const annotations = set.records.flatMap((r) =>
    r.final_label === null || !known.has(r.final_label) ? [] : [{ item_id: r.item_id, annotator: r.annotator, label: r.final_label }],
  );
  try {
    return goldReport(annotations, {
      model: 'auto',
      resamples: APP_GOLD_RESAMPLES,
      seed: 1,
      labelOrder: project.config.schema.labels.map((l) => l.name),
      itemOrder: set.itemIds,
    });
  } catch (e) {
    if (e instanceof LabelModelInputError) return { unavailable: e.message };
    throw e;
  }
}
