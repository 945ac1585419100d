import { existsSync } from 'node:fs';
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { projectInitialPrompt } from '../../../../core/common/engine/initialPrompt';
import { ScriptedEngine } from '../../../../core/node/engine/scriptedEngine';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { cli } from '../../../helpers/cli';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const clip = path.resolve(repo, '../shared/fixtures/audio/commit-polite.wav');

afterEach(() => {
  vi.restoreAllMocks();
});

describe.skipIf(!existsSync(clip))("the session's engine gets the project's initial prompt", () => {
  it('every transcription of a session is asked with the label names, synonyms and commit phrases before the filler prompt', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-prompt-')), 'proj');
    await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
    const script = path.join(dir, 'script.json');
    await writeFile(script, JSON.stringify({ items: { 'demo-01': [{ text: ' Hmm.' }, { text: ' I label this polite.' }] } }));
    const transcribe = vi.spyOn(ScriptedEngine.prototype, 'transcribe');
    const ingest = await cli(
      'session',
      'ingest',
      '--project',
      dir,
      '--annotator',
      'ana',
      '--item',
      'demo-01',
      '--wav',
      clip,
      '--engine-script',
      script,
    );
    expect(ingest.code, ingest.err).toBe(0);
    const { config } = await loadProjectConfig(dir);
    const expected = projectInitialPrompt({
      labels: config.schema.labels,
      languages: config.thinkaloud.languages,
      stems: config.thinkaloud.stems,
    });
    expect(expected.startsWith('I label this polite, impolite, neutral.')).toBe(true);
    expect(transcribe.mock.calls.length).toBeGreaterThanOrEqual(2);
    for (const [input] of transcribe.mock.calls) expect(input.settings?.initialPrompt).toBe(expected);
  });
});
