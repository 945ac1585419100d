import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_PROJECT_DIR, loadProjectConfig, type OpenProject } from '../../../../core/node/project/projectFolder';
import { recordSession } from '../export/recordSession';

export const STUDY_CODEBOOK = [
  "# the study's codebook (a comment the app keeps when it adds a code)",
  'codes:',
  '  - name: Doubts',
  '    definition: The annotator says they are unsure.',
  '    example: "I am not sure"',
  '    key: d',
  '  - name: Reasons',
  '    definition: Gives a reason for the label.',
  '    key: r',
  '  - name: Cites the guideline',
  '    definition: Names a rule of the guidelines.',
  '    parent: Reasons',
  '    key: g',
  '',
].join('\n');

/**
 * A project where Ana has thought aloud on three items (each completed, so their units are final) and on a fourth she
 * has not completed; codebook.yaml as above; `configExtra` adds lines to aloud.yaml (e.g. a `coding:` section).
 */
export async function codingStudy(
  options: { configExtra?: string; codebook?: string | null } = {},
): Promise<{ dir: string; project: OpenProject }> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-coding-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  if (options.configExtra) {
    const { readFile } = await import('node:fs/promises');
    const config = await readFile(path.join(dir, 'aloud.yaml'), 'utf8');
    await writeFile(path.join(dir, 'aloud.yaml'), `${config.trimEnd()}\n${options.configExtra}\n`);
  }
  if (options.codebook !== null) await writeFile(path.join(dir, 'codebook.yaml'), options.codebook ?? STUDY_CODEBOOK);
  await recordSession(await loadProjectConfig(dir), 'ana', [
    { id: 'demo-01', said: [' Hmm, I am not sure.', ' It thanks the user.', ' I label this polite.'], complete: true },
    { id: 'demo-02', said: [' The guide says sarcasm is impolite.', ' I label this impolite.'], complete: true },
    { id: 'demo-03', said: [' Well. Hard to say.', ' I label this neutral.'], complete: true },
    { id: 'demo-04', said: [' Let me think.'] },
  ]);
  return { dir, project: await loadProjectConfig(dir) };
}
