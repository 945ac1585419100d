import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchApiCall } from '../../../../core/node/app/apiDispatcher';
import { AppService } from '../../../../core/node/app/appService';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { cli } from '../../../helpers/cli';

/** A lead reviews an annotator's session under their own name, through the app API (never "continue as" the annotator). */
describe("reviewing a session under the reviewer's own name", () => {
  let app: AppService;
  let dir: string;

  beforeAll(async () => {
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-review-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("the reviewer's acts carry their name; the annotator's stay theirs; only an existing session is reviewed", async () => {
    await app.openSession('Ana');
    await app.openItem('demo-01');
    await app.commitLabel('Polite', 'key');
    expect(await dispatchApiCall(app, 'reviewSession', ['nobody', 'lead'])).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: expect.stringMatching(/"nobody" has no session/) },
    });
    expect(await dispatchApiCall(app, 'reviewSession', ['ana'])).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const view = await app.reviewSession('ana', 'Lead');
    expect(view).toMatchObject({ annotator: 'Ana', reviewer: 'Lead', kind: 'annotator' });
    await app.openItem('demo-01');
    const after = await app.commitLabel('Impolite', 'key');
    expect(after.changed_items.find((i) => i.item_id === 'demo-01')!.label_history.map((a) => [a.label, a.reviewer])).toEqual([
      ['Polite', null],
      ['Impolite', 'Lead'],
    ]);
    // the annotator themselves, opening again, is no reviewer
    expect(await app.openSession('Ana')).toMatchObject({ reviewer: null });
    const log = (await readFile(sessionPaths(dir, 'Ana').events, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
    expect(log.filter((e) => e.type === 'session_resumed').map((e) => e.data.reviewer)).toEqual(['Lead', null]);
    expect(log.filter((e) => e.type === 'label_committed').map((e) => e.data.reviewer)).toEqual([null, 'Lead']);
    expect(await app.annotators()).toEqual(['Ana']);
  });
});
