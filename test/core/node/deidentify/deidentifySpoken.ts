import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readWav, resampleTo16k } from '../../../../core/node/audio/wavFile';
import { openSessionEngine, VAD_MODEL_ENV } from '../../../../core/node/engine/sessionEngine';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems, type OpenProject } from '../../../../core/node/project/projectFolder';
import { SessionService } from '../../../../core/node/session/sessionService';

/** Whether espeak-ng and sox are here to speak the test clip (CI installs both). */
export const canSpeak = ((): boolean => {
  try {
    execFileSync('espeak-ng', ['--version'], { stdio: 'ignore' });
    execFileSync('sox', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** The two utterances spoken (espeak-ng, 1.5 s of digital silence between them) and what the scripted engine returns for them. */
export const SPOKEN = [' This sounds like my manager Sarah from Leipzig.', ' I would call Sarah at 555 1234, I label this polite.'];

export const LIST = 'version: 7\nterms:\n  - {text: Sarah, class: PERSON}\n  - {text: Leipzig, class: PLACE}\n';

/** A WAV of the two utterances, made here with espeak-ng and sox (16 kHz mono 16-bit). */
async function speak(dir: string): Promise<string> {
  const parts = SPOKEN.map((text, i) => {
    const raw = path.join(dir, `part${i}-raw.wav`);
    const part = path.join(dir, `part${i}.wav`);
    execFileSync('espeak-ng', ['-s', '150', '-w', raw, text.trim()]);
    execFileSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', part]);
    return part;
  });
  const gap = path.join(dir, 'gap.wav');
  execFileSync('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', gap, 'trim', '0', '1.5']);
  const clip = path.join(dir, 'spoken.wav');
  execFileSync('sox', [parts[0]!, gap, parts[1]!, clip]);
  return clip;
}

/**
 * A demo project with deidentify.yaml where "bob" said the clip on demo-01 through the real session path (energy
 * cutter, scripted engine with word times spread over each utterance) and wrote a note naming Sarah.
 */
export async function spokenNameProject(): Promise<{ dir: string; project: OpenProject; utterances: number }> {
  const root = await mkdtemp(path.join(tmpdir(), 'aloud-deid-'));
  const dir = path.join(root, 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  await writeFile(path.join(dir, 'deidentify.yaml'), LIST);
  const clip = await speak(root);
  const wav = await readWav(clip);
  const pcm = resampleTo16k(wav.samples, wav.sampleRate);
  const scriptFile = path.join(root, 'script.json');
  await writeFile(scriptFile, JSON.stringify({ items: { 'demo-01': SPOKEN.map((text) => ({ text, delay_ms: 0 })) } }));

  const previousVad = process.env[VAD_MODEL_ENV];
  // the energy cutter, whatever VAD model this machine has: the cut is then the same everywhere
  process.env[VAD_MODEL_ENV] = path.join(root, 'no-vad-model.bin');
  try {
    const project = await loadProjectConfig(dir);
    const engine = await openSessionEngine({ project, modelFile: null, engineScript: scriptFile });
    const service = await SessionService.open({ project, annotator: 'bob', items: await loadProjectItems(project), engine });
    try {
      await service.openItem('demo-01');
      await service.startRecording({ device: 'test' });
      for (let at = 0; at < pcm.length; at += 3200) await service.appendAudio(pcm.subarray(at, Math.min(pcm.length, at + 3200)));
      await service.stopRecording();
      await service.drainTranscriptions();
      await service.addNote('Sarah sounded upset; her number 555 1234 is in the notes');
      return { dir, project, utterances: service.itemState('demo-01')!.segments.length };
    } finally {
      await service.close();
    }
  } finally {
    if (previousVad === undefined) delete process.env[VAD_MODEL_ENV];
    else process.env[VAD_MODEL_ENV] = previousVad;
  }
}

export const haveDemo = existsSync(DEMO_PROJECT_DIR);
