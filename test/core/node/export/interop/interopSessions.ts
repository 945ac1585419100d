import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readWav, resampleTo16k } from '../../../../../core/node/audio/wavFile';
import { VAD_MODEL_ENV } from '../../../../../core/node/engine/sessionEngine';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems, type OpenProject } from '../../../../../core/node/project/projectFolder';
import { openSessionEngine } from '../../../../../core/node/engine/sessionEngine';
import { SessionService } from '../../../../../core/node/session/sessionService';
import { judgeStep, showReasoning } from '../../../../../core/node/session/reasoningActs';
import { correctSegment, rederiveFromCorrections } from '../../../../../core/node/session/correctionActs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
export const SHARED = path.resolve(repo, '../shared');
export const CLIP = path.join(SHARED, 'fixtures/audio/commit-polite.wav');
export const VAD_MODEL = path.join(SHARED, 'models/for-tests-silero-v6.2.0-ggml.bin');
export const EAF_XSD = path.join(SHARED, 'standards/elan/EAFv3.0.xsd');
export const QDE_XSD = path.join(SHARED, 'standards/refi-qda/Project-mrt2019.xsd');
export const haveFixtures = existsSync(CLIP);

export async function readClip(file: string): Promise<Float32Array> {
  const wav = await readWav(file);
  return resampleTo16k(wav.samples, wav.sampleRate);
}

async function script(dir: string, results: Record<string, Array<{ text: string; delay_ms?: number }>>): Promise<string> {
  const file = path.join(dir, `script-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify({ items: results }));
  return file;
}

async function record(service: SessionService, pcm: Float32Array, cueAfterSamples?: number): Promise<void> {
  await service.startRecording({ device: 'test' });
  for (let at = 0; at < pcm.length; at += 3200) {
    await service.appendAudio(pcm.subarray(at, Math.min(pcm.length, at + 3200)));
    if (cueAfterSamples !== undefined && at <= cueAfterSamples && cueAfterSamples < at + 3200) await service.logCue('keep_talking', 2000);
  }
  await service.stopRecording();
}

async function open(project: OpenProject, annotator: string, engineScript: string | null): Promise<SessionService> {
  const items = await loadProjectItems(project);
  const engine = engineScript ? await openSessionEngine({ project, modelFile: null, engineScript }) : null;
  return SessionService.open({ project, annotator, items, engine });
}

/**
 * A study as the interop exports meet it, recorded through the real session path with a scripted engine (and the
 * Silero VAD where it is installed, so the records count VAD pauses):
 * - "Zoë Example" thinks aloud on demo-01 (a keep-talking cue; a misheard phrase corrected and the label re-derived
 *   from the correction), gives a blind key label on demo-03, sees the model's reasoning, judges its steps by key and
 *   click and talks on, and clicks a label on demo-02 without recording;
 * - "bob" records demo-01 and demo-08 with no model, and has them transcribed later (demo-08 has model steps).
 */
export async function interopStudy(): Promise<{ dir: string; project: OpenProject }> {
  const previousVad = process.env[VAD_MODEL_ENV];
  process.env[VAD_MODEL_ENV] = existsSync(VAD_MODEL) ? VAD_MODEL : path.join(tmpdir(), 'no-vad-model.bin');
  try {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-interop-')), 'proj');
    await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
    const project = await loadProjectConfig(dir);
    const pcm = await readClip(CLIP);

    const zoe = await open(
      project,
      'Zoë Example',
      await script(dir, {
        'demo-01': [{ text: ' Hmm, well. This reply is, um, kind of polite, I guess.' }, { text: ' I label this polar.' }],
        'demo-03': [{ text: ' Step two is wrong, uh, I think.' }, { text: ' I label this neutral.' }],
      }),
    );
    try {
      await zoe.openItem('demo-01');
      await record(zoe, pcm, 16000 * 6);
      await zoe.drainTranscriptions();
      const before = zoe.itemState('demo-01')!;
      const ref = before.segment_refs[before.segments.findIndex((s) => s.text.includes('polar'))]!;
      await correctSegment(zoe, 'demo-01', ref.utterance, ref.segment, ' I label this polite.');
      await rederiveFromCorrections(zoe, 'demo-01');

      await zoe.openItem('demo-03');
      await zoe.commitLabel('Polite', 'key');
      await showReasoning(zoe);
      await judgeStep(zoe, 1, 1, 'key');
      await judgeStep(zoe, 2, -1, 'click');
      await record(zoe, pcm);
      await zoe.drainTranscriptions();
      await zoe.completeItem();

      await zoe.openItem('demo-02');
      await zoe.commitLabel('Neutral', 'click');
    } finally {
      await zoe.close();
    }

    let bob = await open(project, 'bob', null);
    try {
      for (const id of ['demo-01', 'demo-08']) {
        await bob.openItem(id);
        await record(bob, pcm);
      }
    } finally {
      await bob.close();
    }
    bob = await open(
      project,
      'bob',
      await script(dir, {
        'demo-01': [{ text: ' Uh, this is rude.' }, { text: ' I label this impolite.' }],
        'demo-08': [{ text: ' Read the "manual" <now> & then.' }, { text: ' I label this impolite.' }],
      }),
    );
    try {
      await bob.transcribeAgain('demo-01', readClip, 'transcribed later');
      await bob.transcribeAgain('demo-08', readClip, 'transcribed later');
      await bob.openItem('demo-08');
      await showReasoning(bob);
      await judgeStep(bob, 1, 0, 'key');
    } finally {
      await bob.close();
    }
    return { dir, project: await loadProjectConfig(dir) };
  } finally {
    if (previousVad === undefined) delete process.env[VAD_MODEL_ENV];
    else process.env[VAD_MODEL_ENV] = previousVad;
  }
}
