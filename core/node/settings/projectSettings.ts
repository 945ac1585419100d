import { parseDocument } from 'yaml';
import { Refusal } from '../../common/refusal/refusal';
import type { ThinkAloudSettings } from '../../common/settings/settingsApi';
import { parseProjectConfig } from '../../common/project/projectConfig';
import { writeFileAtomic } from '../fs/atomicFile';
import { loadProjectConfigFile, type OpenProject } from '../project/projectFolder';
import { say } from '../../common/refusal/refusalMessage';

/** The thinkaloud settings the app may change; the rest of aloud.yaml is the researcher's to edit. */
export const EDITABLE_THINKALOUD: ReadonlyArray<keyof ThinkAloudSettings> = [
  'model',
  'chunk_seconds',
  'silence_threshold_dbfs',
  'min_pause_ms',
  'long_pause_ms',
  'require_spoken_label',
];

export function thinkAloudSettings(project: OpenProject): ThinkAloudSettings {
  const t = project.config.thinkaloud;
  return {
    model: t.model,
    chunk_seconds: t.chunk_seconds,
    silence_threshold_dbfs: t.silence_threshold_dbfs,
    min_pause_ms: t.min_pause_ms,
    long_pause_ms: t.long_pause_ms,
    require_spoken_label: t.require_spoken_label,
  };
}

/**
 * Writes thinkaloud settings into aloud.yaml through the same validation as loading it (schema, ranges), keeping the
 * file's comments and layout; nothing is written when the result would not load. Returns the reloaded project and the
 * values before, so the app can offer an undo.
 */
export async function writeThinkAloudSettings(
  project: OpenProject,
  patch: Partial<ThinkAloudSettings>,
): Promise<{ project: OpenProject; previous: ThinkAloudSettings }> {
  const previous = thinkAloudSettings(project);
  const doc = parseDocument(project.configText);
  for (const [key, value] of Object.entries(patch)) {
    if (!EDITABLE_THINKALOUD.includes(key as keyof ThinkAloudSettings))
      throw new Refusal('bad_request', say('refusal.settings.thinkaloudCannotBeChangedFrom', { key, configPath: project.configPath }));
    doc.setIn(['thinkaloud', key], value);
  }
  const text = doc.toString();
  // refuses (ConfigError) with file, line and key before anything is written
  parseProjectConfig(text, project.configPath);
  await writeFileAtomic(project.configPath, text);
  return { project: await loadProjectConfigFile(project.configPath), previous };
}
