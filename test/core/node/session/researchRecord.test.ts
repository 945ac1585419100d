import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readWav, resampleTo16k } from '../../../../core/node/audio/wavFile';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems, type OpenProject } from '../../../../core/node/project/projectFolder';
import { openSessionEngine } from '../../../../core/node/engine/sessionEngine';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { SessionService } from '../../../../core/node/session/sessionService';
import { SpokenLabelRequiredError, TranscriptionPendingError } from '../../../../core/common/session/sessionRefusals';
import { correctSegment, rederiveFromCorrections } from '../../../../core/node/session/correctionActs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const clipFile = path.resolve(repo, '../shared/fixtures/audio/commit-polite.wav');
const haveClip = existsSync(clipFile);

async function demo(): Promise<{ project: OpenProject; items: Awaited<ReturnType<typeof loadProjectItems>>; dir: string }> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-record-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  const project = await loadProjectConfig(dir);
  return { project, items: await loadProjectItems(project), dir };
}

async function script(dir: string, results: Record<string, Array<{ text: string; delay_ms?: number }>>): Promise<string> {
  const file = path.join(dir, `script-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify({ items: results }));
  return file;
}

async function readClip(file: string): Promise<Float32Array> {
  const wav = await readWav(file);
  return resampleTo16k(wav.samples, wav.sampleRate);
}

/** The real session path (cutter, scheduler, identity check, parser, fold) with a scripted engine. */
async function open(setup: Awaited<ReturnType<typeof demo>>, engineScript: string | null) {
  const engine = engineScript ? await openSessionEngine({ project: setup.project, modelFile: null, engineScript }) : null;
  return SessionService.open({ project: setup.project, annotator: 'ana', items: setup.items, engine });
}

/** Records the clip into the current item as fast as it can (200 ms chunks). */
async function record(service: SessionService, pcm: Float32Array): Promise<void> {
  await service.startRecording({ device: 'test' });
  for (let at = 0; at < pcm.length; at += 3200) await service.appendAudio(pcm.subarray(at, Math.min(pcm.length, at + 3200)));
  await service.stopRecording();
}

const SAID = [
  { text: ' Hmm, well. This reply is, um, kind of polite, I guess.', delay_ms: 50 },
  { text: ' I label this polite.', delay_ms: 1500 },
];

describe.skipIf(!haveClip)('the research record, through the real session path with a scripted engine', () => {
  it('a click after the phrase wins although the transcript lands after the click; the phrase is the blind label', async () => {
    const setup = await demo();
    const service = await open(setup, await script(setup.dir, { 'demo-01': SAID }));
    try {
      await service.openItem('demo-01');
      await record(service, await readClip(clipFile));
      expect(service.pendingFor('demo-01')).toBeGreaterThan(0); // "I label this polite." is still being transcribed
      await service.commitLabel('Impolite', 'click');
      await service.drainTranscriptions();
      const item = service.itemState('demo-01')!;
      expect(item.label_history.map((h) => `${h.source}:${h.label}`)).toEqual(['voice:Polite', 'click:Impolite']);
      expect(item).toMatchObject({ final_label: 'Impolite', label_source: 'click', blind_label: 'Polite' });
      expect(item.label_history[0]!.audio_ms).toBeGreaterThanOrEqual(6800);
      expect(item.model?.sha256).toMatch(/^scripted:[0-9a-f]{64}$/);
    } finally {
      await service.close();
    }
  });

  it('a phrase said after a click wins, whenever its transcript lands', async () => {
    const setup = await demo();
    const service = await open(setup, await script(setup.dir, { 'demo-01': SAID }));
    try {
      await service.openItem('demo-01');
      await service.commitLabel('Impolite', 'key');
      await record(service, await readClip(clipFile));
      await service.drainTranscriptions();
      expect(service.itemState('demo-01')).toMatchObject({ final_label: 'Polite', label_source: 'voice', blind_label: 'Impolite' });
      expect(service.itemState('demo-01')!.signals?.label_changes).toBe(1);
    } finally {
      await service.close();
    }
  });

  it('"say it, then press Enter": completing waits for the pending transcription, and a bounded wait says so', async () => {
    const setup = await demo();
    const service = await open(
      setup,
      await script(setup.dir, { 'demo-01': SAID, 'demo-02': [{ text: ' Final answer: neutral.', delay_ms: 3000 }] }),
    );
    const finishing: Array<string | null> = [];
    service.on('finishing', (id) => finishing.push(id));
    try {
      await service.openItem('demo-01');
      await record(service, await readClip(clipFile));
      const done = await service.completeItem();
      expect(done).toMatchObject({ final_label: 'Polite', label_source: 'voice' });
      expect(done.completed_at).not.toBeNull();
      expect(finishing).toEqual(['demo-01', null]);

      await service.openItem('demo-02');
      await record(service, (await readClip(clipFile)).subarray(0, 16000 * 3));
      const refused = await service.completeItem({ waitMs: 100 }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(TranscriptionPendingError);
      expect((refused as Error).message).toContain('"demo-02" is still being transcribed');
      expect(service.itemState('demo-02')!.completed_at).toBeNull();
      await expect(service.completeItem()).resolves.toMatchObject({ final_label: 'Neutral' });
    } finally {
      await service.close();
    }
  });

  it('a spoken label is still required when nothing was said, and the refusal names the item in plain words', async () => {
    const setup = await demo();
    const service = await open(setup, await script(setup.dir, { 'demo-01': [{ text: ' Hmm.' }] }));
    try {
      await service.openItem('demo-01');
      await service.commitLabel('Neutral', 'key');
      await record(service, (await readClip(clipFile)).subarray(0, 16000));
      const refused = await service.completeItem().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SpokenLabelRequiredError);
      expect((refused as Error).message).toMatch(/^"demo-01" needs a spoken label/);
    } finally {
      await service.close();
    }
  });

  it('corrections are a layer; labels follow them only when re-derived (source correction)', async () => {
    const setup = await demo();
    const service = await open(setup, await script(setup.dir, { 'demo-01': [{ text: ' Hmm.' }, { text: ' I label this polar.' }] }));
    try {
      await service.openItem('demo-01');
      await record(service, await readClip(clipFile));
      await service.drainTranscriptions();
      const before = service.itemState('demo-01')!;
      expect(before.final_label).toBeNull();
      const ref = before.segment_refs[before.segments.findIndex((s) => s.text.includes('polar'))]!;
      const corrected = await correctSegment(service, 'demo-01', ref.utterance, ref.segment, ' I label this polite.');
      expect(corrected.transcript).toBe(before.transcript);
      expect(corrected.transcript_corrected).toBe(' Hmm. I label this polite.');
      expect(corrected.final_label).toBeNull();
      await expect(correctSegment(service, 'demo-01', 9, 0, 'x')).rejects.toThrow('"demo-01" has no segment 0 in utterance 9');
      const { state, label } = await rederiveFromCorrections(service, 'demo-01');
      expect(label).toBe('Polite');
      expect(state).toMatchObject({ final_label: 'Polite', label_source: 'correction' });
      expect(state.label_history.at(-1)).toMatchObject({ source: 'correction', quote: 'I label this polite' });
    } finally {
      await service.close();
    }
    const { events } = await readSessionLog(sessionPaths(setup.dir, 'ana').events);
    const correction = events.find((e) => e.type === 'transcript_corrected')!;
    expect(correction.data).toMatchObject({ item_id: 'demo-01', text: ' I label this polite.', annotator: 'ana' });
  });

  it('transcribe later: audio recorded without a model is transcribed afterwards; a second pass supersedes, never deletes', async () => {
    const setup = await demo();
    const pcm = await readClip(clipFile);
    let service = await open(setup, null);
    await service.openItem('demo-01');
    await record(service, pcm);
    expect(service.itemState('demo-01')).toMatchObject({ transcript: '', final_label: null });
    await service.close();

    service = await open(setup, await script(setup.dir, { 'demo-01': [{ text: ' Hmm, well.' }, { text: ' I label this neutral.' }] }));
    let item = await service.transcribeAgain('demo-01', readClip, 'transcribed later');
    expect(item).toMatchObject({ transcript: ' Hmm, well. I label this neutral.', final_label: 'Neutral', superseded_transcripts: [] });
    await service.close();

    service = await open(setup, await script(setup.dir, { 'demo-01': [{ text: ' Hmm, well.' }, { text: ' I label this polite.' }] }));
    try {
      item = await service.transcribeAgain('demo-01', readClip, 'transcribed again with another model');
      expect(item.transcript).toBe(' Hmm, well. I label this polite.');
      expect(item.superseded_transcripts.map((s) => s.text)).toEqual([' Hmm, well.', ' I label this neutral.']);
      expect(item.superseded_transcripts[0]!.reason).toBe('transcribed again with another model');
      expect(item.label_history.map((h) => h.label)).toEqual(['Polite']);
      expect(item.segment_refs.map((r) => r.utterance)).toEqual([2, 3]);
    } finally {
      await service.close();
    }
  });

  it('a label key on a completed item asks first, then is a logged change after completion, visible in the state', async () => {
    const setup = await demo();
    const service = await open(setup, await script(setup.dir, { 'demo-01': [{ text: ' I label this polite.' }] }));
    try {
      await service.openItem('demo-01');
      await record(service, (await readClip(clipFile)).subarray(0, 16000 * 2));
      await service.completeItem();
      await expect(service.commitLabel('Neutral', 'key')).rejects.toMatchObject({ code: 'confirmation_required' });
      const after = await service.commitLabel('Neutral', 'key', { confirmed: true });
      expect(after).toMatchObject({ final_label: 'Neutral', changed_after_completion: true });
    } finally {
      await service.close();
    }
    const { events } = await readSessionLog(sessionPaths(setup.dir, 'ana').events);
    expect(events.filter((e) => e.type === 'label_changed').map((e) => e.data)).toEqual([
      { item_id: 'demo-01', from: 'Polite', to: 'Neutral', source: 'key', after_completion: true, reviewer: null },
    ]);
  });
});

describe.skipIf(!haveClip)('review findings, through the real session path', () => {
  it('recording again after the configuration changed keeps the labels logged before (only reparse re-derives)', async () => {
    const setup = await demo();
    let service = await open(setup, await script(setup.dir, { 'demo-01': [{ text: ' I label this polite.' }, { text: ' Hmm.' }] }));
    await service.openItem('demo-01');
    await record(service, (await readClip(clipFile)).subarray(0, 16000 * 2));
    await service.drainTranscriptions();
    await service.close();
    const config = await readFile(path.join(setup.dir, 'aloud.yaml'), 'utf8');
    await writeFile(
      path.join(setup.dir, 'aloud.yaml'),
      config.replace('name: Polite', 'name: Courteous').replace('[polite]', '[polite, courteous]'),
    );
    const project = await loadProjectConfig(setup.dir);
    const again = { ...setup, project };
    service = await open(again, await script(setup.dir, { 'demo-01': [{ text: ' Hmm.' }] }));
    try {
      await service.openItem('demo-01');
      await record(service, (await readClip(clipFile)).subarray(0, 16000 * 2));
      await service.drainTranscriptions();
      const item = service.itemState('demo-01')!;
      expect(item.label_history.map((h) => h.label)).toEqual(['Polite']);
      expect(item).toMatchObject({ final_label: 'Polite', config_changed: true, labels_not_in_schema: ['Polite'] });
    } finally {
      await service.close();
    }
  });

  it('leaving an item while its last utterance is transcribed keeps that utterance and its label', async () => {
    const setup = await demo();
    const service = await open(setup, await script(setup.dir, { 'demo-01': SAID }));
    try {
      await service.openItem('demo-01');
      await record(service, await readClip(clipFile));
      await service.openItem('demo-02');
      await service.drainTranscriptions();
      expect(service.itemState('demo-01')).toMatchObject({ final_label: 'Polite', stale_results: 0 });
    } finally {
      await service.close();
    }
  });

  it('a transcribe-again pass that fails changes nothing: transcript and labels stay', async () => {
    const setup = await demo();
    let service = await open(setup, await script(setup.dir, { 'demo-01': SAID }));
    await service.openItem('demo-01');
    await record(service, await readClip(clipFile));
    await service.drainTranscriptions();
    const before = service.itemState('demo-01')!;
    await service.close();
    const failing = await openSessionEngine({ project: setup.project, modelFile: null, engineScript: await script(setup.dir, {}) });
    const broken = {
      ...failing,
      transcriber: {
        transcribe: () => Promise.reject(new Error('engine crashed')),
        cancelItem: () => undefined,
        close: () => failing.transcriber.close(),
      },
    };
    service = await SessionService.open({ project: setup.project, annotator: 'ana', items: setup.items, engine: broken });
    try {
      await expect(service.transcribeAgain('demo-01', readClip, 'again')).rejects.toThrow('engine crashed');
      const after = service.itemState('demo-01')!;
      expect(after).toMatchObject({ transcript: before.transcript, final_label: 'Polite', superseded_transcripts: [] });
    } finally {
      await service.close();
    }
  });
});
