import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeWav } from '../../../../core/node/audio/wavFile';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { DurableWriteError } from '../../../../core/node/fs/durableFile';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import type { SessionEngine } from '../../../../core/node/engine/sessionEngine';
import { SessionService } from '../../../../core/node/session/sessionService';
import { SessionUsageError, SpokenLabelRequiredError } from '../../../../core/common/session/sessionRefusals';
import type { UtteranceRequest } from '../../../../core/common/engine/transcriptionScheduler';
import { everySamples } from './everySamples';
import { faultyFs } from './faultyFs';

async function demo() {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-service-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  const project = await loadProjectConfig(dir);
  return { project, items: await loadProjectItems(project) };
}

/** Answers each utterance with the next scripted text, timed on the item timeline from its samples. */
function scriptedEngine(texts: string[]): SessionEngine & { requests: UtteranceRequest[] } {
  const requests: UtteranceRequest[] = [];
  return {
    requests,
    createCutter: () => everySamples(16000),
    transcriber: {
      async transcribe(request) {
        requests.push(request);
        const text = texts[requests.length - 1] ?? '';
        return {
          kind: 'accepted',
          request_id: `req-${requests.length}`,
          segments: [{ t0_ms: request.start_sample / 16, t1_ms: request.end_sample / 16, text }],
          model: { name: 'scripted', sha256: '00' },
        };
      },
      cancelItem() {},
      async close() {},
    },
  };
}

const chunk = (n = 3200, value = 0.2) => new Float32Array(n).fill(value);

describe('SessionService', () => {
  it('records, transcribes utterances, commits the spoken label, and logs every step', async () => {
    const { project, items } = await demo();
    const engine = scriptedEngine([' Hmm, this is kind of polite.', ' I label this', ' polite.']);
    const service = await SessionService.open({ project, annotator: 'ana', items, engine });
    await service.openItem('demo-01');
    await service.startRecording({ device: 'test' });
    for (let i = 0; i < 14; i++) await service.appendAudio(chunk()); // 2.8 s
    await service.stopRecording();
    await service.drainTranscriptions();
    const item = service.itemState('demo-01')!;
    expect(engine.requests.map((r) => [r.utterance, r.start_sample, r.end_sample])).toEqual([
      [0, 0, 16000],
      [1, 16000, 32000],
      [2, 32000, 44800],
    ]);
    expect(item).toMatchObject({
      audio_ms: 2800,
      transcript: ' Hmm, this is kind of polite. I label this polite.',
      final_label: 'Polite',
      label_source: 'voice',
    });
    expect(item.audio_path).toBe('sessions/ana/audio/demo-01.wav');
    expect(item.signals).toMatchObject({ total_chunks: 3, filler_count: 2, commitment_count: 1 });
    await service.completeItem();
    await service.close();

    const { events } = await readSessionLog(sessionPaths(project.dir, 'ana').events);
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'audio_appended').length).toBeGreaterThanOrEqual(2);
    expect(types).toContain('label_committed');
    expect(types.slice(-1)).toEqual(['item_completed']);
    const wav = decodeWav(await readFile(path.join(project.dir, item.audio_path!)), 'wav');
    expect(wav.samples.length).toBe(44800);
  });

  it('a second recording of an item continues its WAV and its utterance numbering', async () => {
    const { project, items } = await demo();
    const engine = scriptedEngine([' My answer is impolite.', ' Uh, actually no.', ' Final answer: neutral.']);
    const service = await SessionService.open({ project, annotator: 'ana', items, engine });
    await service.openItem('demo-02');
    await service.startRecording();
    for (let i = 0; i < 5; i++) await service.appendAudio(chunk());
    await service.stopRecording();
    await service.openItem('demo-03');
    await service.openItem('demo-02');
    await service.startRecording();
    for (let i = 0; i < 10; i++) await service.appendAudio(chunk());
    await service.stopRecording();
    await service.drainTranscriptions();
    expect(engine.requests.map((r) => [r.utterance, r.start_sample])).toEqual([
      [0, 0],
      [1, 16000],
      [2, 32000],
    ]);
    const item = service.itemState('demo-02')!;
    expect(item).toMatchObject({ audio_ms: 3000, final_label: 'Neutral', blind_label: 'Impolite' });
    expect(item.signals).toMatchObject({ label_changes: 1 });
    await service.close();
    const { events } = await readSessionLog(sessionPaths(project.dir, 'ana').events);
    expect(events.some((e) => e.type === 'label_changed' && e.data.from === 'Impolite' && e.data.to === 'Neutral')).toBe(true);
  });

  it('click and key labels count by event order; completing needs a spoken label when the project requires one', async () => {
    const { project, items } = await demo();
    const service = await SessionService.open({ project, annotator: 'ana', items });
    await expect(service.commitLabel('Polite', 'click')).rejects.toThrow(SessionUsageError);
    await expect(service.openItem('nope')).rejects.toThrow('item "nope" is not in the project\'s items');
    await service.openItem('demo-01');
    await expect(service.commitLabel('Courteous', 'click')).rejects.toThrow(
      '"Courteous" is not a label of this project (labels: Polite, Impolite, Neutral)',
    );
    await service.commitLabel('Polite', 'click');
    const after = await service.commitLabel('Neutral', 'key');
    expect(after).toMatchObject({ final_label: 'Neutral', label_source: 'key', blind_label: 'Polite' });
    await expect(service.completeItem()).rejects.toThrow(SpokenLabelRequiredError);
    expect(service.itemState('demo-01')!.completed_at).toBeNull();
    await service.close();
  });

  it('resumes at the item the annotator was on', async () => {
    const { project, items } = await demo();
    const first = await SessionService.open({ project, annotator: 'ana', items });
    await first.openItem('demo-04');
    await first.close();
    const again = await SessionService.open({ project, annotator: 'ana', items });
    expect(again.currentItem).toBe('demo-04');
    await again.close();
  });

  it('a full disk while recording: clear error, recording stopped, audio saved before it intact, log readable', async () => {
    const { project, items } = await demo();
    const fs = faultyFs({ affects: (p) => p.endsWith('.wav') });
    const service = await SessionService.open({ project, annotator: 'ana', items, fs });
    const errors: DurableWriteError[] = [];
    service.on('write_error', (e) => errors.push(e));
    await service.openItem('demo-01');
    await service.startRecording();
    for (let i = 0; i < 5; i++) await service.appendAudio(chunk()); // 1 s: flushed
    fs.setBudget(1000);
    let failure: unknown = null;
    for (let i = 0; i < 10 && failure === null; i++)
      failure = await service.appendAudio(chunk()).then(
        () => null,
        (e: unknown) => e,
      );
    expect(failure).toBeInstanceOf(DurableWriteError);
    expect((failure as Error).message).toMatch(
      /^cannot write audio to .*demo-01\.wav: no space left on the disk \(ENOSPC\); the 1\.0 s recorded before are kept/,
    );
    expect(errors).toEqual([failure]);
    expect(service.isRecording).toBe(false);
    await expect(service.appendAudio(chunk())).rejects.toThrow('not recording');
    await service.close();

    const { events } = await readSessionLog(sessionPaths(project.dir, 'ana').events);
    const stopped = events.find((e) => e.type === 'recording_stopped');
    expect(stopped?.data).toMatchObject({ reason: 'write_error', total_samples: 16000 });
    const wav = decodeWav(await readFile(path.join(project.dir, 'sessions/ana/audio/demo-01.wav')), 'wav');
    expect(wav.truncatedHeader).toBe(false);
    expect(wav.samples.length).toBe(16000);
  });
});
