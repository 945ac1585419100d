import { describe, expect, it } from 'vitest';
import type { ShadowItemView, ShadowView } from '../../../core/common/rooms/shadowViews';
import { setRoomLanguage } from '../../../renderer/roomPages/roomLanguage';
import {
  actLine,
  alphaText,
  answeredText,
  audioOffered,
  audioPath,
  itemStateText,
  pcm16ToFloat,
  practiceKey,
  practiceVerdict,
  practiceWritable,
  shadowStatus,
  secs,
  shadowWhoLine,
  sourceWords,
  stepsNumberThemselves,
  summaryTitle,
  traineeRow,
} from '../../../renderer/roomPages/shadowPageText';

function item(over: Partial<ShadowItemView> = {}): ShadowItemView {
  return {
    item_id: 'demo-01',
    text: 'Thanks!',
    context: null,
    live: true,
    ended: null,
    shown_at: '2026-01-01T00:00:00Z',
    selection: null,
    recording: false,
    completed: false,
    transcript: [],
    partial: null,
    pauses: [],
    reasoning: null,
    expert: { shown: false, has_labelled: false },
    practice: { mine: null, answered: [] },
    ...over,
  };
}

function view(over: Partial<ShadowView> = {}): ShadowView {
  return {
    kind: 'shadow',
    seq: 5,
    code: 'ABC123',
    project: 'demo',
    labels: ['Polite', 'Impolite'],
    level: 'nominal',
    closed: false,
    expert: { name: 'Eva', present: true },
    audio_shared: false,
    me: { role: 'trainee', member_id: 'm1', name: 'ben', share_full: false },
    log: { bytes: 1, max_bytes: 10, member_max_bytes: 5, full: false, feed_stopped: false, feed_max_bytes: 5 },
    trainees: [],
    max_members: 12,
    current: item(),
    metrics: { items: 0, trainees: [], per_item: [], diverged_most: [] },
    ...over,
  };
}

describe("the shadow room page's words and rules", () => {
  it('the status line: closed, a stopped feed, a full log or share, her absence, an ended item, then live', () => {
    expect(shadowStatus(view({ closed: true }))).toEqual(['The room was closed. Thank you for taking part.', 'closed']);
    expect(shadowStatus(view({ log: { ...view().log, feed_stopped: true, full: true } }))[0]).toBe(
      'The room log is full: live view has stopped.',
    );
    expect(shadowStatus(view({ log: { ...view().log, full: true } }))[0]).toBe('The room log is full: no more answers.');
    expect(shadowStatus(view({ me: { role: 'trainee', member_id: 'm1', name: 'ben', share_full: true } }))[1]).toBe('away');
    expect(shadowStatus(view({ expert: { name: 'Eva', present: false }, current: null }))).toEqual(['Waiting for Eva to start…', 'away']);
    expect(shadowStatus(view({ expert: { name: null, present: false } }))[0]).toBe(
      'the expert has left. You can read the last item; the room waits for her to come back.',
    );
    expect(shadowStatus(view({ current: item({ live: false }) }))).toEqual(['Eva left this item.', 'away']);
    expect(shadowStatus(view({ current: null }))).toEqual(['Eva is here; waiting for her to open an item.', '']);
    expect(shadowStatus(view())).toEqual(['Live: Eva is labelling demo-01.', 'live']);
    expect(shadowWhoLine(view())).toBe('You are ben · shadowing Eva');
    expect(shadowWhoLine(view({ me: { role: 'expert' } }))).toBe('You are the expert');
  });

  it('answers are open in an open room with room left; her audio is offered to trainees on a live item she shares', () => {
    expect(practiceWritable(view())).toBe(true);
    expect(practiceWritable(view({ closed: true }))).toBe(false);
    expect(audioOffered(view())).toBe(false);
    expect(audioOffered(view({ audio_shared: true }))).toBe(true);
    expect(audioOffered(view({ audio_shared: true, me: { role: 'expert' } }))).toBe(false);
    expect(audioOffered(view({ audio_shared: true, current: item({ live: false }) }))).toBe(false);
  });

  it("an item's state and who answered: names only while live, answers once its live view ended", () => {
    expect(itemStateText(item({ completed: true }))).toBe('completed');
    expect(itemStateText(item({ live: false, ended: 'room_closed' }))).toBe('the room closed on this item');
    expect(itemStateText(item({ live: false, ended: 'expert_left', completed: true }))).toBe('her session ended on this item (completed)');
    expect(answeredText({ answered: [] })).toBe('Nobody has answered yet.');
    expect(answeredText({ answered: ['ben', 'cy'] })).toBe('Answered so far: ben, cy');
    expect(answeredText({ answered: [], answers: { ben: 'Polite', cy: null } })).toBe('Answers: ben Polite · cy skipped');
    expect(answeredText({ answered: [], answers: {} })).toBe('Nobody answered on this item.');
  });

  it("the trainee's answer against hers, with her first label when she changed it", () => {
    const shown = (blind: string, final: string): ShadowItemView['expert'] => ({
      shown: true,
      acts: [],
      blind_label: blind,
      final_label: final,
      prior: null,
    });
    expect(practiceVerdict({ label: 'Polite' }, shown('Polite', 'Polite'))).toEqual({ verdict: 'Same as hers.', agree: true, first: null });
    expect(practiceVerdict({ label: 'Impolite' }, shown('Impolite', 'Polite'))).toEqual({
      verdict: 'She said Polite.',
      agree: false,
      first: ' Her first label was yours, Impolite.',
    });
    expect(practiceVerdict({ label: null }, shown('Polite', 'Polite'))).toBeNull();
    expect(practiceVerdict({ label: 'Polite' }, { shown: false, has_labelled: true })).toBeNull();
  });

  it('practice keys: 1–9 and S, never with a modifier, a held key or while typing', () => {
    const press = (key: string, over: Partial<Parameters<typeof practiceKey>[0]> = {}) =>
      practiceKey({ key, ctrlKey: false, metaKey: false, altKey: false, repeat: false, defaultPrevented: false, typing: false, ...over });
    expect(press('1')).toEqual({ label: 0 });
    expect(press('9')).toEqual({ label: 8 });
    expect(press('0')).toBeNull();
    expect(press('s')).toBe('skip');
    expect(press('S')).toBe('skip');
    expect(press('1', { ctrlKey: true })).toBeNull();
    expect(press('1', { repeat: true })).toBeNull();
    expect(press('s', { typing: true })).toBeNull();
  });

  it('numbers, sources, the agreement table and the audio request', () => {
    expect(alphaText(null, null)).toBe('not enough data');
    expect(alphaText(0.5, [0.25, 0.75])).toBe('0.50 [0.25, 0.75]');
    expect(sourceWords('voice')).toBe('said aloud');
    expect(sourceWords('room')).toBe('room');
    expect(stepsNumberThemselves(['1. look', '2) decide'])).toBe(true);
    expect(stepsNumberThemselves(['1. look', 'decide'])).toBe(false);
    expect(summaryTitle(view({ metrics: { items: 1, trainees: [], per_item: [], diverged_most: [] } }))).toBe(
      'Agreement with Eva (1 item done)',
    );
    expect(
      traineeRow({
        name: 'ben',
        answered: 4,
        skipped: 1,
        agree_blind: 3,
        agree_final: 3,
        alpha_blind: null,
        alpha_final: 0.6,
        ci95_blind: null,
        ci95_final: null,
        undefined_reason_final: null,
        median_ms: 2500,
      }),
    ).toEqual(['ben', 4, 1, '3 of 4', '0.60', 'not enough data', '2.5 s']);
    expect(audioPath('a b/c', null)).toBe('/api/audio?item=a%20b%2Fc&wait=1');
    expect(audioPath('x', 1600)).toBe('/api/audio?item=x&from=1600&wait=1');
    expect([...pcm16ToFloat(new Int16Array([0, 16384, -32768]))]).toEqual([0, 0.5, -1]);
  });

  it('says how and when she gave a label, in English as it always read', () => {
    const at = '2026-01-02T10:42:07.000Z';
    const time = new Date(at).toLocaleTimeString('en');
    expect(actLine({ source: 'voice', quote: 'I label this polite', at })).toBe(` — said aloud: “I label this polite” · ${time}`);
    expect(actLine({ source: 'click', quote: null, at })).toBe(` — by click · ${time}`);
  });

  it('speaks German when the page was served in German: plurals, decimal commas, names in place', () => {
    setRoomLanguage('de');
    try {
      expect(summaryTitle(view({ metrics: { items: 1, trainees: [], per_item: [], diverged_most: [] } }))).toBe(
        'Übereinstimmung mit Eva (1 Item erledigt)',
      );
      expect(summaryTitle(view({ metrics: { items: 3, trainees: [], per_item: [], diverged_most: [] } }))).toBe(
        'Übereinstimmung mit Eva (3 Items erledigt)',
      );
      expect(shadowStatus(view({ current: null }))).toEqual(['Eva ist da; wartet darauf, dass sie ein Item öffnet.', '']);
      expect(secs(2500)).toBe('2,5 s');
      expect(alphaText(0.6, [0.25, 0.8])).toBe('0,60 [0,25, 0,80]');
      expect(shadowWhoLine(view())).toBe('Sie sind ben · Sie begleiten Eva');
      const at = '2026-01-02T10:42:07.000Z';
      const time = new Date(at).toLocaleTimeString('de');
      expect(actLine({ source: 'voice', quote: 'ich sage höflich', at })).toBe(` – laut gesagt: „ich sage höflich“ · ${time}`);
      expect(actLine({ source: 'key', quote: null, at })).toBe(` – per Taste · ${time}`);
    } finally {
      setRoomLanguage('en');
    }
  });
});
