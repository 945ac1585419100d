import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeWavPcm16 } from '../../../../core/node/audio/wavFile';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { SessionStore } from '../../../../core/node/session/sessionStore';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { cli } from '../../../helpers/cli';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.resolve(here, '../../common/session/fixtures/session-v1.jsonl');

describe('a session log written before the record became the log (v1 events)', () => {
  it('opens, folds, resumes for writing and exports as v3, with what v1 did not record left null', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-v1-')), 'proj');
    await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
    const paths = sessionPaths(dir, 'ana');
    await mkdir(paths.audioDir, { recursive: true });
    await writeFile(paths.events, await readFile(fixture));
    await writeFile(path.join(paths.audioDir, 'demo-01.wav'), encodeWavPcm16(new Float32Array(32_000).fill(0.1), 16_000));

    const show = await cli('session', 'show', '--project', dir, '--annotator', 'ana', '--item', 'demo-01', '--json');
    expect(show.code, show.err).toBe(0);
    expect(JSON.parse(show.out)).toMatchObject({
      final_label: 'Neutral',
      label_source: 'key',
      blind_label: 'Polite',
      config_changed: false,
      parser_version: null,
    });

    // nothing to re-derive: reparse only reads
    const reparse = await cli('session', 'reparse', '--project', dir, '--annotator', 'ana', '--json');
    expect(reparse.code, reparse.err).toBe(0);
    expect(JSON.parse(reparse.out)).toMatchObject({ changed: 0 });
    // opening for writing appends current events after the v1 ones; the log stays readable
    const store = await SessionStore.open({ project: await loadProjectConfig(dir), annotator: 'ana' });
    await store.close();
    const lines = (await readFile(paths.events, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { v: number; type: string });
    expect(lines.slice(0, 14).every((l) => l.v <= 1)).toBe(true);
    expect(lines[14]).toMatchObject({ v: 4, type: 'session_resumed' });

    const out = path.join(dir, 'v1.jsonl');
    const exported = await cli('export', '--project', dir, '--format', 'jsonl', '--out', out);
    expect(exported.code, exported.err).toBe(0);
    const record = JSON.parse((await readFile(out, 'utf8')).split('\n')[0]!);
    expect(record).toMatchObject({
      schema_version: 5,
      item_id: 'demo-01',
      final_label: 'Neutral',
      blind_label: 'Polite',
      model: { name: 'tiny.en', whisper_cpp: null },
      label_history: [
        { label: 'Polite', source: 'voice', audio_ms: 1920, quote: 'I label this polite' },
        { label: 'Neutral', source: 'key', audio_ms: null, quote: null },
      ],
    });
    const note = JSON.parse((await readFile(out, 'utf8')).split('\n')[1]!);
    expect(note).toMatchObject({ item_id: 'demo-02', notes: [{ text: 'skipped: the reply is cut off' }] });
    const validated = await cli('validate', out, '--project', dir);
    expect(validated.code, validated.out).toBe(0);
  });
});
