import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UtteranceRequest } from '../../../../core/common/engine/transcriptionScheduler';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import type { SessionEngine } from '../../../../core/node/engine/sessionEngine';
import { SessionService } from '../../../../core/node/session/sessionService';
import { SessionUsageError } from '../../../../core/common/session/sessionRefusals';
import { SessionStore } from '../../../../core/node/session/sessionStore';
import { everySamples } from './everySamples';
import { judgeStep, showReasoning } from '../../../../core/node/session/reasoningActs';

async function demo(reveal?: string) {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-reasoning-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  if (reveal) {
    const config = await readFile(path.join(dir, 'aloud.yaml'), 'utf8');
    await writeFile(path.join(dir, 'aloud.yaml'), config.replace('reveal: after_blind', `reveal: ${reveal}`));
  }
  const project = await loadProjectConfig(dir);
  return { project, items: await loadProjectItems(project) };
}

function scriptedEngine(texts: string[]): SessionEngine {
  const requests: UtteranceRequest[] = [];
  return {
    createCutter: () => everySamples(16000),
    transcriber: {
      async transcribe(request) {
        requests.push(request);
        return {
          kind: 'accepted',
          request_id: `req-${requests.length}`,
          segments: [{ t0_ms: request.start_sample / 16, t1_ms: request.end_sample / 16, text: texts[requests.length - 1] ?? '' }],
          model: { name: 'scripted', sha256: '00' },
        };
      },
      cancelItem() {},
      async close() {},
    },
  };
}

async function speak(service: SessionService, seconds: number): Promise<void> {
  await service.startRecording();
  for (let i = 0; i < seconds * 5; i++) await service.appendAudio(new Float32Array(3200).fill(0.2));
  await service.stopRecording();
  await service.drainTranscriptions();
}

describe('model reasoning in a session', () => {
  it('stays hidden until the blind label, then is shown once and logged with its steps', async () => {
    const { project, items } = await demo();
    const service = await SessionService.open({ project, annotator: 'ana', items, engine: null });
    await service.openItem('demo-03');
    expect(await showReasoning(service)).toEqual({
      item_id: 'demo-03',
      reveal: 'after_blind',
      shown: null,
      withheld: 'blind_label_first',
    });
    await expect(judgeStep(service, 1, 1, 'key')).rejects.toThrow(SessionUsageError);
    await service.commitLabel('Polite', 'key');
    const view = await showReasoning(service);
    expect(view.withheld).toBeNull();
    expect(view.shown!.steps).toHaveLength(4);
    expect(view.shown!.model_label).toBe('Polite');
    await showReasoning(service);
    await service.openItem('demo-02');
    expect((await showReasoning(service)).withheld).toBe('no_reasoning');
    await service.close();

    const { events } = await readSessionLog(sessionPaths(project.dir, 'ana').events);
    const shown = events.filter((e) => e.type === 'reasoning_shown');
    expect(shown).toHaveLength(1);
    expect(shown[0]!.data).toMatchObject({
      item_id: 'demo-03',
      split: 'numbered',
      reveal: 'after_blind',
      model_label: 'Polite',
      audio_samples: 0,
    });
    // the blind label was logged before the reasoning was shown
    const labelSeq = events.find((e) => e.type === 'label_committed')!.seq;
    expect(labelSeq).toBeLessThan(shown[0]!.seq);
  });

  it('reveal always shows at once; reveal never never does', async () => {
    for (const [reveal, withheld] of [
      ['always', null],
      ['never', 'never'],
    ] as const) {
      const { project, items } = await demo(reveal);
      const service = await SessionService.open({ project, annotator: 'ana', items, engine: null });
      await service.openItem('demo-01');
      const view = await showReasoning(service);
      expect(view.withheld).toBe(withheld);
      expect(view.shown === null).toBe(withheld !== null);
      await service.close();
    }
  });

  it('judges steps by key and by voice (only what was said after the reasoning was shown); the last per step stands', async () => {
    const { project, items } = await demo();
    const engine = scriptedEngine([
      ' Step two is wrong. I label this polite.',
      ' Hmm. Step two is wrong.',
      ' Step three is not correct.',
      ' The first error is step two.',
    ]);
    const service = await SessionService.open({ project, annotator: 'ana', items, engine });
    await service.openItem('demo-03');
    await speak(service, 1); // said before the reasoning could be seen: no judgment
    expect(service.itemState('demo-03')!.final_label).toBe('Polite');
    expect((await showReasoning(service)).shown!.steps).toHaveLength(4);
    await judgeStep(service, 2, 1, 'key');
    await speak(service, 3);
    await judgeStep(service, 4, 1, 'click');
    await expect(judgeStep(service, 5, 1, 'key')).rejects.toThrow('steps 1 to 4');
    const state = service.itemState('demo-03')!;
    expect(state.step_judgments!.map((j) => [j.index, j.reward, j.source, j.kind, j.quote, j.audio_ms])).toEqual([
      [2, 1, 'key', 'step', null, null],
      [2, -1, 'voice', 'step', 'Step two is wrong', expect.closeTo(1000 + (23 / 24) * 1000, 1)],
      [2, -1, 'voice', 'first_error', 'The first error is step two', expect.any(Number)],
      [4, 1, 'click', 'step', null, null],
    ]);
    expect(state.reasoning).toMatchObject({ audio_ms: 1000, model_label: 'Polite' });
    await service.close();
  });
});

describe('spoken step judgments and re-transcription', () => {
  it('a superseded utterance takes its spoken step judgments with it; keys and clicks stay', async () => {
    const { project } = await demo();
    const store = await SessionStore.open({ project, annotator: 'ana' });
    const judged = (index: number, source: 'voice' | 'key', utterance: number | null) => ({
      item_id: 'demo-03',
      index,
      reward: -1 as const,
      source,
      kind: 'step' as const,
      quote: source === 'voice' ? 'step one is wrong' : null,
      start: null,
      end: null,
      utterance,
      audio_ms: utterance === null ? null : 900,
    });
    try {
      await store.append('item_opened', { item_id: 'demo-03', text_sha256: null });
      await store.append('reasoning_shown', {
        item_id: 'demo-03',
        steps: ['a', 'b'],
        model_label: 'Polite',
        split: 'numbered',
        reveal: 'always',
        audio_samples: 0,
      });
      await store.append('utterance_transcribed', {
        item_id: 'demo-03',
        utterance: 0,
        request_id: 'r0',
        start_sample: 0,
        end_sample: 16000,
        segments: [{ t0_ms: 0, t1_ms: 1000, text: ' Step one is wrong.' }],
        model: { name: 'scripted', sha256: '00', whisper_cpp: null, vad: null },
      });
      await store.append('step_judged', judged(1, 'voice', 0));
      await store.append('step_judged', judged(2, 'key', null));
      expect(store.itemState('demo-03')!.step_judgments!.map((j) => [j.index, j.source])).toEqual([
        [1, 'voice'],
        [2, 'key'],
      ]);
      await store.append('transcripts_superseded', { item_id: 'demo-03', utterances: [0], reason: 'transcribed again' });
      expect(store.itemState('demo-03')!.step_judgments!.map((j) => [j.index, j.source])).toEqual([[2, 'key']]);
      expect(store.itemState('demo-03')!.step_judgments![0]).not.toHaveProperty('utterance');
    } finally {
      await store.close();
    }
  });
});
