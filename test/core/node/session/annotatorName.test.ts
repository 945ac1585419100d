import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initProject } from '../../../../core/node/project/projectFolder';
import { SessionService } from '../../../../core/node/session/sessionService';

describe('annotator names', () => {
  it('are one person whether typed precomposed or decomposed, with or without stray spaces', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-names-')), 'p');
    const project = await initProject(dir, { demo: true });
    for (const spelling of ['Zoe\u0308 ', 'Zo\u00eb', '  Zo\u00eb']) {
      const session = await SessionService.open({ project, annotator: spelling });
      await session.openItem('demo-01');
      await session.close();
    }
    expect(await readdir(path.join(dir, 'sessions'))).toHaveLength(1);
    const session = await SessionService.open({ project, annotator: 'Zo\u00eb' });
    expect(session.state().annotator).toBe('Zo\u00eb');
    await session.close();
  });
});
