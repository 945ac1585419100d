import { appendFile, cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeWavPcm16 } from '../../../../core/node/audio/wavFile';
import { DEMO_PROJECT_DIR } from '../../../../core/node/project/projectFolder';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { cli } from '../../../helpers/cli';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const model = path.resolve(repo, '../shared/models/for-tests-ggml-tiny.en.bin');
const clip = path.resolve(repo, '../shared/fixtures/audio/commit-polite.wav');

async function project(): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-session-cli-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  return dir;
}

const ts = '2024-05-01T10:00:00.000Z';
const line = (seq: number, type: string, data: unknown) => `${JSON.stringify({ v: 1, seq, ts, type, data })}\n`;

async function writeLog(dir: string): Promise<string> {
  const paths = sessionPaths(dir, 'ana');
  await mkdir(paths.dir, { recursive: true });
  const segments = [{ t0_ms: 0, t1_ms: 1800, text: ' Hmm, kind of polite. I label this polite.' }];
  await writeFile(
    paths.events,
    line(1, 'session_started', { annotator: 'ana', project_name: 'politeness-demo', sample_rate: 16000 }) +
      line(2, 'item_opened', { item_id: 'demo-01' }) +
      line(3, 'utterance_transcribed', {
        item_id: 'demo-01',
        utterance: 0,
        request_id: 'r1',
        start_sample: 0,
        end_sample: 28800,
        segments,
        model: { name: 'tiny.en', sha256: 'x' },
      }) +
      // as the v1 service logged it when the transcription landed
      line(4, 'label_committed', {
        item_id: 'demo-01',
        label: 'Polite',
        source: 'voice',
        quote: 'I label this polite',
        start: 23,
        end: 42,
        stem: 'i label (this|it)',
      }) +
      line(5, 'item_opened', { item_id: 'demo-02' }),
  );
  return paths.events;
}

describe('aloud session show', () => {
  it('prints the folded state, or one item with the required fields', async () => {
    const dir = await project();
    await writeLog(dir);
    const all = await cli('session', 'show', '--project', dir, '--annotator', 'ana', '--json');
    expect(all.code).toBe(0);
    const state = JSON.parse(all.out);
    expect(state).toMatchObject({ annotator: 'ana', current_item: 'demo-02', recording: null });
    expect(state.items.map((i: { item_id: string }) => i.item_id)).toEqual(['demo-01', 'demo-02']);
    const one = await cli('session', 'show', '--project', dir, '--annotator', 'ana', '--item', 'demo-01', '--json');
    const item = JSON.parse(one.out);
    for (const field of ['audio_path', 'audio_ms', 'transcript', 'segments', 'commitments', 'final_label', 'label_source', 'signals'])
      expect(item).toHaveProperty(field);
    expect(item).toMatchObject({
      transcript: ' Hmm, kind of polite. I label this polite.',
      final_label: 'Polite',
      label_source: 'voice',
      audio_ms: 0,
      audio_path: null,
    });
    expect(item.commitments[0].quote).toBe('I label this polite');
    expect(item.signals).toMatchObject({ filler_count: 2, commitment_count: 1 });
  });

  it('reports a torn last line without changing the log, and names the line of other corruption', async () => {
    const dir = await project();
    const events = await writeLog(dir);
    await appendFile(events, '{"v":1,"seq":6,"ts":"2024-05-01T1');
    const torn = await cli('session', 'show', '--project', dir, '--annotator', 'ana', '--json');
    expect(torn.code).toBe(0);
    expect(torn.err).toContain(`${events}:6: torn last line`);
    await appendFile(events, '\n');
    const corrupt = await cli('session', 'show', '--project', dir, '--annotator', 'ana', '--json');
    expect(corrupt.code).toBe(2);
    expect(corrupt.err.trim()).toMatch(new RegExp(`^aloud session: ${events.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6: not valid JSON`));
  });

  it('bad arguments: one line, exit 2', async () => {
    const dir = await project();
    expect((await cli('session', 'show', '--project', dir, '--annotator', 'nobody')).err).toContain('no session of "nobody"');
    expect((await cli('session', 'show', '--project', dir)).err).toBe('aloud session: missing required option --annotator\n');
    expect((await cli('session', 'frobnicate')).err).toBe(
      'aloud session: unknown subcommand "frobnicate" (ingest, show, reparse, transcribe, pack, unpack, units or complete)\n',
    );
    await writeLog(dir);
    const unknown = await cli('session', 'show', '--project', dir, '--annotator', 'ana', '--item', 'demo-99', '--json');
    expect(unknown).toMatchObject({ code: 2, err: 'aloud session: --item: "demo-99" has no events in the session of "ana"\n' });
  });
});

/** A session that labelled `count` items by voice, as the service logs it. */
async function writeLongLog(dir: string, count: number): Promise<void> {
  const paths = sessionPaths(dir, 'ana');
  await mkdir(paths.dir, { recursive: true });
  const lines = [line(1, 'session_started', { annotator: 'ana', project_name: 'politeness-demo', sample_rate: 16000 })];
  for (let i = 0; i < count; i++) {
    const item_id = `item-${String(i).padStart(5, '0')}`;
    const seq = 2 + 3 * i;
    const text = ' Hmm, kind of polite. I label this polite.';
    lines.push(
      line(seq, 'item_opened', { item_id }),
      line(seq + 1, 'utterance_transcribed', {
        item_id,
        utterance: 0,
        request_id: `r${i}`,
        start_sample: 0,
        end_sample: 28800,
        segments: [{ t0_ms: 0, t1_ms: 1800, text }],
        model: { name: 'tiny.en', sha256: 'x' },
      }),
      line(seq + 2, 'label_committed', {
        item_id,
        label: 'Polite',
        source: 'voice',
        quote: 'I label this polite',
        start: 23,
        end: 42,
        stem: 'i label (this|it)',
      }),
    );
  }
  await writeFile(paths.events, lines.join(''));
}

describe('aloud session show for a pipeline: one item, or a page of items', () => {
  it('--item and --offset/--limit print what the whole state holds for those items, at a size that does not grow with the session', async () => {
    const sizes: number[] = [];
    for (const count of [30, 600]) {
      const dir = await project();
      await writeLongLog(dir, count);
      const show = (...args: string[]) => cli('session', 'show', '--project', dir, '--annotator', 'ana', '--json', ...args);
      const whole = JSON.parse((await show()).out) as { items: Array<{ item_id: string }> } & Record<string, unknown>;
      expect(whole.items).toHaveLength(count);

      const one = await show('--item', 'item-00017');
      expect(one.code, one.err).toBe(0);
      expect(JSON.parse(one.out)).toEqual(whole.items[17]);

      const page = await show('--offset', '10', '--limit', '3');
      expect(page.code, page.err).toBe(0);
      const paged = JSON.parse(page.out) as typeof whole;
      expect(paged).toEqual({ ...whole, items: whole.items.slice(10, 13), items_total: count, items_offset: 10 });
      // past the end: an empty page, still with the total
      expect(JSON.parse((await show('--offset', String(count), '--limit', '3')).out)).toMatchObject({ items: [], items_total: count });
      expect(JSON.parse((await show('--limit', '2')).out).items.map((i: { item_id: string }) => i.item_id)).toEqual([
        'item-00000',
        'item-00001',
      ]);
      sizes.push(one.out.length, page.out.length);
    }
    // the same item and page of a 20 times longer session: within a few digits (items_total)
    expect(Math.abs(sizes[0]! - sizes[2]!)).toBeLessThanOrEqual(4);
    expect(Math.abs(sizes[1]! - sizes[3]!)).toBeLessThanOrEqual(4);
  });

  it('--item with --limit or --offset, and a count that is not a whole number: one line, exit 2', async () => {
    const dir = await project();
    await writeLongLog(dir, 3);
    const show = (...args: string[]) => cli('session', 'show', '--project', dir, '--annotator', 'ana', '--json', ...args);
    expect(await show('--item', 'item-00001', '--limit', '1')).toMatchObject({
      code: 2,
      err: 'aloud session: --item shows one item: give --item, or --limit/--offset to page through the items\n',
    });
    expect(await show('--offset', '1.5')).toMatchObject({
      code: 2,
      err: 'aloud session: --offset must be a whole number of items, 0 or more (got "1.5")\n',
    });
  });
});

describe('aloud session ingest arguments', () => {
  it('without a model: exit 2 and a line saying how to get one', async () => {
    const dir = await project();
    const saved = process.env.ALOUD_MODELS_DIR;
    process.env.ALOUD_MODELS_DIR = await mkdtemp(path.join(tmpdir(), 'aloud-no-models-'));
    // a WAV of its own (a second of silence): the model is what is missing here, with or without ../shared
    const wav = path.join(dir, '..', 'silence.wav');
    await writeFile(wav, encodeWavPcm16(new Float32Array(16_000), 16_000));
    const r = await cli('session', 'ingest', '--project', dir, '--annotator', 'ana', '--item', 'demo-01', '--wav', wav).finally(() => {
      if (saved === undefined) delete process.env.ALOUD_MODELS_DIR;
      else process.env.ALOUD_MODELS_DIR = saved;
    });
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain('no whisper model "tiny.en"');
    expect(r.err).toContain('aloud models download tiny.en');
    expect(existsSync(path.join(dir, 'sessions'))).toBe(false);
  });

  it('an unknown item, a missing WAV and a bad annotator name are named', async () => {
    const dir = await project();
    const base = ['session', 'ingest', '--project', dir, '--annotator', 'ana', '--model', model];
    expect((await cli(...base, '--item', 'nope', '--wav', clip)).err).toBe('aloud session: --item: "nope" is not in items.jsonl\n');
    expect((await cli(...base, '--item', 'demo-01', '--wav', path.join(dir, 'missing.wav'))).err).toContain(
      `${path.join(dir, 'missing.wav')}: cannot read the file`,
    );
    const badName = await cli(
      'session',
      'ingest',
      '--project',
      dir,
      '--annotator',
      'a\tb',
      '--item',
      'demo-01',
      '--wav',
      clip,
      '--model',
      model,
    );
    expect(badName).toMatchObject({ code: 2, err: 'aloud session: annotator name "a\\tb" contains control characters\n' });
  });
});
