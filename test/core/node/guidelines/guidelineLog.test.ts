import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { SessionStore } from '../../../../core/node/session/sessionStore';
import { decideLabelAct } from '../../../../core/common/session/labelRules';
import { ADJUDICATION_EVENT_VERSIONS } from '../../../../core/common/adjudication/adjudicationEvents';
import { cli } from '../../../helpers/cli';

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

describe('aloud guidelines history / export', () => {
  it('lists each version with what changed and the adjudication flag against the version the item was labelled under', async () => {
    const project = await projectWith('Courteous');
    const ana = await SessionStore.open({ project, annotator: 'Ana' });
    await label(ana, 'demo-01', 'Polite');
    await ana.close();
    const changed = await projectWith('Courteous towards the reader', project.dir);
    const ben = await SessionStore.open({ project: changed, annotator: 'Ben' });
    await label(ben, 'demo-02', 'Neutral');
    await ben.close();
    const adjudication = path.join(project.dir, 'adjudication', 'lead');
    await mkdir(adjudication, { recursive: true });
    const line = (seq: number, type: string, data: unknown) =>
      JSON.stringify({
        v: ADJUDICATION_EVENT_VERSIONS[type as keyof typeof ADJUDICATION_EVENT_VERSIONS],
        seq,
        ts: `2030-01-01T00:00:0${seq}.000Z`,
        type,
        data,
      });
    await writeFile(
      path.join(adjudication, 'events.jsonl'),
      `${line(1, 'adjudication_started', { adjudicator: 'lead', project: 'politeness-demo' })}\n${line(2, 'decision_recorded', {
        item_id: 'demo-01',
        label: 'Impolite',
        adopted: [],
        confidence: 'low',
        causes: ['guideline gap'],
        rationale: null,
        guideline_flag: 'Polite: does a bare "thanks" count?',
        room: null,
        revises: null,
        labels_seen: [{ annotator: 'Ana', label: 'Polite' }],
      })}\n`,
    );

    const json = await cli('guidelines', 'history', '--project', project.dir, '--json');
    expect(json.code).toBe(0);
    const { versions } = JSON.parse(json.out) as { versions: Array<Record<string, unknown>> };
    expect(versions.map((v) => [v.scope, v.annotators, v.acts, v.current])).toEqual([
      ['labels', ['Ana'], 1, false],
      ['labels', ['Ben'], 1, true],
    ]);
    expect(versions[1]!.changes).toEqual([
      { name: 'Polite', part: 'definition', language: 'en', from: 'Courteous', to: 'Courteous towards the reader' },
    ]);
    expect(versions[0]!.flags).toEqual([
      {
        item_id: 'demo-01',
        text: 'Polite: does a bare "thanks" count?',
        adjudicator: 'lead',
        decided_at: '2030-01-01T00:00:02.000Z',
        label: 'Polite',
        version: versions[0]!.version,
      },
    ]);

    const text = await cli('guidelines', 'history', '--project', project.dir);
    expect(text.out).toContain(`labels ${String(versions[1]!.version)} (in force now)`);
    expect(text.out).toContain('  Polite definition (en): "Courteous" → "Courteous towards the reader"');
    expect(text.out).toContain('  flag on demo-01 (Polite) by lead at 2030-01-01T00:00:02.000Z: "Polite: does a bare \\"thanks\\" count?"');

    const out = path.join(path.dirname(project.dir), 'guidelines.json');
    const exported = await cli('guidelines', 'export', '--project', project.dir, '--out', out);
    expect(exported).toMatchObject({ code: 0, out: `Exported the guideline history (2 versions) to ${out}\n` });
    const file = JSON.parse(await readFile(out, 'utf8')) as Record<string, unknown>;
    expect(file).toMatchObject({ guideline_history_version: 1, project: 'politeness-demo', versions });

    // the export record names the version each final label was given under
    const records = path.join(path.dirname(project.dir), 'records.jsonl');
    expect((await cli('export', '--project', project.dir, '--format', 'jsonl', '--out', records)).code).toBe(0);
    const byItem = new Map(
      (await readFile(records, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { annotator: string; item_id: string; guideline_version: string | null; schema_version: number })
        .map((r) => [`${r.annotator}/${r.item_id}`, r]),
    );
    expect(byItem.get('Ana/demo-01')).toMatchObject({ schema_version: 5, guideline_version: versions[0]!.version });
    expect(byItem.get('Ben/demo-02')).toMatchObject({ guideline_version: versions[1]!.version });
    expect(byItem.get('Ana/demo-02')).toMatchObject({ guideline_version: null });
  });

  it('says what is wrong with a call in one line', async () => {
    expect(await cli('guidelines', 'show')).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown subcommand "show" (history, export)'),
    });
  });
});
