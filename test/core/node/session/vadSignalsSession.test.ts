// The voice-activity signals on the real session path: a recording stops → signals_computed carries the energy
// signals as before and the vad_* ones (Silero VAD over the item's whole WAV) → the fold, JSONL and CSV exports.
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExportRecordV2 } from '../../../../core/common/export/exportRecord';
import { formatCsv, parseCsv } from '../../../../core/common/io/csv';
import { computeAudioSignals } from '../../../../core/common/signals/audioSignals';
import { computeVadSignals } from '../../../../core/common/signals/vadSignals';
import { readWav } from '../../../../core/node/audio/wavFile';
import { openSessionEngine, VAD_MODEL_ENV } from '../../../../core/node/engine/sessionEngine';
import { SileroVad } from '../../../../core/node/engine/sileroVad';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';

import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { SessionService } from '../../../../core/node/session/sessionService';
import { cli } from '../../../helpers/cli';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const VAD_MODEL = path.resolve(repo, '../shared/models/for-tests-silero-v6.2.0-ggml.bin');
const JFK = path.resolve(repo, '../shared/fixtures/audio/real-speech-jfk.wav');

const before = process.env[VAD_MODEL_ENV];
afterEach(() => {
  if (before === undefined) delete process.env[VAD_MODEL_ENV];
  else process.env[VAD_MODEL_ENV] = before;
});

/** Records jfk.wav into demo-01 through a session whose cutter has the VAD at `vadModel` (or none), and stops. */
async function recordJfk(vadModel: string): Promise<{ dir: string; wav: string }> {
  process.env[VAD_MODEL_ENV] = vadModel;
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-vad-signals-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  const project = await loadProjectConfig(dir);
  const script = path.join(dir, 'script.json');
  await writeFile(
    script,
    JSON.stringify({ items: { 'demo-01': [{ text: ' And so, my fellow Americans.' }, { text: ' I label this polite.' }] } }),
  );
  const engine = await openSessionEngine({ project, modelFile: null, engineScript: script });
  const service = await SessionService.open({ project, annotator: 'ana', items: await loadProjectItems(project), engine });
  try {
    await service.openItem('demo-01');
    await service.startRecording({ device: 'test' });
    const pcm = (await readWav(JFK)).samples;
    for (let at = 0; at < pcm.length; at += 1600) await service.appendAudio(pcm.subarray(at, Math.min(pcm.length, at + 1600)));
    await service.stopRecording();
  } finally {
    await service.close();
  }
  return { dir, wav: path.join(sessionPaths(dir, 'ana').audioDir, 'demo-01.wav') };
}

/** The export's CSV as its header and the fields of each row. */
async function readCsv(file: string): Promise<{ header: string[]; rows: string[][] }> {
  const table = parseCsv(await readFile(file, 'utf8'), file);
  return { header: table.header, rows: table.rows.map((r) => r.fields) };
}

/** The CSV with only the columns `keep` says yes to. */
const withColumns = (header: string[], rows: string[][], keep: (name: string) => boolean): string => {
  const at = header.map((name, i) => (keep(name) ? i : -1)).filter((i) => i >= 0);
  return formatCsv(
    at.map((i) => header[i]!),
    rows.map((r) => at.map((i) => r[i] ?? '')),
  );
};

async function signalsEvents(dir: string) {
  const log = await readSessionLog(sessionPaths(dir, 'ana').events);
  return log.events.filter((e) => e.type === 'signals_computed');
}

describe.skipIf(!existsSync(VAD_MODEL) || !existsSync(JFK))('vad_* signals beside the energy ones', () => {
  it('are logged when a recording stops, over the item WAV, and reach the JSONL and CSV exports', { timeout: 60_000 }, async () => {
    const { dir, wav } = await recordJfk(VAD_MODEL);
    const [computed] = await signalsEvents(dir);
    if (computed?.type !== 'signals_computed') throw new Error('no signals_computed event');
    const samples = (await readWav(wav)).samples;
    // the VAD figures are Silero's over the whole WAV from a fresh state: its three pauses between four speech parts
    // (with the project's pause thresholds, the same as the energy pauses)
    const t = (await loadProjectConfig(dir)).config.thinkaloud;
    const vad = SileroVad.load(VAD_MODEL);
    const expected = computeVadSignals(vad.probabilitiesOf(samples), vad.windowSamples, 16000, {
      min_pause_ms: t.min_pause_ms,
      long_pause_ms: t.long_pause_ms,
    });
    vad.free();
    expect(computed.data.vad).toEqual(expected);
    expect(computed.data.vad!.vad_pauses.count).toBe(3);
    // the energy figures stay exactly what they were
    expect(computed.data.audio).toEqual(
      computeAudioSignals(samples, 16000, {
        chunk_seconds: t.chunk_seconds,
        silence_threshold_dbfs: t.silence_threshold_dbfs,
        min_pause_ms: t.min_pause_ms,
        long_pause_ms: t.long_pause_ms,
      }),
    );

    const show = await cli('session', 'show', '--project', dir, '--annotator', 'ana', '--json');
    expect(show.code).toBe(0);
    const shown = (JSON.parse(show.out) as { items: Array<{ item_id: string; signals: Record<string, unknown> }> }).items.find(
      (i) => i.item_id === 'demo-01',
    )!;
    expect(shown.signals).toMatchObject({
      vad_speech_ms: expected.vad_speech_ms,
      vad_pauses: expected.vad_pauses,
      silent_chunks: computed.data.audio.silent_chunks,
    });

    const jsonl = path.join(dir, 'out.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', jsonl)).code).toBe(0);
    const record = (await readFile(jsonl, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExportRecordV2)
      .find((r) => r.item_id === 'demo-01')!;
    expect(record.signals).toMatchObject({
      vad_speech_ms: expected.vad_speech_ms,
      vad_pauses: expected.vad_pauses,
      vad_time_to_first_speech_ms: expected.vad_time_to_first_speech_ms,
      pauses: computed.data.audio.pauses,
      time_to_first_speech_ms: computed.data.audio.time_to_first_speech_ms,
    });

    const csv = path.join(dir, 'out.csv');
    expect((await cli('export', '--project', dir, '--format', 'csv', '--out', csv)).code).toBe(0);
    const { header, rows } = await readCsv(csv);
    const row = rows.find((r) => r[header.indexOf('item_id')] === 'demo-01')!;
    expect(Number(row[header.indexOf('vad_pause_count')])).toBe(3);
    expect(Number(row[header.indexOf('vad_speech_ms')])).toBe(expected.vad_speech_ms);
    expect(Number(row[header.indexOf('pause_count')])).toBe(computed.data.audio.pauses.count);
    expect((await cli('validate', csv, '--project', dir)).code).toBe(0);
  });

  it(
    'are null without the VAD model; exports leave them empty, and files written before they existed still validate',
    { timeout: 60_000 },
    async () => {
      const { dir } = await recordJfk(path.join(tmpdir(), 'no-such-vad-model.bin'));
      const [computed] = await signalsEvents(dir);
      if (computed?.type !== 'signals_computed') throw new Error('no signals_computed event');
      expect(computed.data.vad).toBeNull();
      expect(computed.data.audio.total_chunks).toBeGreaterThan(0);

      const jsonl = path.join(dir, 'out.jsonl');
      expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', jsonl)).code).toBe(0);
      const lines = (await readFile(jsonl, 'utf8')).trim().split('\n');
      const record = lines.map((l) => JSON.parse(l) as ExportRecordV2).find((r) => r.item_id === 'demo-01')!;
      expect(record.signals).toMatchObject({ vad_speech_ms: null, vad_pauses: null, vad_time_to_first_speech_ms: null });

      // a v2 export from before the vad_* signals: no such fields, no such columns
      const older = path.join(dir, 'older.jsonl');
      await writeFile(
        older,
        `${lines
          .map((l) => {
            const r = JSON.parse(l) as ExportRecordV2;
            if (r.signals) {
              delete r.signals.vad_speech_ms;
              delete r.signals.vad_pauses;
              delete r.signals.vad_time_to_first_speech_ms;
            }
            return JSON.stringify(r);
          })
          .join('\n')}\n`,
      );
      expect((await cli('validate', older, '--project', dir)).code).toBe(0);
      const csv = path.join(dir, 'out.csv');
      expect((await cli('export', '--project', dir, '--format', 'csv', '--out', csv)).code).toBe(0);
      const { header, rows } = await readCsv(csv);
      expect(rows.find((r) => r[header.indexOf('item_id')] === 'demo-01')![header.indexOf('vad_pause_count')]).toBe('');
      const olderCsv = path.join(dir, 'older.csv');
      await writeFile(
        olderCsv,
        withColumns(header, rows, (name) => !name.startsWith('vad_')),
      );
      const validated = await cli('validate', olderCsv, '--project', dir);
      expect(validated.err).not.toMatch(/column|schema/);
      expect(validated.code).toBe(0);
      // but not some of them: the vad_* columns come all together
      const cutCsv = path.join(dir, 'cut.csv');
      await writeFile(
        cutCsv,
        withColumns(header, rows, (name) => name !== 'vad_pause_count'),
      );
      const refused = await cli('validate', cutCsv, '--project', dir);
      expect(refused.code).not.toBe(0);
      expect(`${refused.out}${refused.err}`).toMatch(/vad_pause_count.*the vad_\* columns come all together/);
    },
  );

  it(
    'transcribing a recording again once the VAD is installed logs its vad_* signals; never while anything records',
    { timeout: 60_000 },
    async () => {
      const { dir } = await recordJfk(path.join(tmpdir(), 'no-such-vad-model.bin'));
      expect((await signalsEvents(dir)).map((e) => e.type === 'signals_computed' && e.data.vad)).toEqual([null]);
      process.env[VAD_MODEL_ENV] = VAD_MODEL;
      const project = await loadProjectConfig(dir);
      const script = path.join(dir, 'script2.json');
      await writeFile(
        script,
        JSON.stringify({
          items: {
            'demo-01': [{ text: ' And so.' }, { text: ' Ask not.' }, { text: ' What you can do.' }, { text: ' For your country.' }],
          },
        }),
      );
      const engine = await openSessionEngine({ project, modelFile: null, engineScript: script });
      const service = await SessionService.open({ project, annotator: 'ana', items: await loadProjectItems(project), engine });
      const read = async (file: string): Promise<Float32Array> => (await readWav(file)).samples;
      try {
        await service.openItem('demo-02');
        await service.startRecording({ device: 'test' });
        await expect(service.transcribeAgain('demo-01', read, 'test')).rejects.toThrow(
          /"demo-02" is being recorded; stop the recording before transcribing "demo-01" again/,
        );
        await service.stopRecording();
        await service.transcribeAgain('demo-01', read, 'test');
      } finally {
        await service.close();
      }
      const computed = (await signalsEvents(dir)).filter((e) => e.type === 'signals_computed' && e.data.item_id === 'demo-01');
      expect(computed).toHaveLength(2);
      const last = computed.at(-1)!;
      if (last.type !== 'signals_computed') throw new Error('unreachable');
      expect(last.data.vad?.vad_pauses.count).toBe(3);
      const show = await cli('session', 'show', '--project', dir, '--annotator', 'ana', '--json');
      const shown = (JSON.parse(show.out) as { items: Array<{ item_id: string; signals: Record<string, unknown> }> }).items.find(
        (i) => i.item_id === 'demo-01',
      )!;
      expect(shown.signals).toMatchObject({ vad_pauses: { count: 3 } });
    },
  );
});
