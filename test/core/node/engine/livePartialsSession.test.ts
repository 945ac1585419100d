// The session path with partials on: SessionService → LiveUtterances (VAD-style probe) → TranscriptionScheduler
// → an engine double that answers partials with a label phrase. Partials reach the UI and nothing else.
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { EngineTranscription, TranscribeInput } from '../../../../core/common/engine/engineTypes';
import type { LivePartial } from '../../../../core/common/engine/liveUtterances';
import type { SpeechProbe } from '../../../../core/common/signals/speechProbe';
import { TranscriptionScheduler } from '../../../../core/common/engine/transcriptionScheduler';
import { liveCutterFactory } from '../../../../core/node/engine/sessionEngine';
import { sha256OfPcm } from '../../../../core/node/engine/whisperEngine';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { SessionService } from '../../../../core/node/session/sessionService';

const MODEL = { name: 'double', sha256: 'd'.repeat(64) };

const loudProbe: SpeechProbe = {
  windowSamples: 512,
  probabilities(pcm) {
    const out = new Float32Array(pcm.length / 512);
    for (let w = 0; w < out.length; w++) out[w] = Math.abs(pcm[w * 512 + 7]!) > 0.05 ? 0.9 : 0.01;
    return out;
  },
  reset() {},
};

/** Partials (request ids with "p") hear a label phrase; finals hear thinking without one. Answers on the next turn. */
const engine = {
  jobs: [] as string[],
  async transcribe(input: TranscribeInput): Promise<EngineTranscription> {
    await new Promise((resolve) => setImmediate(resolve));
    const partial = /p\d+$/.test(input.identity!.request_id);
    this.jobs.push(partial ? 'partial' : 'final');
    return {
      segments: [{ t0_ms: 0, t1_ms: 500, text: partial ? ' I label this polite.' : ' Hmm, let me think about it.' }],
      identity: { ...input.identity!, audio_sha256: sha256OfPcm(input.pcm), model_sha256: MODEL.sha256 },
      audio_ms: input.pcm.length / 16,
      audio_ctx: 200,
      elapsed_ms: 1,
    };
  },
  async close() {},
};

it('partials reach the UI but are never parsed, logged or stored as the transcript', async () => {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-partials-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  const project = await loadProjectConfig(dir);
  let clock = 0;
  const transcriber = new TranscriptionScheduler({ engine, model: MODEL, hashAudio: sha256OfPcm, now: () => clock, requestIdPrefix: 't' });
  const sessionEngine = {
    model: MODEL,
    transcriber,
    createCutter: liveCutterFactory(transcriber, { silenceThresholdDbfs: -45, speech: loudProbe }),
  };
  const service = await SessionService.open({ project, annotator: 'ana', items: await loadProjectItems(project), engine: sessionEngine });
  const partials: LivePartial[] = [];
  service.on('partial', (p) => partials.push(p));
  await service.openItem('demo-01');
  await service.startRecording();
  const chunk = (loud: boolean): Float32Array => Float32Array.from({ length: 3200 }, (_, i) => (loud ? 0.3 * Math.sin(i / 2) : 0));
  for (let i = 0; i < 15; i++) {
    clock += 200;
    await service.appendAudio(chunk(true));
    await new Promise((resolve) => setImmediate(resolve));
  }
  for (let i = 0; i < 5; i++) {
    clock += 200;
    await service.appendAudio(chunk(false));
  }
  await service.stopRecording();
  await service.drainTranscriptions();

  expect(partials.length).toBeGreaterThanOrEqual(2);
  expect(partials.every((p) => p.item_id === 'demo-01' && p.utterance === 0 && p.text === 'I label this polite.')).toBe(true);
  expect(transcriber.partialCount).toBe(partials.length);
  const item = service.itemState('demo-01')!;
  expect(item.transcript).toBe(' Hmm, let me think about it.');
  expect(item.commitments).toEqual([]);
  expect(item.final_label).toBeNull();
  await service.close();
  const log = await readFile(sessionPaths(project.dir, 'ana').events, 'utf8');
  expect(log).not.toContain('I label this polite');
  expect(log).not.toContain('label_committed');
  expect(engine.jobs).toContain('final');
});

it('a speculative final is shown as final text marked still listening, but never parsed or logged: speech resumed, so the label comes from the final at the cut', async () => {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-speculative-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  const project = await loadProjectConfig(dir);
  let clock = 0;
  let finals = 0;
  // the first final-kind job is the speculation (at 150 ms of silence) and hears a commit phrase; the cut's final does not
  const speculating = {
    async transcribe(input: TranscribeInput): Promise<EngineTranscription> {
      await new Promise((resolve) => setImmediate(resolve));
      const partial = /p\d+$/.test(input.identity!.request_id);
      const text = partial ? ' Hmm' : finals++ === 0 ? ' I label this impolite.' : ' Hmm, I label this polite.';
      return {
        segments: [{ t0_ms: 0, t1_ms: 500, text }],
        identity: { ...input.identity!, audio_sha256: sha256OfPcm(input.pcm), model_sha256: MODEL.sha256 },
        audio_ms: input.pcm.length / 16,
        audio_ctx: 200,
        elapsed_ms: 1,
      };
    },
    async close() {},
  };
  const transcriber = new TranscriptionScheduler({
    engine: speculating,
    model: MODEL,
    hashAudio: sha256OfPcm,
    now: () => clock,
    requestIdPrefix: 't',
  });
  const sessionEngine = {
    model: MODEL,
    transcriber,
    createCutter: liveCutterFactory(transcriber, { silenceThresholdDbfs: -45, speech: loudProbe }),
  };
  const service = await SessionService.open({ project, annotator: 'ana', items: await loadProjectItems(project), engine: sessionEngine });
  const shown: LivePartial[] = [];
  service.on('partial', (p) => shown.push(p));
  await service.openItem('demo-01');
  await service.startRecording();
  const chunk = (loud: boolean): Float32Array => Float32Array.from({ length: 3200 }, (_, i) => (loud ? 0.3 * Math.sin(i / 2) : 0));
  const say = async (loud: boolean, chunks: number): Promise<void> => {
    for (let i = 0; i < chunks; i++) {
      clock += 200;
      await service.appendAudio(chunk(loud));
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await say(true, 5);
  await say(false, 1); // 200 ms of silence: the speculation runs and its text is shown; no cut yet (300 ms)
  expect(shown).toContainEqual({ item_id: 'demo-01', utterance: 0, text: 'I label this impolite.', speculative: true });
  expect(service.itemState('demo-01')?.transcript ?? '').toBe('');
  await say(true, 3); // speech resumes: the shown text goes back to a partial's look
  expect(shown.filter((p) => p.text === 'I label this impolite.').map((p) => p.speculative)).toEqual([true, false]);
  await say(false, 5);
  await service.stopRecording();
  await service.drainTranscriptions();

  const item = service.itemState('demo-01')!;
  expect(item.transcript).toBe(' Hmm, I label this polite.');
  expect(item.final_label).toBe('Polite');
  expect(item.commitments.map((c) => c.label)).toEqual(['Polite']);
  await service.close();
  const log = await readFile(sessionPaths(project.dir, 'ana').events, 'utf8');
  expect(log).not.toContain('impolite');
  expect(log).not.toContain('Impolite');
  expect(log.match(/"type":"label_committed"/g)).toHaveLength(1);
});

/** A session over an engine double whose first final-kind job (the speculation) hears `speculated` and later ones `final`. */
async function speculatingSession(speculated: string, final: string) {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-speculative-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  const project = await loadProjectConfig(dir);
  let clock = 0;
  let finals = 0;
  const engine = {
    async transcribe(input: TranscribeInput): Promise<EngineTranscription> {
      await new Promise((resolve) => setImmediate(resolve));
      const partial = /p\d+$/.test(input.identity!.request_id);
      const text = partial ? ' Hmm' : finals++ === 0 ? speculated : final;
      return {
        segments: [{ t0_ms: 0, t1_ms: 500, text }],
        identity: { ...input.identity!, audio_sha256: sha256OfPcm(input.pcm), model_sha256: MODEL.sha256 },
        audio_ms: input.pcm.length / 16,
        audio_ctx: 200,
        elapsed_ms: 1,
      };
    },
    async close() {},
  };
  const transcriber = new TranscriptionScheduler({ engine, model: MODEL, hashAudio: sha256OfPcm, now: () => clock, requestIdPrefix: 't' });
  const sessionEngine = {
    model: MODEL,
    transcriber,
    createCutter: liveCutterFactory(transcriber, { silenceThresholdDbfs: -45, speech: loudProbe }),
  };
  const service = await SessionService.open({ project, annotator: 'ana', items: await loadProjectItems(project), engine: sessionEngine });
  const shown: LivePartial[] = [];
  service.on('partial', (p) => shown.push(p));
  await service.openItem('demo-01');
  await service.startRecording();
  /** `ms` of speech or silence in 50 ms chunks, as the app captures, letting the engine double answer between chunks */
  const say = async (loud: boolean, ms: number): Promise<void> => {
    for (let fed = 0; fed < ms; fed += 50) {
      clock += 50;
      await service.appendAudio(Float32Array.from({ length: 800 }, (_, i) => (loud ? 0.3 * Math.sin(i / 2) : 0)));
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const log = (): Promise<string> => readFile(sessionPaths(project.dir, 'ana').events, 'utf8');
  return { service, shown, say, log };
}

it('a speculative final holding a commit phrase makes no record before the cut; the label is committed from the final at the cut', async () => {
  const { service, shown, say, log } = await speculatingSession(' I label this polite.', ' I label this polite.');
  await say(true, 1000);
  await say(false, 250); // past the speculation (the cut audio is complete), short of the 300 ms cut
  expect(shown.at(-1)).toEqual({ item_id: 'demo-01', utterance: 0, text: 'I label this polite.', speculative: true });
  // shown as final text, yet nothing is parsed, folded or logged: no transcript, no commitment, no label act
  expect(service.itemState('demo-01')?.transcript ?? '').toBe('');
  expect(service.itemState('demo-01')?.commitments ?? []).toEqual([]);
  expect(await log()).not.toMatch(/label_committed|utterance_transcribed|I label this polite/);
  await say(false, 500); // the pause holds: the cut adopts the speculation, its text is now the final and parsed once
  await service.drainTranscriptions();
  const item = service.itemState('demo-01')!;
  expect(item.transcript).toBe(' I label this polite.');
  expect(item.final_label).toBe('Polite');
  expect((await log()).match(/"type":"label_committed"/g)).toHaveLength(1);
  await service.stopRecording();
  await service.close();
});

it('a speculative final holding a commit phrase makes no record at all when speech resumes and the final says otherwise', async () => {
  const { service, shown, say, log } = await speculatingSession(' I label this polite.', ' I label this, hmm, let me think.');
  await say(true, 1000);
  await say(false, 250);
  expect(shown).toContainEqual({ item_id: 'demo-01', utterance: 0, text: 'I label this polite.', speculative: true });
  await say(true, 600); // speech resumes before the cut: the shown text goes back to a partial's look
  expect(shown.filter((p) => p.text === 'I label this polite.').map((p) => p.speculative)).toEqual([true, false]);
  await say(false, 800);
  await service.stopRecording();
  await service.drainTranscriptions();
  const item = service.itemState('demo-01')!;
  expect(item.transcript).toBe(' I label this, hmm, let me think.');
  expect(item.commitments).toEqual([]);
  expect(item.final_label).toBeNull();
  await service.close();
  const written = await log();
  expect(written).not.toContain('label_committed');
  expect(written).not.toContain('I label this polite');
});
