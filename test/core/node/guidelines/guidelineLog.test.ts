import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { SessionStore } from '../../../../core/node/session/sessionStore';
import { decideLabelAct } from '../../../../core/common/session/labelRules';

const POLITE = '    - {name: Polite, key: "1", synonyms: {en: [courteous], de: ["höflich"]}}';

/** The demo project with a guideline on Polite (none: the demo as it is). */
async function projectWith(definition: string | null, dir?: string) {
  const at = dir ?? path.join(await mkdtemp(path.join(tmpdir(), 'aloud-guide-')), 'proj');
  if (!dir) await cp(DEMO_PROJECT_DIR, at, { recursive: true });
  const demo = await readFile(path.join(DEMO_PROJECT_DIR, 'aloud.yaml'), 'utf8');
  const text =
    definition === null
      ? demo
      : demo.replace(POLITE, `${POLITE.slice(0, -1)}, definition: {en: "${definition}", de: "Höflich"}, examples: ["Thank you!"]}`);
  expect(text.includes('definition') || definition === null).toBe(true);
  await writeFile(path.join(at, 'aloud.yaml'), text);
  return loadProjectConfig(at);
}

async function label(store: SessionStore, itemId: string, name: string): Promise<void> {
  await store.append('item_opened', { item_id: itemId, text_sha256: null });
  await store.commit((facts, at) => decideLabelAct(facts, { config: store.project.config }, { label: name, source: 'key' }, at));
}

describe('the guideline in force, in the log', () => {
  it('is logged once before the first label under each version, and each label carries the version it was given under', async () => {
    const project = await projectWith('Courteous');
    const store = await SessionStore.open({ project, annotator: 'Ana' });
    await label(store, 'demo-01', 'Polite');
    await label(store, 'demo-02', 'Impolite');
    const first = store.state().items.find((i) => i.item_id === 'demo-01')!.guideline_version!;
    expect(first).toMatch(/^[0-9a-f]{12}$/);
    await store.close();

    // the lead sharpens the definition: the next label is given under a new version, the earlier ones keep theirs
    const changed = await projectWith('Courteous towards the reader', project.dir);
    const again = await SessionStore.open({ project: changed, annotator: 'Ana' });
    await label(again, 'demo-03', 'Neutral');
    const items = new Map(again.state().items.map((i) => [i.item_id, i.guideline_version]));
    await again.close();
    expect(items.get('demo-01')).toBe(first);
    expect(items.get('demo-02')).toBe(first);
    expect(items.get('demo-03')).toMatch(/^[0-9a-f]{12}$/);
    expect(items.get('demo-03')).not.toBe(first);

    const { events } = await readSessionLog(sessionPaths(project.dir, 'Ana').events);
    expect(events.map((e) => e.type).filter((t) => t !== 'label_changed')).toEqual([
      'session_started',
      'item_opened',
      'guideline_in_force',
      'label_committed',
      'item_opened',
      'label_committed',
      'session_resumed',
      'item_opened',
      'guideline_in_force',
      'label_committed',
    ]);
    const logged = events.filter((e) => e.type === 'guideline_in_force').map((e) => e.data);
    expect(logged[0]).toMatchObject({
      scope: 'labels',
      version: first,
      language: 'en',
      guidelines: [
        { name: 'Polite', definition: { en: 'Courteous', de: 'Höflich' }, examples: ['Thank you!'], counter_examples: null },
        { name: 'Impolite', definition: null, examples: null, counter_examples: null },
        { name: 'Neutral', definition: null, examples: null, counter_examples: null },
      ],
    });
  });

  it('logs nothing new for a project without guidelines', async () => {
    const project = await projectWith(null);
    const store = await SessionStore.open({ project, annotator: 'Ben' });
    await label(store, 'demo-01', 'Polite');
    expect(store.state().items[0]!.guideline_version).toBeNull();
    await store.close();
    const { events } = await readSessionLog(sessionPaths(project.dir, 'Ben').events);
    expect(events.map((e) => e.type)).toEqual(['session_started', 'item_opened', 'label_committed']);
  });
});
