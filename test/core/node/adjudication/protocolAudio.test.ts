import { mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shownAnnotators } from '../../../../core/common/adjudication/adjudicationQueue';
import { protocolAudioTarget } from '../../../../core/common/http/appPaths';
import { protocolAudioFile } from '../../../../core/node/adjudication/protocolAudio';
import { readAdjudication } from '../../../../core/node/adjudication/projectAdjudication';
import { projectSessionSource } from '../../../../core/node/session/projectSessions';
import type { SessionSource } from '../../../../core/node/session/sessionSource';
import { loadProjectConfig, type OpenProject } from '../../../../core/node/project/projectFolder';
import { cli } from '../../../helpers/cli';
import { recordSession } from '../export/recordSession';

/** The real sessions, with one annotator's audio_path of one item rewritten as a hostile log could have it. */
function withAudioPath(annotator: string, itemId: string, audioPath: string): SessionSource {
  return {
    annotators: (p) => projectSessionSource.annotators(p),
    load: async (p, name) => {
      const session = await projectSessionSource.load(p, name);
      if (name !== annotator) return session;
      return { ...session, items: session.items.map((i) => (i.item_id === itemId ? { ...i, audio_path: audioPath } : i)) };
    },
  };
}

describe("annotator n's recording of an item, for adjudication", () => {
  let dir: string;
  let project: OpenProject;

  beforeAll(async () => {
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-protocol-audio-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    const yaml = await readFile(path.join(dir, 'aloud.yaml'), 'utf8');
    await writeFile(path.join(dir, 'aloud.yaml'), yaml.replace('thinkaloud:\n', 'thinkaloud:\n  require_spoken_label: false\n'));
    project = await loadProjectConfig(dir);
    await recordSession(project, 'ana', [
      { id: 'demo-02', said: [' I label this polite.'], complete: true },
      { id: 'demo-03', said: [' I label this polite.'], complete: true },
    ]);
    await recordSession(project, 'ben', [
      { id: 'demo-02', said: [' I label this neutral.'], complete: true },
      { id: 'demo-03', said: [' I label this impolite.'], complete: true },
    ]);
    // cai labelled demo-03 by click without a word: no recording
    await recordSession(project, 'cai', [
      { id: 'demo-02', said: [' I label this impolite.'], complete: true },
      { id: 'demo-03', click: 'Neutral', complete: true },
    ]);
    await writeFile(path.join(path.dirname(dir), 'outside.wav'), 'not yours');
    await symlink(path.join(path.dirname(dir), 'outside.wav'), path.join(dir, 'sessions', 'linked.wav'));
  }, 120_000);

  it('finds the file of the annotator shown n-th in the view, inside her session', async () => {
    const standing = (await readAdjudication(project)).queue.items.get('demo-02')!;
    const order = shownAnnotators(
      'demo-02',
      standing.labels.map((l) => l.annotator),
      false,
    ).map((a) => a.annotator);
    for (const [i, annotator] of order.entries()) {
      const found = await protocolAudioFile(project, 'demo-02', i + 1);
      expect(found.ok, annotator).toBe(true);
      if (found.ok) expect(path.relative(dir, found.file).split(path.sep)).toContain(annotator);
    }
  });

  it('with blind_names, n counts the view\'s blind order ("Annotator n"), not the names\' order', async () => {
    const blind = { ...project, config: { ...project.config, adjudication: { ...project.config.adjudication, blind_names: true } } };
    const queue = (await readAdjudication(blind)).queue;
    let reordered = 0;
    for (const itemId of ['demo-02', 'demo-03']) {
      const named = queue.items.get(itemId)!.labels.map((l) => l.annotator);
      const order = shownAnnotators(itemId, named, true).map((a) => a.annotator);
      if (order.join() !== named.join()) reordered++;
      for (const [i, annotator] of order.entries()) {
        const found = await protocolAudioFile(blind, itemId, i + 1);
        // cai spoke no word on demo-03: her number is a 404, whoever is shown there
        if (itemId === 'demo-03' && annotator === 'cai') expect(found).toMatchObject({ ok: false, status: 404 });
        else expect(found.ok && path.relative(dir, found.file).split(path.sep).includes(annotator), `${itemId} ${annotator}`).toBe(true);
      }
    }
    expect(reordered).toBeGreaterThan(0); // the test means something only if a blind order differs from the names'
  });

  it('refuses an item not in the queue, whatever its name, and a number past the view', async () => {
    for (const itemId of ['../../etc/passwd', 'sessions/ana/audio/demo-02.wav', 'demo-99', '']) {
      expect(await protocolAudioFile(project, itemId, 1)).toMatchObject({ ok: false, status: 404 });
    }
    expect(await protocolAudioFile(project, 'demo-02', 4)).toMatchObject({
      ok: false,
      status: 404,
      reason: 'item "demo-02" has no annotator 4',
    });
    expect(await protocolAudioFile(project, 'demo-02', 0)).toMatchObject({ ok: false, status: 404 });
    expect(await protocolAudioFile(project, 'demo-02', 1.5)).toMatchObject({ ok: false, status: 404 });
  });

  it('says when the annotator has no recording of the item (labelled by click)', async () => {
    const standing = (await readAdjudication(project)).queue.items.get('demo-03')!;
    const cai =
      shownAnnotators(
        'demo-03',
        standing.labels.map((l) => l.annotator),
        false,
      ).findIndex((a) => a.annotator === 'cai') + 1;
    expect(await protocolAudioFile(project, 'demo-03', cai)).toEqual({
      ok: false,
      status: 404,
      reason: `annotator ${cai} has no recording of item "demo-03"`,
    });
  });

  it('refuses a log whose audio path leaves the project, by name or through a link, without naming the real path', async () => {
    const ana = (await readAdjudication(project)).queue.items.get('demo-02')!.labels.findIndex((l) => l.annotator === 'ana') + 1;
    for (const hostile of ['../outside.wav', path.join(path.dirname(dir), 'outside.wav'), 'sessions/linked.wav']) {
      const found = await protocolAudioFile(project, 'demo-02', ana, withAudioPath('ana', 'demo-02', hostile));
      expect(found, hostile).toMatchObject({ ok: false, status: 403 });
      expect(JSON.stringify(found)).not.toContain(path.dirname(dir));
    }
    expect(await protocolAudioFile(project, 'demo-02', ana, withAudioPath('ana', 'demo-02', 'sessions/ana/audio/gone.wav'))).toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it('the URL shape: an item id and a number 1–99, nothing more', () => {
    expect(protocolAudioTarget(['demo-02', '3'])).toEqual({ ok: true, itemId: 'demo-02', protocol: 3 });
    expect(protocolAudioTarget(['../../x', '1'])).toEqual({ ok: true, itemId: '../../x', protocol: 1 });
    for (const bad of [
      ['demo-02'],
      ['demo-02', '1', 'x'],
      ['demo-02', '0'],
      ['demo-02', '01'],
      ['demo-02', 'ana'],
      ['demo-02', '100'],
      ['demo-02', '-1'],
      [' ', '1'],
      ['demo-02', '1e1'],
    ]) {
      expect(protocolAudioTarget(bad), bad.join('/')).toMatchObject({ ok: false, status: 404 });
    }
  });
});
