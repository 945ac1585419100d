import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSessionLog } from '../../../../core/common/session/sessionLog';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { cli } from '../../../helpers/cli';
import { recordSession } from '../export/recordSession';

/**
 * `aloud session complete`: what Enter does in the app, for sessions recorded headless (as `session ingest` leaves
 * them: transcribed, labelled aloud, never completed). The demo project requires a spoken label.
 */
describe('aloud session complete', () => {
  async function ingested() {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-complete-')), 'proj');
    await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
    await recordSession(await loadProjectConfig(dir), 'ana', [
      { id: 'demo-01', said: [' Hmm, I am not sure.', ' I label this polite.'] },
      { id: 'demo-02', said: [' Let me think.'] },
      { id: 'demo-03', said: [' I label this neutral.'], complete: true },
    ]);
    return dir;
  }
  const log = async (dir: string) => {
    const file = sessionPaths(dir, 'ana').events;
    return parseSessionLog(await readFile(file, 'utf8'), file).events;
  };

  it("completes one item by the app's rule and logs it as the app does; then session units lists its units", async () => {
    const dir = await ingested();
    expect((await cli('session', 'units', '--project', dir, '--annotator', 'ana', '--item', 'demo-01')).err).toContain('not final');
    const before = (await log(dir)).length;
    const run = await cli('session', 'complete', '--project', dir, '--annotator', 'ana', '--item', 'demo-01', '--json');
    expect(run.code, run.err).toBe(0);
    expect(JSON.parse(run.out)).toEqual({
      annotator: 'ana',
      items: [{ item_id: 'demo-01', completed: true, already: false, final_label: 'Polite', refused: null }],
    });
    const added = (await log(dir)).slice(before);
    // the app: the session resumed, the item opened, then completed (nothing else)
    expect(added.map((e) => e.type)).toEqual(['session_resumed', 'item_opened', 'item_completed']);
    expect(added[2]!.data).toEqual({ item_id: 'demo-01' });
    const units = await cli('session', 'units', '--project', dir, '--annotator', 'ana', '--item', 'demo-01', '--json');
    expect(units.code, units.err).toBe(0);
    expect((JSON.parse(units.out) as Array<{ unit: string; text: string }>).map((u) => [u.unit, u.text])).toEqual([
      ['u0', 'Hmm, I am not sure.'],
      ['u1', 'I label this polite.'],
    ]);
  });

  it('--all: every open item with audio or a label; a refusal of the rule is listed, the exit is 1, no completion is logged for it', async () => {
    const dir = await ingested();
    const run = await cli('session', 'complete', '--project', dir, '--annotator', 'ana', '--all');
    expect(run.code).toBe(1);
    expect(run.out).toContain('demo-01\tcompleted\tPolite');
    expect(run.out).toMatch(/demo-02\tnot completed\t\(no label\)\t"demo-02" needs a spoken label/);
    // demo-03 was completed already: not a target
    expect(run.out).not.toContain('demo-03');
    const completed = (await log(dir)).filter((e) => e.type === 'item_completed').map((e) => (e.data as { item_id: string }).item_id);
    expect(completed).toEqual(['demo-03', 'demo-01']);
    // again: nothing left but the refused one
    const again = await cli('session', 'complete', '--project', dir, '--annotator', 'ana', '--all', '--json');
    expect((JSON.parse(again.out) as { items: Array<{ item_id: string }> }).items.map((i) => i.item_id)).toEqual(['demo-02']);
  });

  it('asks for --item or --all, and an item of the project', async () => {
    const dir = await ingested();
    expect((await cli('session', 'complete', '--project', dir, '--annotator', 'ana')).err).toContain('give --item ID');
    expect((await cli('session', 'complete', '--project', dir, '--annotator', 'ana', '--item', 'demo-01', '--all')).err).toContain(
      'give --item ID',
    );
    expect((await cli('session', 'complete', '--project', dir, '--annotator', 'ana', '--item', 'nope')).err).toContain(
      '"nope" is not one of the project\'s items',
    );
  });
});
