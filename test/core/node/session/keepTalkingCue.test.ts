import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { SessionService } from '../../../../core/node/session/sessionService';
import { SessionUsageError } from '../../../../core/common/session/sessionRefusals';

describe('keep-talking cue in the session log', () => {
  it('logs cue_shown with the item, the silence and where it fell on the audio timeline; refused when not recording', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-cue-')), 'proj');
    await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
    const project = await loadProjectConfig(dir);
    const service = await SessionService.open({ project, annotator: 'ana', items: await loadProjectItems(project) });
    await service.openItem('demo-02');
    await expect(service.logCue('keep_talking', 6000)).rejects.toThrow(SessionUsageError);
    await service.startRecording();
    for (let i = 0; i < 10; i++) await service.appendAudio(new Float32Array(3200)); // 2 s
    await service.logCue('keep_talking', 6012.4);
    await service.stopRecording();
    // the fold keeps the cue with its item (the review shows it on the waveform)
    expect(service.itemState('demo-02')?.cues).toMatchObject([{ silence_ms: 6012, audio_ms: 2000 }]);
    await service.close();
    const log = await readSessionLog(sessionPaths(dir, 'ana').events);
    const cues = log.events.filter((e) => e.type === 'cue_shown');
    expect(cues.map((e) => e.data)).toEqual([{ item_id: 'demo-02', cue: 'keep_talking', silence_ms: 6012, audio_ms: 2000 }]);
  });
});
