import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../../core/common/engine/engineTypes';
import { TranscriptionScheduler } from '../../../../core/common/engine/transcriptionScheduler';
import { EngineScriptError, parseEngineScript, ScriptedEngine, scriptedSegments } from '../../../../core/node/engine/scriptedEngine';
import { sha256OfPcm } from '../../../../core/node/engine/whisperEngine';

const script = (text: string) => parseEngineScript(text, 'script.json', 'ab'.repeat(32));

describe('engine script', () => {
  it('reads items with results in order, delay defaulting to 0', () => {
    const s = script('{"items": {"a": [{"text": "one", "delay_ms": 5}, {"text": "two"}]}}');
    expect(s.items.get('a')).toEqual([
      { text: 'one', delay_ms: 5 },
      { text: 'two', delay_ms: 0 },
    ]);
  });

  it.each([
    ['[]', 'script.json: (top level): must be an object'],
    ['{"items": {}, "x": 1}', 'script.json: x: unknown key'],
    ['{"items": {"a": {"text": "x"}}}', 'script.json: items.a: must be a list'],
    ['{"items": {"a": [{"text": 3}]}}', 'script.json: items.a[0].text: must be a string'],
    ['{"items": {"a": [{"text": "x", "delay_ms": -1}]}}', 'script.json: items.a[0].delay_ms: must be an integer'],
    ['{"items": {"a": [{"text": "x", "speed": 1}]}}', 'script.json: items.a[0].speed: unknown key'],
    ['{"items": {"a": [}', 'script.json:1:'],
  ])('refuses %s with a located error', (text, message) => {
    expect(() => script(text)).toThrow(EngineScriptError);
    expect(() => script(text)).toThrow(message);
  });
});

describe('ScriptedEngine', () => {
  it('spreads word times over the utterance by characters', () => {
    const [segment] = scriptedSegments('ab cd', 1000);
    expect(segment).toMatchObject({ t0_ms: 0, t1_ms: 1000, text: 'ab cd' });
    expect(segment!.tokens).toEqual([
      { t0_ms: 0, t1_ms: 400, text: 'ab' },
      { t0_ms: 400, t1_ms: 1000, text: ' cd' },
    ]);
    expect(scriptedSegments('', 1000)).toEqual([]);
  });

  it('answers each item in request order through the real scheduler with a scripted model identity', async () => {
    const engine = new ScriptedEngine(
      script('{"items": {"a": [{"text": "first", "delay_ms": 20}, {"text": "second"}], "b": [{"text": "other"}]}}'),
    );
    const model = engine.modelIdentity;
    expect(model.sha256).toBe(`scripted:${'ab'.repeat(32)}`);
    const scheduler = new TranscriptionScheduler({ engine, model, hashAudio: sha256OfPcm });
    const pcm = new Float32Array(16_000).fill(0.1);
    const outcomes = await Promise.all([
      scheduler.transcribe({ item_id: 'a', utterance: 0, start_sample: 16_000, end_sample: 32_000, pcm }),
      scheduler.transcribe({ item_id: 'b', utterance: 0, start_sample: 0, end_sample: 16_000, pcm }),
      scheduler.transcribe({ item_id: 'a', utterance: 1, start_sample: 32_000, end_sample: 48_000, pcm }),
      scheduler.transcribe({ item_id: 'a', utterance: 2, start_sample: 48_000, end_sample: 64_000, pcm }),
    ]);
    expect(outcomes.map((o) => (o.kind === 'accepted' ? o.segments.map((s) => s.text).join('') : o.kind))).toEqual([
      'first',
      'other',
      'second',
      '',
    ]);
    // segments span the utterance on the item's timeline
    expect(outcomes[0]).toMatchObject({ kind: 'accepted', segments: [{ t0_ms: 1000, t1_ms: 2000 }], model });
    await scheduler.close();
  });

  it('aborts a delayed job', async () => {
    const engine = new ScriptedEngine(script('{"items": {"a": [{"text": "slow", "delay_ms": 60000}]}}'));
    const job = engine.transcribe({ pcm: new Float32Array(100), identity: { request_id: 'r', item_id: 'a', utterance: 0 } });
    engine.abort();
    await expect(job).rejects.toBeInstanceOf(EngineError);
  });
});

describe('ScriptedEngine and partial or speculative requests', () => {
  it("answers every request for an utterance with that utterance's result, so later utterances keep theirs", async () => {
    const engine = new ScriptedEngine(script('{"items": {"a": [{"text": "first"}, {"text": "second"}]}}'));
    const ask = async (utterance: number, request_id: string) =>
      (await engine.transcribe({ pcm: new Float32Array(1600), identity: { request_id, item_id: 'a', utterance } })).segments
        .map((s) => s.text)
        .join('');
    expect(await ask(0, 'p1')).toBe('first'); // a partial of utterance 0
    expect(await ask(0, 'p2')).toBe('first'); // another partial
    expect(await ask(0, 'f3')).toBe('first'); // its final
    expect(await ask(1, 'f4')).toBe('second');
    expect(await ask(2, 'f5')).toBe('');
  });
});
