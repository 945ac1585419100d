import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_DIR } from '../../../../core/node/project/projectFolder';
import { cli } from '../../../helpers/cli';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const clip = path.resolve(repo, '../shared/fixtures/audio/commit-polite.wav');

async function project(): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-record-cli-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  return dir;
}

describe.skipIf(!existsSync(clip))('the research record from the CLI (scripted engine)', () => {
  it('ingest gives Polite by voice in the second spoken part; a rename keeps it with config_changed; reparse --dry-run lists the change, writes nothing', async () => {
    const dir = await project();
    const script = path.join(dir, 'script.json');
    await writeFile(
      script,
      JSON.stringify({
        items: {
          'demo-01': [
            { text: 'Hmm, well. This reply is, um, kind of polite, I guess.', delay_ms: 200 },
            { text: 'I label this polite.', delay_ms: 1500 },
          ],
        },
      }),
    );
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
      '--json',
    );
    expect(ingest.code, ingest.err).toBe(0);
    expect(ingest.err).toContain('SCRIPTED');
    const item = JSON.parse(ingest.out).item;
    expect(item).toMatchObject({ final_label: 'Polite', label_source: 'voice', config_changed: false });
    const voice = item.label_history.find((h: { source: string }) => h.source === 'voice');
    // "I label this polite." is the clip's second spoken part: after 5.1 s of speech and 2 s of silence
    expect(voice.audio_ms).toBeGreaterThanOrEqual(6800);
    expect(voice.quote).toBe('I label this polite');

    const config = path.join(dir, 'aloud.yaml');
    await writeFile(config, (await readFile(config, 'utf8')).replace('name: Polite', 'name: Courteous').replace('[polite]', '[courteous]'));
    const show = await cli('session', 'show', '--project', dir, '--annotator', 'ana', '--json');
    expect(show.code, show.err).toBe(0);
    const state = JSON.parse(show.out);
    expect(state.config_changed).toBe(true);
    expect(state.items[0]).toMatchObject({ final_label: 'Polite', config_changed: true, labels_not_in_schema: ['Polite'] });
    expect(show.err).toContain('session reparse');

    const log = path.join(dir, 'sessions', 'ana', 'events.jsonl');
    const before = await readFile(log, 'utf8');
    const dry = await cli('session', 'reparse', '--project', dir, '--dry-run', '--json');
    expect(dry.code, dry.err).toBe(0);
    expect(JSON.parse(dry.out)).toMatchObject({
      dry_run: true,
      changed: 1,
      sessions: [
        {
          annotator: 'ana',
          items: [{ item_id: 'demo-01', from: 'Polite', to: null, voice_from: ['Polite'], voice_to: [], changed: true }],
        },
      ],
    });
    expect(await readFile(log, 'utf8')).toBe(before);

    // the export keeps the recorded label and says so, and validates against the renamed project
    const out = path.join(dir, 'exports-test.jsonl');
    const exported = await cli('export', '--project', dir, '--format', 'jsonl', '--out', out);
    expect(exported.code, exported.err).toBe(0);
    expect(exported.err).toContain('config_changed');
    const record = JSON.parse((await readFile(out, 'utf8')).split('\n')[0]!);
    expect(record).toMatchObject({
      schema_version: 5,
      final_label: 'Polite',
      config_changed: true,
      labels_not_in_schema: ['Polite'],
      model: { name: 'scripted', whisper_cpp: 'scripted' },
    });
    const validated = await cli('validate', out, '--project', dir);
    expect(validated.code, validated.out).toBe(0);
    expect(validated.err).toContain('SCRIPTED');

    const reparse = await cli('session', 'reparse', '--project', dir, '--json');
    expect(reparse.code, reparse.err).toBe(0);
    const after = JSON.parse((await cli('session', 'show', '--project', dir, '--annotator', 'ana', '--item', 'demo-01', '--json')).out);
    expect(after).toMatchObject({ final_label: null, config_changed: false });
    expect(
      (await readFile(log, 'utf8'))
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).type),
    ).toContain('labels_rederived');
  });

  it('session transcribe: audio recorded without a model gets its transcript and label afterwards', async () => {
    const dir = await project();
    const noModels = await mkdtemp(path.join(tmpdir(), 'aloud-no-models-'));
    const saved = process.env.ALOUD_MODELS_DIR;
    process.env.ALOUD_MODELS_DIR = noModels;
    try {
      // no model: the app records anyway; here the same through an engine script that answers nothing for demo-02
      const silent = path.join(dir, 'silent.json');
      await writeFile(silent, JSON.stringify({ items: {} }));
      expect(
        (
          await cli(
            'session',
            'ingest',
            '--project',
            dir,
            '--annotator',
            'ana',
            '--item',
            'demo-02',
            '--wav',
            clip,
            '--engine-script',
            silent,
          )
        ).code,
      ).toBe(0);
      const script = path.join(dir, 'later.json');
      await writeFile(script, JSON.stringify({ items: { 'demo-02': [{ text: 'Hmm.' }, { text: 'Final answer: neutral.' }] } }));
      const run = await cli(
        'session',
        'transcribe',
        '--project',
        dir,
        '--annotator',
        'ana',
        '--item',
        'demo-02',
        '--engine-script',
        script,
        '--json',
      );
      expect(run.code, run.err).toBe(0);
      expect(run.err).toContain('1/1 demo-02');
      expect(JSON.parse(run.out)).toMatchObject({
        transcribed: 1,
        items: [{ item_id: 'demo-02', final_label: 'Neutral', label_source: 'voice', transcript: 'Hmm. Final answer: neutral.' }],
      });
      const missing = await cli(
        'session',
        'transcribe',
        '--project',
        dir,
        '--annotator',
        'ana',
        '--item',
        'demo-05',
        '--engine-script',
        script,
      );
      expect(missing).toMatchObject({ code: 2, err: 'aloud session: --item: "demo-05" has no recorded audio in the session of "ana"\n' }); // before any engine loads
    } finally {
      if (saved === undefined) delete process.env.ALOUD_MODELS_DIR;
      else process.env.ALOUD_MODELS_DIR = saved;
      await rm(noModels, { recursive: true, force: true });
    }
  });

  it('validate warns about a missing receipt and fails with --require-receipt', async () => {
    const dir = await project();
    const script = path.join(dir, 'script.json');
    await writeFile(script, JSON.stringify({ items: { 'demo-01': [{ text: 'I label this polite.' }] } }));
    expect(
      (
        await cli(
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
        )
      ).code,
    ).toBe(0);
    const out = path.join(dir, 'e.csv');
    expect((await cli('export', '--project', dir, '--format', 'csv', '--out', out)).code).toBe(0);
    await rm(`${out}.receipt.json`);
    const warned = await cli('validate', out, '--project', dir);
    expect(warned.code).toBe(0);
    expect(warned.err).toContain('warning: no receipt');
    const strict = await cli('validate', out, '--project', dir, '--require-receipt');
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.out)).toEqual([expect.objectContaining({ file: `${out}.receipt.json`, stage: 'input' })]);
  });
});
