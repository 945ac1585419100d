import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeWavPcm16 } from '../../../../core/node/audio/wavFile';
import { cli } from '../../../helpers/cli';
import { threeAnnotatorStudy } from './adjudicationStudy';

/** Every file under sessions/, path → bytes. */
async function sessionBytes(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const root = path.join(dir, 'sessions');
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files.set(path.relative(root, path.join(entry.parentPath, entry.name)), await readFile(path.join(entry.parentPath, entry.name)));
  }
  return files;
}

/** A second of a 220 Hz tone at 16 kHz: audio the scripted engine "hears". */
function toneWav(seconds = 1): Uint8Array {
  const samples = new Float32Array(16000 * seconds);
  for (let i = 0; i < samples.length; i++) samples[i] = 0.2 * Math.sin((2 * Math.PI * 220 * i) / 16000);
  return encodeWavPcm16(samples, 16000);
}

const SAID = ' Ben changed his mind, and the sarcasm cue is weak, so I keep polite.';

describe('aloud adjudicate --rationale-audio', () => {
  it("transcribes the lead's spoken rationale verbatim, keeps the WAV in her folder, logs both in her log, exports them", async () => {
    const dir = await threeAnnotatorStudy();
    const before = await sessionBytes(dir);
    const wav = path.join(path.dirname(dir), 'why.wav');
    await writeFile(wav, toneWav());
    const script = path.join(path.dirname(dir), 'engine.json');
    await writeFile(script, JSON.stringify({ items: { 'demo-02': [{ text: SAID, delay_ms: 0 }] } }));
    const args = ['adjudicate', '--project', dir, '--as', 'lead', '--item', 'demo-02', '--label', 'Polite', '--confidence', 'medium'];
    const decided = await cli(...args, '--cause', 'edge case', '--rationale-audio', wav, '--engine-script', script, '--json');
    expect([decided.code, decided.err]).toEqual([0, '']);
    const sha = createHash('sha256')
      .update(await readFile(wav))
      .digest('hex');
    const audio = `adjudication/lead/rationales/${sha}.wav`;
    expect(JSON.parse(decided.out).decision).toMatchObject({ rationale: SAID.trim(), rationale_kind: 'spoken', rationale_audio: audio });
    expect(await readFile(path.join(dir, audio))).toEqual(await readFile(wav));

    const log = (await readFile(path.join(dir, 'adjudication', 'lead', 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log[1]).toMatchObject({
      v: 2,
      type: 'decision_recorded',
      data: {
        rationale: { kind: 'spoken', text: SAID.trim(), audio, audio_sha256: sha, audio_ms: 1000, model: { name: 'scripted' } },
      },
    });
    expect(log[1].data.rationale.model.sha256).toMatch(/^scripted:[0-9a-f]{64}$/);

    const out = path.join(path.dirname(dir), 'gold.jsonl');
    expect((await cli('export', '--project', dir, '--gold', '--format', 'jsonl', '--out', out)).code).toBe(0);
    const record = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((r: { item_id: string }) => r.item_id === 'demo-02');
    expect(record).toMatchObject({
      schema_version: 2,
      gold_source: 'adjudicated',
      adjudication: { rationale: SAID.trim(), rationale_kind: 'spoken', rationale_audio: { file: audio, sha256: sha, audio_ms: 1000 } },
      label_model: null,
    });
    for (const format of ['json', 'csv']) {
      const file = path.join(path.dirname(dir), `gold.${format}`);
      expect((await cli('export', '--project', dir, '--gold', '--format', format, '--out', file)).code).toBe(0);
      expect((await cli('validate', file, '--project', dir, '--require-receipt')).out.trim()).toBe('[]');
    }
    // the annotators' logs are read, never written
    expect(await sessionBytes(dir)).toEqual(before);
  });

  it('refuses, in one line with exit 2 and nothing kept, a missing file, a non-WAV, silence, and a typed rationale beside it', async () => {
    const dir = await threeAnnotatorStudy();
    const script = path.join(path.dirname(dir), 'engine.json');
    await writeFile(script, JSON.stringify({ items: { 'demo-02': [] } }));
    const notWav = path.join(path.dirname(dir), 'notes.wav');
    await writeFile(notWav, 'just text');
    const wav = path.join(path.dirname(dir), 'silent.wav');
    await writeFile(wav, toneWav());
    const base = ['adjudicate', '--project', dir, '--as', 'lead', '--item', 'demo-02', '--label', 'Polite', '--confidence', 'high'];
    const cases: Array<[string[], RegExp]> = [
      [['--rationale-audio', path.join(dir, 'nope.wav')], /--rationale-audio: .*nope\.wav is not a file/],
      [['--rationale-audio', notWav], /notes\.wav: not a WAV file/],
      [['--rationale-audio', wav], /the spoken rationale transcribes to no words/],
      [['--rationale-audio', wav, '--rationale', 'typed'], /--rationale-audio goes with a decision \(--label\), instead of --rationale/],
    ];
    for (const [extra, message] of cases) {
      const r = await cli(...base, '--cause', 'edge case', ...extra, '--engine-script', script);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
    const lead = await readdir(path.join(dir, 'adjudication', 'lead')).catch(() => []);
    expect(lead).not.toContain('rationales');
  });
});

describe('logs and exports from before spoken rationales', () => {
  it('a version-1 decision line is read as it was (typed rationale), and the line on disk is never rewritten', async () => {
    const { readProjectAdjudication } = await import('../../../../core/node/adjudication/adjudicationLog');
    const { mkdir } = await import('node:fs/promises');
    const dir = await threeAnnotatorStudy();
    const v1 = [
      { v: 1, seq: 1, ts: '2026-01-01T00:00:00.000Z', type: 'adjudication_started', data: { adjudicator: 'lead', project: 'demo' } },
      {
        v: 1,
        seq: 2,
        ts: '2026-01-01T00:00:01.000Z',
        type: 'decision_recorded',
        data: {
          item_id: 'demo-02',
          label: 'Polite',
          adopted: ['ana', 'ben'],
          confidence: 'high',
          causes: ['edge case'],
          rationale: { kind: 'typed', text: 'typed in v1' },
          guideline_flag: null,
          room: null,
          revises: null,
          labels_seen: [],
        },
      },
    ];
    const file = path.join(dir, 'adjudication', 'lead', 'events.jsonl');
    await mkdir(path.dirname(file), { recursive: true });
    const text = v1.map((e) => `${JSON.stringify(e)}\n`).join('');
    await writeFile(file, text);
    const { state } = await readProjectAdjudication(dir);
    expect(state.decisions.get('demo-02')![0]).toMatchObject({ rationale: { kind: 'typed', text: 'typed in v1' }, seq: 2 });
    // a new decision appends a v2 line after the v1 ones, which stay byte for byte
    const r = await cli(
      'adjudicate',
      '--project',
      dir,
      '--as',
      'lead',
      '--item',
      'demo-03',
      '--label',
      'Neutral',
      '--confidence',
      'low',
      '--cause',
      'edge case',
    );
    expect(r.code).toBe(0);
    const after = await readFile(file, 'utf8');
    expect(after.startsWith(text)).toBe(true);
    expect(JSON.parse(after.trim().split('\n')[2]!)).toMatchObject({ v: 2, seq: 3, type: 'decision_recorded' });
  });

  it('a schema_version 1 gold export still validates, read as version 2 (typed rationales, no label model)', async () => {
    const { readGoldFile } = await import('../../../../core/common/adjudication/goldRecord');
    const record = {
      schema_version: 1,
      project: 'demo',
      item_id: 'demo-02',
      gold_label: 'Polite',
      gold_source: 'adjudicated',
      agreement: 1 / 3,
      annotators: [{ annotator: 'ana', final_label: 'Polite', blind_label: 'Polite' }],
      adjudication: {
        adjudicator: 'lead',
        label: 'Polite',
        confidence: 'high',
        causes: ['edge case'],
        rationale: 'typed in v1',
        guideline_flag: null,
        adopted: ['ana'],
        decided_at: '2026-01-01T00:00:01.000Z',
        room: null,
        revisions: 0,
      },
    };
    const read = readGoldFile(`${JSON.stringify(record)}\n`, 'jsonl', 'old.jsonl');
    expect(read.problems).toEqual([]);
    expect(read.records[0]).toMatchObject({
      schema_version: 2,
      label_model: null,
      adjudication: { rationale_kind: 'typed', rationale_audio: null },
    });
    // a v1 record with a v2 field is refused by the v1 schema
    expect(readGoldFile(`${JSON.stringify({ ...record, label_model: null })}\n`, 'jsonl', 'old.jsonl').problems).not.toEqual([]);
  });
});
