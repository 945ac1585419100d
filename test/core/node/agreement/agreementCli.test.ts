import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { SessionService } from '../../../../core/node/session/sessionService';
import { cli } from '../../../helpers/cli';

/** Labels items through the real session service (click/key labels; no engine needed) and closes the session. */
async function label(dir: string, annotator: string, plan: Array<[string, ...string[]]>): Promise<void> {
  const project = await loadProjectConfig(dir);
  const items = await loadProjectItems(project);
  const session = await SessionService.open({ project, annotator, items });
  try {
    for (const [itemId, ...labels] of plan) {
      await session.openItem(itemId);
      for (const l of labels) await session.commitLabel(l, 'click');
    }
  } finally {
    await session.close();
  }
}

describe('aloud agreement', () => {
  it('reads every annotator session of the project and reports alpha on blind and final labels', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-agree-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    await label(dir, 'ana', [['demo-01', 'Polite'], ['demo-08', 'Impolite'], ['demo-15', 'Neutral']]);
    await label(dir, 'ben', [['demo-01', 'Polite'], ['demo-08', 'Polite', 'Impolite'], ['demo-15', 'Neutral']]);
    const { code, out } = await cli('agreement', '--project', dir, '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.annotators).toEqual(['ana', 'ben']);
    expect(report.items).toBe(20);
    expect(report.final.alpha).toBe(1);
    expect(report.blind.alpha).toBeCloseTo(12 / 22, 10);
    const text = await cli('agreement', '--project', dir);
    expect(text.out).toContain('alpha, first (blind) labels: 0.545');
  });

  it('a missing project exits 2 with one line', async () => {
    const r = await cli('agreement', '--project', '/nonexistent/p');
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});
