import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { SessionService } from '../../../../core/node/session/sessionService';
import { cli } from '../../../helpers/cli';

/** Labels items through the real session service (clicks; no engine), completing each unless told not to. */
export async function label(
  dir: string,
  annotator: string,
  plan: Array<[string, ...string[]]>,
  options: { complete?: boolean } = {},
): Promise<void> {
  const project = await loadProjectConfig(dir);
  const session = await SessionService.open({ project, annotator, items: await loadProjectItems(project) });
  try {
    for (const [itemId, ...labels] of plan) {
      await session.openItem(itemId);
      for (const l of labels) await session.commitLabel(l, 'click');
      if (options.complete !== false) await session.completeItem();
    }
  } finally {
    await session.close();
  }
}

/** A copy of the demo with three annotators: demo-01 unanimous, demo-02 2–1, demo-03 all different, demo-04 one label. */
export async function threeAnnotatorStudy(extraYaml = ''): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-adjud-')), 'p');
  expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
  const yaml = await readFile(path.join(dir, 'aloud.yaml'), 'utf8');
  await writeFile(path.join(dir, 'aloud.yaml'), yaml.replace('thinkaloud:\n', 'thinkaloud:\n  require_spoken_label: false\n') + extraYaml);
  await label(dir, 'ana', [
    ['demo-01', 'Polite'],
    ['demo-02', 'Polite'],
    ['demo-03', 'Polite'],
    ['demo-04', 'Neutral'],
  ]);
  await label(dir, 'ben', [
    ['demo-01', 'Polite'],
    ['demo-02', 'Neutral', 'Polite'],
    ['demo-03', 'Impolite'],
  ]);
  await label(dir, 'cai', [
    ['demo-01', 'Polite'],
    ['demo-02', 'Impolite'],
    ['demo-03', 'Neutral'],
  ]);
  return dir;
}
