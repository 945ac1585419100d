import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTranscriptAnalyzer } from '../../../../core/common/analysis/transcriptAnalysis';
import type { Item } from '../../../../core/common/items/item';
import { PARSER_VERSION } from '../../../../core/common/parser/parserVersion';
import { parseProjectConfig } from '../../../../core/common/project/projectConfig';
import {
  completionRuleText,
  decideCompletion,
  decideLabelAct,
  decideLabelFromCorrections,
} from '../../../../core/common/session/labelRules';
import { decideJudgeStep, decideShowReasoning, reasoningViewOf } from '../../../../core/common/session/reasoningRules';
import { EVENT_VERSIONS, type SessionEvent } from '../../../../core/common/session/sessionEvents';
import { SessionFold, type SessionEntry } from '../../../../core/common/session/sessionFold';
import {
  LabelChangeNeedsConfirmationError,
  SessionUsageError,
  SpokenLabelRequiredError,
} from '../../../../core/common/session/sessionRefusals';
import {
  decideCompletionStart,
  decideCue,
  decideNote,
  decideOpenItem,
  decideRecordingStart,
  type SessionRuleContext,
} from '../../../../core/common/session/sessionRules';
import {
  decideCorrection,
  decideTranscribedAgain,
  decideTranscriptionFailed,
  decideTranscriptionLanded,
} from '../../../../core/common/session/transcriptionRules';
import type { Segment } from '../../../../core/common/transcript/segment';

/**
 * The session's rules in plain Node: a fold fed with events in memory, the demo project's configuration, no files and
 * no engine.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const config = parseProjectConfig(readFileSync(path.join(here, '../../../../demo-project/aloud.yaml'), 'utf8'));
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const items: Item[] = [
  { id: 'i1', text: 'Thanks for asking!', model_steps: ['It thanks the asker.', 'So it is polite.'], model_label: 'Polite' },
  { id: 'i2', text: 'No.' },
];

/** an engine that says nothing of itself (no whisper.cpp version, the energy cutter) */
const NO_ENGINE = { whisperCpp: null, vad: null };

function context(overrides: Partial<SessionRuleContext> = {}): SessionRuleContext {
  return {
    config,
    items: new Map(items.map((i) => [i.id, i])),
    annotator: 'ana',
    reviewer: null,
    configSha256: 'c'.repeat(64),
    analyze: createTranscriptAnalyzer(config),
    sha256,
    ...overrides,
  };
}

const landed = (utterance: number, segments: Segment[]) => ({
  request: { item_id: 'i1', utterance, start_sample: 0, end_sample: 16000 },
  outcome: { kind: 'accepted' as const, request_id: `r${utterance}`, segments, model: { name: 'tiny.en', sha256: 'm' } },
});

/**
 * A session fold and a clock: `write` appends what a rule returned, one second after the event before; `open` opens
 * an item, `say` lands a transcription of item i1.
 */
function session(ctx: SessionRuleContext = context()) {
  const fold = new SessionFold(config);
  let seq = 0;
  const at = (): string => new Date(Date.UTC(2025, 0, 1, 10, 0, seq + 1)).toISOString();
  const write = (entries: readonly SessionEntry[]): SessionEvent[] => {
    const ts = at();
    return entries.map((entry) => {
      const event = { v: EVENT_VERSIONS[entry.type], seq: ++seq, ts, type: entry.type, data: entry.data } as SessionEvent;
      fold.apply(event);
      return event;
    });
  };
  write([
    {
      type: 'session_started',
      data: {
        annotator: 'ana',
        project_name: 'politeness-demo',
        sample_rate: 16000,
        config_sha256: 'c'.repeat(64),
        parser_version: PARSER_VERSION,
        parser_inputs_sha256: null,
        kind: 'annotator',
        room: null,
      },
    },
  ]);
  const open = (itemId: string) => write(decideOpenItem(ctx, { itemId, recording: false }).entries);
  const say = (utterance: number, segments: Segment[]) => {
    const { request, outcome } = landed(utterance, segments);
    return write(decideTranscriptionLanded(fold, ctx, request, outcome, NO_ENGINE, at()));
  };
  return { fold, at, write, open, say, ctx };
}
const types = (entries: readonly SessionEntry[]) => entries.map((e) => e.type);

describe('session rules (pure)', () => {
  it('opening another item while recording stops the recording as item_changed; an unknown item is refused before anything', () => {
    expect(decideOpenItem(context(), { itemId: 'i2', recording: true })).toEqual({
      stopRecording: 'item_changed',
      entries: [{ type: 'item_opened', data: { item_id: 'i2', text_sha256: sha256('No.') } }],
    });
    expect(decideOpenItem(context(), { itemId: 'i2', recording: false }).stopRecording).toBeNull();
    expect(() => decideOpenItem(context(), { itemId: 'nope', recording: true })).toThrow(SessionUsageError);
    // without an items list any id opens, with no text to name
    expect(decideOpenItem(context({ items: null }), { itemId: 'any', recording: false }).entries[0]!.data).toEqual({
      item_id: 'any',
      text_sha256: null,
    });
  });

  it("completing stops a running recording as the annotator's own stop (user), and needs an open item", () => {
    const { fold, write } = session();
    expect(() => decideCompletionStart(fold, false)).toThrow(/no item is open: open one before you complete/);
    write(decideOpenItem(context(), { itemId: 'i1', recording: false }).entries);
    expect(decideCompletionStart(fold, true)).toEqual({ itemId: 'i1', stopRecording: 'user' });
    expect(decideCompletionStart(fold, false)).toEqual({ itemId: 'i1', stopRecording: null });
  });

  it("recording is the annotator's own: refused for a reviewer (even on an open item), without an open item, or while one runs", () => {
    const { fold, write } = session();
    expect(() => decideRecordingStart(fold, context(), null)).toThrow(/no item is open: open one before you record/);
    write(decideOpenItem(context(), { itemId: 'i1', recording: false }).entries);
    expect(decideRecordingStart(fold, context(), null)).toBe('i1');
    expect(() => decideRecordingStart(fold, context(), { item_id: 'i1' })).toThrow(/already recording "i1"/);
    expect(() => decideRecordingStart(fold, context({ reviewer: 'rita' }), null)).toThrow(
      /rita is reviewing ana's session: recording is off in review/,
    );
  });

  it('a click or key act: refused without an open item or for a label the schema lacks; a change of the final label is recorded, after completion too', () => {
    const { fold, at, write } = session();
    const ctx = context();
    expect(() => decideLabelAct(fold, ctx, { label: 'Polite', source: 'click' }, at())).toThrow(SessionUsageError);
    write(decideOpenItem(ctx, { itemId: 'i1', recording: false }).entries);
    expect(() => decideLabelAct(fold, ctx, { label: 'Rude', source: 'key' }, at())).toThrow(
      /"Rude" is not a label of this project \(labels: Polite, Impolite, Neutral\)/,
    );
    const first = decideLabelAct(fold, ctx, { label: 'Polite', source: 'click' }, at());
    expect(first).toEqual([
      {
        type: 'label_committed',
        data: {
          item_id: 'i1',
          label: 'Polite',
          source: 'click',
          quote: null,
          start: null,
          end: null,
          stem: null,
          audio_ms: null,
          utterance: null,
          parser_version: null,
          reviewer: null,
        },
      },
    ]);
    // deciding wrote nothing: the fold is as it was
    expect(fold.itemState('i1')!.final_label).toBeNull();
    write(first);
    expect(types(decideLabelAct(fold, ctx, { label: 'Polite', source: 'key' }, at()))).toEqual(['label_committed']);
    write(decideLabelAct(fold, ctx, { label: 'Impolite', source: 'key' }, at()));
    write([{ type: 'item_completed', data: { item_id: 'i1' } }]);
    // a completed item's label changes only once the annotator has said yes; the same label again needs no yes
    let refusal: unknown;
    try {
      decideLabelAct(fold, ctx, { label: 'Neutral', source: 'click' }, at());
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toBeInstanceOf(LabelChangeNeedsConfirmationError);
    expect(refusal).toMatchObject({ code: 'confirmation_required', itemId: 'i1', from: 'Impolite', to: 'Neutral' });
    expect(types(decideLabelAct(fold, ctx, { label: 'Impolite', source: 'key' }, at()))).toEqual(['label_committed']);
    const afterCompletion = decideLabelAct(fold, ctx, { label: 'Neutral', source: 'click', confirmed: true }, at());
    expect(afterCompletion[1]).toEqual({
      type: 'label_changed',
      data: { item_id: 'i1', from: 'Impolite', to: 'Neutral', source: 'click', after_completion: true, reviewer: null },
    });
  });

  it('the completion rule: a spoken label when the project requires one; completing an unchanged completed item adds nothing', () => {
    const { fold, at, write, open, say, ctx } = session();
    open('i1');
    write(decideLabelAct(fold, ctx, { label: 'Polite', source: 'key' }, at()));
    let refusal: unknown;
    try {
      decideCompletion(fold, ctx, 'i1');
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toBeInstanceOf(SpokenLabelRequiredError);
    expect(refusal).toMatchObject({
      code: 'spoken_label_required',
      message: expect.stringMatching(/^"i1" needs a spoken label before it can be completed: say, for example, "I label this polite"/),
    });
    // without the requirement a key label completes it
    const lenient = context({ config: { ...config, thinkaloud: { ...config.thinkaloud, require_spoken_label: false } } });
    expect(decideCompletion(fold, lenient, 'i1')).toEqual([{ type: 'item_completed', data: { item_id: 'i1' } }]);
    say(0, [{ t0_ms: 0, t1_ms: 900, text: ' I label this polite.' }]);
    write(decideCompletion(fold, ctx, 'i1'));
    expect(decideCompletion(fold, ctx, 'i1')).toEqual([]);
    write(decideLabelAct(fold, ctx, { label: 'Neutral', source: 'click', confirmed: true }, at()));
    expect(decideCompletion(fold, ctx, 'i1')).toEqual([{ type: 'item_completed', data: { item_id: 'i1' } }]);
    expect(completionRuleText(config)).toContain('say its label aloud');
  });

  it('a transcription landing: the utterance, the parse over the whole transcript, voice acts that end in it (a phrase may begin earlier), changes recorded', () => {
    const { fold, at, write, open, ctx } = session();
    open('i1');
    const u0 = landed(0, [{ t0_ms: 0, t1_ms: 1000, text: ' My answer is impolite. I label this' }]);
    const first = decideTranscriptionLanded(
      fold,
      ctx,
      u0.request,
      u0.outcome,
      { whisperCpp: '1.9.1', vad: { name: 'silero-v6.2.0', sha256: 'v' } },
      at(),
    );
    expect(types(first)).toEqual(['utterance_transcribed', 'transcript_parsed', 'label_committed']);
    expect(first[0]!.data).toMatchObject({
      utterance: 0,
      request_id: 'r0',
      model: { name: 'tiny.en', sha256: 'm', whisper_cpp: '1.9.1', vad: { name: 'silero-v6.2.0', sha256: 'v' } },
    });
    expect(first[2]!.data).toMatchObject({ label: 'Impolite', source: 'voice', utterance: 0, parser_version: PARSER_VERSION });
    write(first);
    const u1 = landed(1, [{ t0_ms: 1000, t1_ms: 2000, text: ' polite.' }]);
    const second = decideTranscriptionLanded(fold, ctx, u1.request, u1.outcome, NO_ENGINE, at());
    expect(types(second)).toEqual(['utterance_transcribed', 'transcript_parsed', 'label_committed', 'label_changed']);
    expect(second[2]!.data).toMatchObject({ label: 'Polite', quote: 'I label this polite', utterance: 1 });
    expect(second[3]!.data).toEqual({
      item_id: 'i1',
      from: 'Impolite',
      to: 'Polite',
      source: 'voice',
      after_completion: false,
      reviewer: null,
    });
    expect(
      decideTranscriptionLanded(fold, ctx, u1.request, { kind: 'stale', request_id: 'r1', reason: 'item left' }, NO_ENGINE, at()),
    ).toEqual([{ type: 'stale_result', data: { item_id: 'i1', request_id: 'r1', reason: 'item left' } }]);
    expect(decideTranscriptionFailed(u1.request, 'engine gone')).toEqual([
      { type: 'stale_result', data: { item_id: 'i1', request_id: 'utterance-1', reason: 'transcription failed: engine gone' } },
    ]);
  });

  it('spoken step judgments count only once the reasoning was shown, and only in audio after that moment', () => {
    const { fold, at, write, open, say, ctx } = session();
    open('i1');
    expect(reasoningViewOf(fold, ctx)).toMatchObject({ shown: null, withheld: 'blind_label_first' });
    expect(decideShowReasoning(fold, ctx, () => 0)).toEqual([]);
    say(0, [{ t0_ms: 0, t1_ms: 1000, text: ' Step two is wrong. I label this polite.' }]);
    const shown = decideShowReasoning(fold, ctx, () => 32000);
    expect(shown).toEqual([
      {
        type: 'reasoning_shown',
        data: {
          item_id: 'i1',
          steps: ['It thanks the asker.', 'So it is polite.'],
          model_label: 'Polite',
          split: 'given',
          reveal: 'after_blind',
          audio_samples: 32000,
        },
      },
    ]);
    write(shown);
    expect(decideShowReasoning(fold, ctx, () => 0)).toEqual([]);
    expect(reasoningViewOf(fold, ctx)).toMatchObject({ withheld: null, shown: { steps: ['It thanks the asker.', 'So it is polite.'] } });
    // said before the showing (audio < 2 s): not heard as a judgment
    const before = landed(1, [{ t0_ms: 1000, t1_ms: 1900, text: ' Step two is wrong.' }]);
    expect(types(decideTranscriptionLanded(fold, ctx, before.request, before.outcome, NO_ENGINE, at()))).not.toContain('step_judged');
    const after = landed(2, [{ t0_ms: 2500, t1_ms: 3500, text: ' Step two is wrong.' }]);
    const judged = decideTranscriptionLanded(fold, ctx, after.request, after.outcome, NO_ENGINE, at()).filter(
      (e) => e.type === 'step_judged',
    );
    expect(judged).toEqual([
      { type: 'step_judged', data: expect.objectContaining({ item_id: 'i1', index: 2, reward: -1, source: 'voice', utterance: 2 }) },
    ]);
    expect(decideJudgeStep(fold, { index: 1, reward: 1, source: 'key' })[0]!.data).toMatchObject({
      index: 1,
      reward: 1,
      source: 'key',
      kind: 'step',
    });
    expect(() => decideJudgeStep(fold, { index: 3, reward: 1, source: 'key' })).toThrow(
      /step 3 is not a step of the shown reasoning \(steps 1 to 2\)/,
    );
  });

  it('judging a step before the reasoning was shown is refused', () => {
    const { fold, open } = session();
    open('i2');
    expect(() => decideJudgeStep(fold, { index: 1, reward: 0, source: 'click' })).toThrow(/has not been shown/);
  });

  it('transcribed again: current utterances superseded, the new ones parsed, one label change for the whole batch; a stale result changes nothing', () => {
    const { fold, at, open, say, ctx } = session();
    open('i1');
    say(0, [{ t0_ms: 0, t1_ms: 1000, text: ' I label this impolite.' }]);
    const again = [
      landed(1, [{ t0_ms: 0, t1_ms: 800, text: ' I label this neutral.' }]),
      landed(2, [{ t0_ms: 900, t1_ms: 1800, text: ' I label this polite.' }]),
    ];
    const entries = decideTranscribedAgain(
      fold,
      ctx,
      { itemId: 'i1', reason: 'another model', transcriptions: again, engine: NO_ENGINE, signals: null },
      at(),
    );
    expect(types(entries)).toEqual([
      'transcripts_superseded',
      'utterance_transcribed',
      'utterance_transcribed',
      'transcript_parsed',
      'label_committed',
      'label_committed',
      'label_changed',
    ]);
    expect(entries[0]!.data).toEqual({ item_id: 'i1', utterances: [0], reason: 'another model' });
    expect(entries.at(-1)!.data).toEqual({
      item_id: 'i1',
      from: 'Impolite',
      to: 'Polite',
      source: 'voice',
      after_completion: false,
      reviewer: null,
    });
    const stale = [
      ...again,
      { request: landed(3, []).request, outcome: { kind: 'stale' as const, request_id: 'r3', reason: 'engine restarted' } },
    ];
    expect(() =>
      decideTranscribedAgain(fold, ctx, { itemId: 'i1', reason: 'x', transcriptions: stale, engine: NO_ENGINE, signals: null }, at()),
    ).toThrow(/"i1" was not transcribed again: engine restarted; its transcript and labels are unchanged/);
  });

  it('a correction names the verbatim text it replaces and changes no label; a label from the corrected text is an act of source correction', () => {
    const { fold, at, write, open, say, ctx } = session();
    open('i1');
    say(0, [{ t0_ms: 0, t1_ms: 1000, text: ' I label this impolite.' }]);
    expect(() => decideLabelFromCorrections(fold, ctx, 'i1', at())).toThrow(/has no corrected transcript/);
    expect(() => decideCorrection(fold, ctx, { itemId: 'i1', utterance: 0, segment: 1, text: 'x' })).toThrow(
      /has no segment 1 in utterance 0/,
    );
    const correction = decideCorrection(fold, ctx, { itemId: 'i1', utterance: 0, segment: 0, text: ' I label this polite.' });
    expect(correction).toEqual([
      {
        type: 'transcript_corrected',
        data: {
          item_id: 'i1',
          utterance: 0,
          segment: 0,
          original_sha256: sha256(' I label this impolite.'),
          text: ' I label this polite.',
          annotator: 'ana',
          reviewer: null,
        },
      },
    ]);
    write(correction);
    expect(fold.itemState('i1')!.final_label).toBe('Impolite');
    const relabel = decideLabelFromCorrections(fold, ctx, 'i1', at());
    expect(types(relabel)).toEqual(['label_committed', 'label_changed']);
    expect(relabel[0]!.data).toMatchObject({
      label: 'Polite',
      source: 'correction',
      quote: 'I label this polite',
      parser_version: PARSER_VERSION,
      reviewer: null,
    });
  });

  it("a reviewer's correction and the label derived from it carry the reviewer, never pass as the annotator's own", () => {
    const reviewing = context({ reviewer: 'lead' });
    const { fold, at, write, open, say } = session(reviewing);
    open('i1');
    say(0, [{ t0_ms: 0, t1_ms: 1000, text: ' I label this impolite.' }]);
    const correction = decideCorrection(fold, reviewing, { itemId: 'i1', utterance: 0, segment: 0, text: ' I label this polite.' });
    expect(correction[0]!.data).toMatchObject({ annotator: 'ana', reviewer: 'lead' });
    write(correction);
    const relabel = decideLabelFromCorrections(fold, reviewing, 'i1', at());
    expect(relabel.map((e) => e.data)).toEqual([
      expect.objectContaining({ label: 'Polite', source: 'correction', reviewer: 'lead' }),
      expect.objectContaining({ from: 'Impolite', to: 'Polite', reviewer: 'lead' }),
    ]);
    write(relabel);
    const state = fold.itemState('i1')!;
    expect(state.corrections[0]).toMatchObject({ annotator: 'ana', reviewer: 'lead' });
    expect(state.label_history.map((a) => [a.source, a.label, a.reviewer])).toEqual([
      ['voice', 'Impolite', null],
      ['correction', 'Polite', 'lead'],
    ]);
  });

  it('notes go to the open item; the keep-talking cue needs a running recording', () => {
    const { fold, write } = session();
    expect(decideNote(fold, 'before any item')).toEqual([{ type: 'note', data: { item_id: null, text: 'before any item' } }]);
    write(decideOpenItem(context(), { itemId: 'i2', recording: false }).entries);
    expect(decideNote(fold, 'hm')[0]!.data).toEqual({ item_id: 'i2', text: 'hm' });
    expect(() => decideCue(null, 'keep_talking', 6000)).toThrow(/only shown while recording/);
    expect(decideCue({ item_id: 'i2', audio_ms: 7250 }, 'keep_talking', 6000.4)).toEqual([
      { type: 'cue_shown', data: { item_id: 'i2', cue: 'keep_talking', silence_ms: 6000, audio_ms: 7250 } },
    ]);
  });
});
