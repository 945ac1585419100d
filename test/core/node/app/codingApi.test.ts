import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCodebook } from '../../../../core/common/codebook/codebook';
import { dispatchApiCall } from '../../../../core/node/app/apiDispatcher';
import { AppService } from '../../../../core/node/app/appService';
import { codingStudy } from '../coding/codingStudy';

const open = (projectDir: string, annotator: string) =>
  AppService.open({ projectDir, mode: 'browser', openEngine: null }).then(async (app) => {
    await app.openSession(annotator);
    return app;
  });

describe('coding over the app API', () => {
  it("blind coding is enforced by the host: another coder's codes reach a coder only once they finished the item", async () => {
    const { dir } = await codingStudy({ configExtra: 'coding:\n  blind: true' });
    const cat = await open(dir, 'cat');
    await cat.codeUnit('ana', 'demo-01', 'u0', 'Doubts', 'toggle', 'key');
    await cat.codeUnit('ana', 'demo-01', 'u1', 'Reasons', 'apply', 'click');
    await cat.proposeCode('ana', 'demo-01', 'u1', 'thanks the user');
    await cat.finishCoding('ana', 'demo-01');
    await cat.close();

    const bob = await open(dir, 'bob');
    const before = await bob.codingItem('ana', 'demo-01');
    expect(before.others).toBeNull();
    expect(JSON.stringify(before)).not.toMatch(/cat|Reasons/);
    const coded = await bob.codeUnit('ana', 'demo-01', 'u0', 'doubts', 'toggle', 'key');
    expect(coded.mine).toEqual({ u0: [{ code: 'Doubts', memo: null }] });
    expect(coded.others).toBeNull();
    // the Agreement tab gets no unit of an item this coder has not finished (the units list names codes)
    const agreementBefore = await bob.codeAgreement();
    expect(JSON.stringify(agreementBefore.disagreements)).not.toContain('demo-01');
    // the overview tells progress, never the others' codes
    const overview = await bob.codingOverview();
    expect(overview).toMatchObject({
      coder: 'bob',
      blind: true,
      unit: 'utterance',
      codebook: { version: expect.stringMatching(/^[0-9a-f]{12}$/) },
    });
    expect(overview.protocols.find((p) => p.item_id === 'demo-01')).toEqual({
      annotator: 'ana',
      item_id: 'demo-01',
      units: 3,
      final: true,
      coded_units: 1,
      finished_at: null,
    });
    expect(overview.protocols.find((p) => p.item_id === 'demo-04')).toMatchObject({ final: false });
    expect(JSON.stringify(overview)).not.toContain('cat');

    const finished = await bob.finishCoding('ana', 'demo-01');
    expect((await bob.codingOverview()).proposals).toMatchObject([{ name: 'thanks the user', coder: 'cat' }]);
    expect(finished.others).toEqual([{ coder: 'cat', finished_at: expect.any(String), codes: { u0: ['Doubts'], u1: ['Reasons'] } }]);
    const agreement = await bob.codeAgreement();
    expect(agreement.disagreements.map((d) => [d.item_id, d.unit, d.codes])).toEqual([['demo-01', 'u1', { bob: [], cat: ['Reasons'] }]]);
    expect(agreement.codes.find((c) => c.code === 'Doubts')).toMatchObject({ pairable_units: 3 });
    await bob.close();
  });

  it("a lead who has not coded sees the coders' disagreements only after a logged choice; her later codes are not blind", async () => {
    const { dir } = await codingStudy({ configExtra: 'coding:\n  blind: true' });
    for (const [coder, code] of [
      ['cat', 'Reasons'],
      ['bob', 'Doubts'],
    ] as const) {
      const app = await open(dir, coder);
      await app.codeUnit('ana', 'demo-01', 'u1', code, 'apply', 'key');
      await app.finishCoding('ana', 'demo-01');
      await app.close();
    }
    const lea = await open(dir, 'lea');
    const blindView = await lea.codeAgreement();
    expect(blindView.disagreements).toEqual([]);
    expect(blindView.hidden_disagreements).toBe(1);
    expect((await lea.codingItem('ana', 'demo-01')).others).toBeNull();

    const asLead = await lea.revealCodingsAsLead();
    expect(asLead.hidden_disagreements).toBe(0);
    expect(asLead.disagreements.map((d) => [d.item_id, d.unit, d.codes])).toEqual([
      ['demo-01', 'u1', { bob: ['Doubts'], cat: ['Reasons'] }],
    ]);
    // the coding view shows the others' codes too, and a code she gives now says it came after seeing them
    expect((await lea.codingItem('ana', 'demo-01')).others).toHaveLength(2);
    await lea.codeUnit('ana', 'demo-02', 'u0', 'Doubts', 'apply', 'key');
    // asked again: nothing more is logged
    await lea.revealCodingsAsLead();
    await lea.close();
    const events = (await readFile(path.join(dir, 'sessions', 'lea', 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
    expect(events.filter((e) => e.type === 'codings_revealed').map((e) => e.data)).toEqual([{ as: 'lead' }]);
    expect(events.find((e) => e.type === 'code_applied')!.data).toMatchObject({ code: 'Doubts', after_finished: true });
    // the coders' own logs are not touched by her choice
    for (const coder of ['bob', 'cat'])
      expect(await readFile(path.join(dir, 'sessions', coder, 'events.jsonl'), 'utf8')).not.toContain('codings_revealed');
  });

  it('undo takes back the last code act; memos, proposals and a new code from the lead; refusals travel as data', async () => {
    const { dir } = await codingStudy({ configExtra: 'coding:\n  own_protocols: false' });
    const bob = await open(dir, 'bob');
    await bob.codeUnit('ana', 'demo-02', 'u0', 'Cites the guideline', 'apply', 'click');
    await bob.codeUnit('ana', 'demo-02', 'u1', 'Doubts', 'apply', 'key');
    const undone = await bob.undoCoding();
    expect(undone).toMatchObject({ item_id: 'demo-02', changed_unit: 'u1', mine: { u0: [{ code: 'Cites the guideline' }] } });
    const memo = await bob.writeCodingMemo('ana', 'demo-02', 'u0', 'Cites the guideline', 'names the sarcasm rule');
    expect(memo.mine.u0).toEqual([{ code: 'Cites the guideline', memo: 'names the sarcasm rule' }]);
    await bob.proposeCode('ana', 'demo-02', 'u0', 'sarcasm is impolite');
    expect((await bob.codingOverview()).proposals).toMatchObject([{ name: 'sarcasm is impolite', coder: 'bob', unit: 'u0' }]);
    const added = await bob.addCode({
      name: 'sarcasm is impolite',
      definition: 'Says sarcasm makes a reply impolite.',
      parent: 'Reasons',
      key: 's',
    });
    expect(added.proposals).toEqual([]);
    expect(added.codebook!.codes.map((c) => c.name)).toContain('sarcasm is impolite');
    const text = await readFile(path.join(dir, 'codebook.yaml'), 'utf8');
    expect(text).toContain("# the study's codebook (a comment the app keeps when it adds a code)");
    expect(parseCodebook(text).codes.at(-1)).toEqual({
      name: 'sarcasm is impolite',
      definition: 'Says sarcasm makes a reply impolite.',
      parent: 'Reasons',
      key: 's',
    });
    expect(await dispatchApiCall(bob, 'addCode', [{ name: 'Doubts', definition: 'again' }])).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('duplicate code name "Doubts"') },
    });
    expect(await dispatchApiCall(bob, 'codeUnit', ['ana', 'demo-02', 'u0', 'Nope', 'apply', 'key'])).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringContaining('"Nope" is not a code') },
    });
    expect(await dispatchApiCall(bob, 'codeUnit', ['ana', 'demo-02', 'x0', 'Doubts', 'apply', 'key'])).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await dispatchApiCall(bob, 'codeUnit', ['ana', 'demo-04', 'u0', 'Doubts', 'apply', 'key'])).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('not final') },
    });
    await bob.close();
    // a coder's own protocols are not theirs to code in this project
    const ana = await open(dir, 'ana');
    expect((await ana.codingOverview()).protocols).toEqual([]);
    expect(await dispatchApiCall(ana, 'codeUnit', ['ana', 'demo-02', 'u0', 'Doubts', 'apply', 'key'])).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('cannot code their own protocol') },
    });
    await ana.close();
  });
});
