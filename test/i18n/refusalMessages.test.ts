/**
 * A converted refusal says in English exactly what it said before the catalog (the CLI, logs and --json do not move),
 * carries its catalog message across a transport, and reads differently in German.
 */
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../core/common/i18n/translator';
import { errorOutcome, unwrapOutcome, type CallOutcome } from '../../core/common/refusal/callOutcome';
import { Refusal } from '../../core/common/refusal/refusal';
import { englishRefusal, formatRefusal, type RefusalMessage } from '../../core/common/refusal/refusalMessage';
import refusalDe from '../../core/common/refusal/messages/de.json';
import { chatText, memberNameRefusal } from '../../core/common/rooms/roomNames';
import { ConfigError, readStrictYaml } from '../../core/common/project/strictYaml';
import { requireOpenItem } from '../../core/common/session/sessionRules';
import { decideCue } from '../../core/common/session/sessionRules';

const german = createTranslator('de', refusalDe);
const inGerman = (m: RefusalMessage): string => formatRefusal(german, m)!;

function refusalOf(act: () => unknown): Refusal {
  try {
    act();
  } catch (e) {
    if (e instanceof Refusal) return e;
    throw e;
  }
  throw new Error('no refusal');
}

describe('a refusal from the catalog', () => {
  it('keeps the English text it had before the catalog, and says something else in German', () => {
    const noItem = refusalOf(() => requireOpenItem({ currentItemId: null }, 'record'));
    expect(noItem.message).toBe('no item is open: open one before you record');
    expect(noItem.say).toEqual({ id: 'refusal.session.noItemIsOpenOpen', values: { toDo: { id: 'refusal.session.act.record' } } });
    expect(inGerman(noItem.say!)).toBe('Kein Item ist geöffnet: Öffnen Sie eines, bevor Sie aufnehmen');

    const cue = refusalOf(() => decideCue(null, 'keep_talking', 4000));
    expect(cue.message).toBe('the keep-talking cue is only shown while recording');
    expect(inGerman(cue.say!)).toBe('Der Hinweis zum Weitersprechen wird nur während einer Aufnahme gezeigt');

    const name = memberNameRefusal('Ann', 'ABCDEF', [{ name: 'Ann', removed: false }])!;
    expect(englishRefusal(name.say)).toBe('"Ann" is already in the room; choose another name');
    expect(inGerman(name.say)).toBe('„Ann“ ist bereits im Raum; wählen Sie einen anderen Namen');

    const chat = chatText('a'.repeat(5000));
    expect('say' in chat && englishRefusal(chat.say)).toMatch(/^a message has at most \d+ characters$/);
  });

  it('formats numbers in English as the old template did (no digit grouping)', () => {
    expect(englishRefusal({ id: 'refusal.session.aPlaybackOfMsIs', values: { playedMs: 123456789 } })).toBe(
      'a playback of 123456789 ms is longer than a day',
    );
  });

  it('a one-line YAML problem: file:line and field as values, the English line as before', () => {
    const e = refusalOf(() => readStrictYaml('labels: [one, two\n', 'aloud.yaml', 'aloud.yaml'));
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toMatch(/^aloud\.yaml:2: \(top level\): YAML syntax: /);
    expect(englishRefusal(e.say!)).toBe(e.message);
    expect(e.say!.values).toMatchObject({ where: 'aloud.yaml:2', field: '(top level)' });
    expect(inGerman(e.say!)).toMatch(/^aloud\.yaml:2: \(top level\): YAML-Syntax: /);
  });

  it('crosses a transport (JSON, as HTTP carries it) with its catalog message, and English-only refusals stay as they were', () => {
    const sent = refusalOf(() => requireOpenItem({ currentItemId: null }, 'complete'));
    const outcome = JSON.parse(JSON.stringify(errorOutcome(sent))) as CallOutcome;
    expect(outcome).toEqual({
      ok: false,
      error: {
        code: 'conflict',
        message: sent.message,
        say: { id: 'refusal.session.noItemIsOpenOpen', values: { toDo: { id: 'refusal.session.act.complete' } } },
      },
    });
    const received = refusalOf(() => unwrapOutcome(outcome));
    expect([received.code, received.message, received.say]).toEqual([sent.code, sent.message, sent.say]);

    const plain = errorOutcome(new Refusal('bad_request', 'args[0] must be a string'));
    expect(plain).toEqual({ ok: false, error: { code: 'bad_request', message: 'args[0] must be a string' } });
  });
});
