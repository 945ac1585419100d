import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RoomHost } from '../../../../core/node/rooms/roomHost';
import { cli } from '../../../helpers/cli';
import { threeAnnotatorStudy } from './adjudicationStudy';

/** Every file under sessions/, path → bytes. */
async function sessionBytes(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const root = path.join(dir, 'sessions');
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      files.set(path.relative(root, file), await readFile(file));
    }
  }
  return files;
}

describe('aloud adjudicate', () => {
  it("queues disagreements lowest agreement first, decides, revises, assigns, and leaves the annotators' logs byte for byte", async () => {
    const dir = await threeAnnotatorStudy();
    const before = await sessionBytes(dir);
    expect(before.size).toBeGreaterThanOrEqual(3);

    const queue = JSON.parse((await cli('adjudicate', '--project', dir, '--queue', '--json')).out);
    expect(queue.items.map((i: { item_id: string; agreement: number }) => [i.item_id, i.agreement])).toEqual([
      ['demo-03', 0],
      ['demo-02', 1 / 3],
    ]);
    expect(queue.items[1].labels).toEqual([
      { annotator: 'ana', label: 'Polite' },
      { annotator: 'ben', label: 'Polite' },
      { annotator: 'cai', label: 'Impolite' },
    ]);
    expect(queue.too_few.map((i: { item_id: string }) => i.item_id)).toEqual(['demo-04']);
    expect(queue.counts).toMatchObject({ unanimous: 1, decided: 0, unresolved: 19, queued: 2 });

    const decided = await cli(
      'adjudicate',
      '--project',
      dir,
      '--as',
      'lead',
      '--item',
      'demo-02',
      '--label',
      'Polite',
      '--confidence',
      'medium',
      '--cause',
      'guideline gap,edge case',
      '--rationale',
      'cai read it as sarcasm',
      '--flag-guideline',
      'sarcasm is not impolite by itself',
      '--json',
    );
    expect(decided.code).toBe(0);
    expect(JSON.parse(decided.out).decision).toMatchObject({
      item_id: 'demo-02',
      label: 'Polite',
      adopted: ['ana', 'ben'],
      confidence: 'medium',
      causes: ['guideline gap', 'edge case'],
      rationale: 'cai read it as sarcasm',
      guideline_flag: 'sarcasm is not impolite by itself',
      revises: null,
    });
    const revised = JSON.parse(
      (
        await cli(
          'adjudicate',
          '--project',
          dir,
          '--as',
          'lead',
          '--item',
          'demo-02',
          '--label',
          'Impolite',
          '--confidence',
          'low',
          '--cause',
          'subjective disagreement',
          '--json',
        )
      ).out,
    );
    expect(revised.decision).toMatchObject({ label: 'Impolite', adopted: ['cai'], revises: { adjudicator: 'lead', seq: 2 } });
    const log = (await readFile(path.join(dir, 'adjudication', 'lead', 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log.map((e: { type: string; seq: number }) => [e.seq, e.type])).toEqual([
      [1, 'adjudication_started'],
      [2, 'decision_recorded'],
      [3, 'decision_recorded'],
    ]);

    // the item is decided now, so the queue holds demo-03 only
    const after = JSON.parse((await cli('adjudicate', '--project', dir, '--queue', '--json')).out);
    expect(after.items.map((i: { item_id: string }) => i.item_id)).toEqual(['demo-03']);
    expect(after.decided).toEqual([expect.objectContaining({ item_id: 'demo-02', label: 'Impolite', adjudicator: 'lead' })]);
    expect(after.counts).toMatchObject({ decided: 1, unanimous: 1 });

    // routing: a fourth annotator who has not seen demo-03; ana has
    expect((await cli('adjudicate', '--project', dir, '--as', 'lead', '--item', 'demo-03', '--assign', 'dora')).code).toBe(0);
    const seen = await cli('adjudicate', '--project', dir, '--as', 'lead', '--item', 'demo-03', '--assign', 'ana');
    expect(seen.code).toBe(2);
    expect(seen.err).toBe(
      'aloud adjudicate: "ana" has seen item "demo-03" already; assign it to an annotator who has not (her label would not be blind)\n',
    );
    expect(JSON.parse((await cli('adjudicate', '--project', dir, '--queue', '--json')).out).items[0].assigned_to).toEqual(['dora']);

    expect(await sessionBytes(dir)).toEqual(before);
  });

  it('refuses bad input with exit 2 and one line', async () => {
    const dir = await threeAnnotatorStudy();
    const base = ['adjudicate', '--project', dir, '--as', 'lead', '--item', 'demo-03'];
    const cases: Array<[string[], string]> = [
      [['--label', 'Rude', '--confidence', 'high', '--cause', 'edge case'], '"Rude" is not one of the labels (Polite, Impolite, Neutral)'],
      [['--label', 'Polite', '--confidence', 'sure', '--cause', 'edge case'], 'confidence "sure" is not one of high, medium, low'],
      [['--label', 'Polite', '--confidence', 'high', '--cause', 'sarcasm'], 'cause "sarcasm" is not one of the causes'],
      [['--label', 'Polite', '--confidence', 'high'], 'missing required option --cause'],
    ];
    for (const [args, message] of cases) {
      const r = await cli(...base, ...args);
      expect(r.code).toBe(2);
      expect(r.err).toContain(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
    const unanimous = await cli(
      'adjudicate',
      '--project',
      dir,
      '--as',
      'lead',
      '--item',
      'demo-01',
      '--label',
      'Polite',
      '--confidence',
      'high',
      '--cause',
      'edge case',
    );
    expect([unanimous.code, unanimous.err]).toEqual([
      2,
      'aloud adjudicate: item "demo-01" is not in the adjudication queue: accepted as "Polite" (unanimous)\n',
    ]);
    const both = await cli('adjudicate', '--project', dir, '--queue', '--as', 'lead', '--item', 'demo-03', '--assign', 'dora');
    expect(both.code).toBe(2);
    // no refusal logged anything
    expect(await readFile(path.join(dir, 'adjudication', 'lead', 'events.jsonl'), 'utf8')).toBe('');
  });

  it("shows each queued item's uncertainty under the label model, and orders least certain first with order: uncertainty", async () => {
    const dir = await threeAnnotatorStudy('adjudication:\n  order: uncertainty\n  label_model: majority\n');
    const queue = JSON.parse((await cli('adjudicate', '--project', dir, '--queue', '--json')).out);
    expect(queue.order).toBe('uncertainty');
    // majority vote's posterior is the vote shares: demo-03 all different (entropy 1), demo-02 2–1
    const h21 = -((2 / 3) * Math.log(2 / 3) + (1 / 3) * Math.log(1 / 3)) / Math.log(3);
    expect(queue.items.map((i: { item_id: string; uncertainty: { entropy: number } }) => [i.item_id, i.uncertainty.entropy])).toEqual([
      ['demo-03', 1],
      ['demo-02', Math.round(h21 * 1e4) / 1e4],
    ]);
    expect(queue.items[1].uncertainty).toMatchObject({ model: 'majority', label: 'Polite' });
    expect((await cli('adjudicate', '--project', dir, '--queue')).out).toContain('demo-03  agreement 0.00  uncertainty 1.00');
  });

  it('blind_names: the queue shows Annotator 1…3, never a name', async () => {
    const dir = await threeAnnotatorStudy('adjudication:\n  blind_names: true\n');
    const { out } = await cli('adjudicate', '--project', dir, '--queue', '--json');
    const queue = JSON.parse(out);
    expect(queue.items[0].labels.map((l: { annotator: string }) => l.annotator)).toEqual(['Annotator 1', 'Annotator 2', 'Annotator 3']);
    expect(out).not.toMatch(/"(ana|ben|cai)"/);
  });

  it("sends queued items to a huddle room and records its outcome as the lead's decisions with the room named", async () => {
    const dir = await threeAnnotatorStudy();
    const sent = await cli('adjudicate', '--project', dir, '--as', 'lead', '--huddle', 'demo-02,demo-03', '--json');
    expect(sent.code).toBe(0);
    const { room } = JSON.parse(sent.out);
    const host = await RoomHost.resume(dir, room);
    const [a, b, c] = [await host.join('ana'), await host.join('ben'), await host.join('cai')];
    for (const m of [a, b, c]) await host.vote(m.member_id, 'demo-02', 'Polite');
    await host.vote(a.member_id, 'demo-03', 'Polite');
    await host.vote(b.member_id, 'demo-03', 'Neutral');
    await host.reveal('demo-02');
    await host.reveal('demo-03');
    await host.close();
    const fromRoom = await cli(
      'adjudicate',
      '--project',
      dir,
      '--as',
      'lead',
      '--from-room',
      room,
      '--confidence',
      'high',
      '--cause',
      'ambiguous text',
      '--json',
    );
    expect(fromRoom.code).toBe(0);
    expect(JSON.parse(fromRoom.out).outcomes).toEqual([
      { item_id: 'demo-02', label: 'Polite', decided: true },
      { item_id: 'demo-03', label: null, decided: false, reason: 'the room has no majority on it' },
    ]);
    const log = (await readFile(path.join(dir, 'adjudication', 'lead', 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log.map((e: { type: string }) => e.type)).toEqual(['adjudication_started', 'items_sent_to_huddle', 'decision_recorded']);
    expect(log[1].data).toEqual({ item_ids: ['demo-02', 'demo-03'], room });
    expect(log[2].data).toMatchObject({ item_id: 'demo-02', label: 'Polite', room, adopted: ['ana', 'ben'] });
  });
});
