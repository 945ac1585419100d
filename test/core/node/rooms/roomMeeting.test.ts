import { mkdtemp, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementAnalysis } from '../../../../core/common/agreement/agreementAnalysis';
import type { RoomView } from '../../../../core/common/rooms/roomViews';
import { projectLabelSet } from '../../../../core/node/agreement/agreementSources';
import { annotatorSessions, projectSessionSource } from '../../../../core/node/session/projectSessions';
import { loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { RoomHost } from '../../../../core/node/rooms/roomHost';
import type { RoomListener } from '../../../../core/node/rooms/roomHttp';
import { startRoomListener } from '../../../../core/node/rooms/roomListener';
import { cli } from '../../../helpers/cli';
import { request, RoomClient } from './roomClient';

const LABELS = ['Polite', 'Impolite', 'Neutral'];

async function demoProject(): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-room-')), 'p');
  expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
  return dir;
}

async function openRoom(dir: string, items = ['demo-01', 'demo-02', 'demo-03', 'demo-04']): Promise<RoomHost> {
  const project = await loadProjectConfig(dir);
  const { loadProjectItems } = await import('../../../../core/node/project/projectFolder');
  const all = await loadProjectItems(project);
  return RoomHost.create(dir, {
    project: project.config.name,
    mode: 'items',
    items: items.map((id) => ({ id, text: all.find((i) => i.id === id)!.text })),
    labels: LABELS,
    level: 'nominal',
    max_members: 12,
  });
}

/** Every answer a member got must keep other members' votes on unrevealed items out. */
function expectNoLeaks(member: RoomClient, othersVotes: Map<string, Map<string, string>>, revealedAt: Map<string, number>): void {
  for (const answer of member.answers) {
    const view = answer.body as unknown as RoomView;
    if (!Array.isArray(view.items)) continue;
    for (const item of view.items) {
      const revealSeq = revealedAt.get(item.item_id);
      if (revealSeq !== undefined && view.seq >= revealSeq) continue;
      expect(item.revealed).toBe(false);
      expect(Object.keys(item).sort()).toEqual(['item_id', 'my_vote', 'revealed', 'text', 'voted']);
      const others = [...(othersVotes.get(item.item_id) ?? [])].filter(([name]) => name !== member.name).map(([, label]) => label);
      const own = othersVotes.get(item.item_id)?.get(member.name) ?? null;
      // a label only others gave appears nowhere in this item's view
      for (const label of others) if (label !== own) expect(JSON.stringify(item)).not.toContain(label);
    }
  }
}

describe('a norming room with five members over loopback', () => {
  let dir: string;
  let host: RoomHost;
  let listener: RoomListener;
  let leadClient: RoomClient;
  const members: Record<string, RoomClient> = {};
  const votes = new Map<string, Map<string, string>>();
  const revealedAt = new Map<string, number>();

  beforeAll(async () => {
    dir = await demoProject();
    host = await openRoom(dir);
    listener = await startRoomListener(host);
    leadClient = new RoomClient(listener.url, 'lead', host.leadToken);
  });
  afterAll(async () => {
    await listener?.close();
    await host?.close().catch(() => undefined);
  });

  const blind = async (name: string, item: string, label: string) => {
    await members[name]!.vote(item, label);
    if (!votes.has(item)) votes.set(item, new Map());
    votes.get(item)!.set(name, label);
  };

  it('members join with the code (case and dashes do not matter); a wrong code is refused', async () => {
    expect(host.code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/);
    expect(listener.address).toBe('127.0.0.1');
    const wrong = await request(listener.url, 'POST', '/api/join', {
      body: { code: 'ABCDEF' === host.code ? 'ABCDEG' : 'ABCDEF', name: 'mallory' },
    });
    expect(wrong.status).toBe(403);
    for (const name of ['ana', 'ben', 'cai', 'dee']) members[name] = await RoomClient.join(listener.url, host.code, name);
    members.eve = await RoomClient.join(listener.url, `${host.code.slice(0, 3).toLowerCase()}-${host.code.slice(3)}`, 'eve');
    const taken = await request(listener.url, 'POST', '/api/join', { body: { code: host.code, name: 'ANA' } });
    expect(taken.status).toBe(409);
    const view = await members.ana!.view();
    expect(view.members.map((m) => m.name)).toEqual(['ana', 'ben', 'cai', 'dee', 'eve']);
    expect(view.members[0]).not.toHaveProperty('member_id');
    expect(view.me).toMatchObject({ role: 'member', name: 'ana' });
  });

  it('blind votes: members see who has voted, never what — in every answer, polled or full', async () => {
    await blind('ana', 'demo-01', 'Polite');
    await blind('ben', 'demo-01', 'Impolite');
    await blind('cai', 'demo-01', 'Impolite');
    await blind('dee', 'demo-01', 'Impolite');
    await blind('eve', 'demo-01', 'Neutral');
    for (const name of ['ana', 'ben', 'cai', 'dee']) await blind(name, 'demo-02', 'Polite');
    await blind('ben', 'demo-03', 'Neutral');
    await blind('cai', 'demo-03', 'Polite');
    // a changed blind vote before the reveal is still blind: the last one counts
    await blind('ana', 'demo-03', 'Impolite');
    await blind('ana', 'demo-03', 'Neutral');
    for (const m of Object.values(members)) {
      await m.poll();
      await m.view();
      expect((await m.poll()).body).toEqual({ seq: host.seq, unchanged: true });
    }
    const view = await members.eve!.view();
    const d1 = view.items.find((i) => i.item_id === 'demo-01')!;
    expect(d1.voted).toEqual(['ana', 'ben', 'cai', 'dee', 'eve']);
    expect(d1.my_vote).toBe('Neutral');
    expect(d1).not.toHaveProperty('blind_votes');
    // the lead sees no votes either before the reveal
    const leadView = await leadClient.view();
    expect(leadView.me).toEqual({ role: 'lead' });
    expect(JSON.stringify(leadView.items.map(({ text: _t, ...rest }) => rest))).not.toMatch(/"(Polite|Impolite|Neutral)"/);
    for (const m of Object.values(members)) expectNoLeaks(m, votes, revealedAt);
  });

  it('only the lead reveals; then blind votes are immutable and changes are logged with the majority of the others', async () => {
    expect((await members.ana!.call('POST', '/api/lead/reveal', { item_id: 'demo-01' })).status).toBe(403);
    for (const item of ['demo-01', 'demo-02', 'demo-03']) {
      expect((await leadClient.call('POST', '/api/lead/reveal', { item_id: item })).status).toBe(200);
      revealedAt.set(item, host.seq);
    }
    expect((await leadClient.call('POST', '/api/lead/reveal', { item_id: 'demo-01' })).status).toBe(409);
    expect((await leadClient.call('POST', '/api/vote', { item_id: 'demo-01', label: 'Polite' })).status).toBe(403);

    // ana moves to the others' majority (3 × Impolite, 1 × Neutral); eve too, after ana did
    await members.ana!.vote('demo-01', 'Impolite');
    await members.eve!.vote('demo-01', 'Impolite');
    // eve's first vote on demo-02 comes after the reveal: never blind
    await members.eve!.vote('demo-02', 'Impolite');
    // ben moves away from a majority: others on demo-03 are Neutral (ana), Polite (cai): a tie, no majority
    await members.ben!.vote('demo-03', 'Polite');
    const view = await members.cai!.view();
    const d1 = view.items.find((i) => i.item_id === 'demo-01')!;
    expect(d1.blind_votes).toEqual({ ana: 'Polite', ben: 'Impolite', cai: 'Impolite', dee: 'Impolite', eve: 'Neutral' });
    expect(d1.current_votes).toEqual({ ana: 'Impolite', ben: 'Impolite', cai: 'Impolite', dee: 'Impolite', eve: 'Impolite' });
    expect(d1.changes!.map(({ seq: _s, ...c }) => c)).toEqual([
      { name: 'ana', from: 'Polite', to: 'Impolite', majority_of_others: 'Impolite' },
      { name: 'eve', from: 'Neutral', to: 'Impolite', majority_of_others: 'Impolite' },
    ]);
    const d2 = view.items.find((i) => i.item_id === 'demo-02')!;
    expect(d2.blind_votes).not.toHaveProperty('eve');
    expect(d2.current_votes!.eve).toBe('Impolite');
    expect(d2.changes!.map(({ seq: _s, ...c }) => c)).toEqual([{ name: 'eve', from: null, to: 'Impolite', majority_of_others: 'Polite' }]);
    const d3 = view.items.find((i) => i.item_id === 'demo-03')!;
    expect(d3.blind_votes).toEqual({ ana: 'Neutral', ben: 'Neutral', cai: 'Polite' });
    expect(d3.changes!.map(({ seq: _s, ...c }) => c)).toEqual([{ name: 'ben', from: 'Neutral', to: 'Polite', majority_of_others: null }]);

    // conformity: changes after reveals, and how many went to the others' majority (a first vote is no change)
    expect(view.metrics.conformity).toEqual([
      { name: 'ana', votes: 3, changes: 1, changes_toward_majority: 1 },
      { name: 'ben', votes: 3, changes: 1, changes_toward_majority: 0 },
      { name: 'cai', votes: 3, changes: 0, changes_toward_majority: 0 },
      { name: 'dee', votes: 2, changes: 0, changes_toward_majority: 0 },
      { name: 'eve', votes: 2, changes: 1, changes_toward_majority: 1 },
    ]);
    // demo-04 is still blind: nobody voted, and nothing of it shows
    expect(view.items.find((i) => i.item_id === 'demo-04')).toMatchObject({ revealed: false, voted: [] });
    for (const m of Object.values(members)) expectNoLeaks(m, votes, revealedAt);
  });

  it('live α over the revealed items: blind vs current, with intervals, the same as agreement computes', async () => {
    const { metrics } = await members.dee!.view();
    const rec = (item_id: string, annotator: string, blind_label: string | null, final_label: string) => ({
      item_id,
      annotator,
      blind_label,
      final_label,
    });
    const expected = agreementAnalysis(
      [
        rec('demo-01', 'ana', 'Polite', 'Impolite'),
        rec('demo-01', 'ben', 'Impolite', 'Impolite'),
        rec('demo-01', 'cai', 'Impolite', 'Impolite'),
        rec('demo-01', 'dee', 'Impolite', 'Impolite'),
        rec('demo-01', 'eve', 'Neutral', 'Impolite'),
        rec('demo-02', 'ana', 'Polite', 'Polite'),
        rec('demo-02', 'ben', 'Polite', 'Polite'),
        rec('demo-02', 'cai', 'Polite', 'Polite'),
        rec('demo-02', 'dee', 'Polite', 'Polite'),
        rec('demo-02', 'eve', null, 'Impolite'),
        rec('demo-03', 'ana', 'Neutral', 'Neutral'),
        rec('demo-03', 'ben', 'Neutral', 'Polite'),
        rec('demo-03', 'cai', 'Polite', 'Polite'),
      ],
      { level: 'nominal', categories: LABELS, hasBlind: true },
    );
    expect(metrics.revealed_items).toBe(3);
    expect(metrics.alpha_blind).toBeCloseTo(expected.alpha_blind!, 12);
    expect(metrics.alpha_current).toBeCloseTo(expected.alpha_final!, 12);
    expect(metrics.ci95_current).toEqual(expected.ci95_final);
    expect(metrics.alpha_current!).toBeGreaterThan(metrics.alpha_blind!);
    expect(metrics.ci95_blind![0]).toBeLessThanOrEqual(metrics.alpha_blind!);
  });

  it('chat goes to everyone, after the cursor only', async () => {
    expect((await members.ben!.call('POST', '/api/chat', { text: 'demo-03 reads as sarcasm to me' })).status).toBe(200);
    expect((await leadClient.call('POST', '/api/chat', { text: 'let us move on' })).status).toBe(200);
    const all = await members.eve!.view();
    expect(all.chat.map((c) => `${c.from}: ${c.text}`)).toEqual(['ben: demo-03 reads as sarcasm to me', 'lead: let us move on']);
    const later = await members.eve!.call('GET', `/api/state?after=0&chat_after=${all.chat[0]!.seq}`);
    expect((later.body as unknown as RoomView).chat.map((c) => c.text)).toEqual(['let us move on']);
  });

  it('the lead removes a member: their token is refused, they cannot rejoin under that name, their votes leave the metrics', async () => {
    const leadView = await leadClient.view();
    const dee = leadView.members.find((m) => m.name === 'dee')!;
    expect((await members.ana!.call('POST', '/api/lead/remove', { member_id: dee.member_id })).status).toBe(403);
    expect((await leadClient.call('POST', '/api/lead/remove', { member_id: dee.member_id })).status).toBe(200);
    const refused = await members.dee!.call('GET', '/api/state?after=0');
    expect(refused.status).toBe(403);
    expect((await members.dee!.call('POST', '/api/vote', { item_id: 'demo-04', label: 'Polite' })).status).toBe(403);
    expect((await request(listener.url, 'POST', '/api/join', { body: { code: host.code, name: 'dee' } })).status).toBe(403);
    const view = await members.ana!.view();
    expect(view.members.map((m) => m.name)).toEqual(['ana', 'ben', 'cai', 'eve']);
    expect(view.items[0]!.current_votes).not.toHaveProperty('dee');
  });

  it('room export gives the log and metrics; agreement reads the room log; final votes are written back as new sessions', async () => {
    await listener.close();
    await host.close();
    const exported = await cli('room', 'export', host.code, '--project', dir, '--json');
    expect(exported.code).toBe(0);
    const { log, metrics } = JSON.parse(exported.out);
    expect(log[0].type).toBe('room_opened');
    expect(log.filter((e: { type: string }) => e.type === 'vote_cast')).toHaveLength(17);
    expect(metrics.revealed_items).toBe(3);

    const logFile = path.join(dir, 'rooms', host.code, 'events.jsonl');
    expect((await readFile(logFile, 'utf8')).trim().split('\n')).toHaveLength(log.length);
    const fromLog = JSON.parse((await cli('agreement', '--room', logFile, '--json')).out);
    expect(fromLog.alpha_blind).toBeCloseTo(metrics.alpha_blind, 12);
    expect(fromLog.alpha_final).toBeCloseTo(metrics.alpha_current, 12);
    expect(fromLog.annotators.find((a: { annotator: string }) => a.annotator === 'ana')).toEqual({
      annotator: 'ana',
      labels: 3,
      changes: 1,
      changes_toward_majority: 1,
    });

    const wb = await cli('room', 'writeback', host.code, '--project', dir, '--json');
    expect(wb.code, wb.err).toBe(0);
    const { sessions } = JSON.parse(wb.out);
    expect(sessions.map((s: { annotator: string }) => s.annotator)).toEqual([
      `ana (room ${host.code})`,
      `ben (room ${host.code})`,
      `cai (room ${host.code})`,
      `eve (room ${host.code})`,
    ]);
    // write-backs are sessions of their own kind: out of project agreement unless asked for
    const byDefault = await projectLabelSet(await loadProjectConfig(dir));
    expect(byDefault.records.filter((r) => r.annotator.includes('(room '))).toEqual([]);
    expect(byDefault.counting!.room_sessions_left_out).toHaveLength(4);
    const labels = await projectLabelSet(await loadProjectConfig(dir), projectSessionSource, {
      includeRooms: true,
      includeIncomplete: false,
      includeReviewers: false,
    });
    const ana = labels.records.filter((r) => r.annotator === `ana (room ${host.code})`);
    expect(ana.map((r) => [r.item_id, r.final_label])).toEqual([
      ['demo-01', 'Impolite'],
      ['demo-02', 'Polite'],
      ['demo-03', 'Neutral'],
    ]);
    // the blind votes too: ana changed one vote after the reveal, so one item's blind label differs from its final one
    expect(ana.filter((r) => r.blind_label !== r.final_label)).toHaveLength(1);
    const { sessionPaths } = await import('../../../../core/node/session/sessionPaths');
    const events = (await readFile(sessionPaths(dir, `ana (room ${host.code})`).events, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events[0].data).toMatchObject({ kind: 'room', room: { code: host.code } });
    expect(events.filter((e) => e.type === 'label_committed').map((e) => e.data.source)).toEqual(['room', 'room', 'room', 'room']);
    // not offered to "Continue as"
    const { projectSessionSource: source } = await import('../../../../core/node/session/projectSessions');
    expect((await source.annotators(await loadProjectConfig(dir))).some((a) => a.includes('(room '))).toBe(true);
    expect(await annotatorSessions(await loadProjectConfig(dir))).not.toContainEqual(expect.stringContaining('(room '));
    // the room sessions export and validate like any other (label_source "room")
    const out = path.join(path.dirname(dir), 'with-room.jsonl');
    const exportRun = await cli('export', '--project', dir, '--format', 'jsonl', '--out', out);
    expect(exportRun.code, exportRun.err + exportRun.out).toBe(0);
    expect(await readFile(out, 'utf8')).toContain('"label_source":"room"');
    // never twice, never over existing labels
    const again = await cli('room', 'writeback', host.code, '--project', dir);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/written back already/);
  });
});

describe('the room listener', () => {
  let dir: string;
  let host: RoomHost;
  let listener: RoomListener;

  beforeAll(async () => {
    dir = await demoProject();
    host = await openRoom(dir, ['demo-01']);
    listener = await startRoomListener(host, {
      limits: {
        member: { burst: 4, perSecond: 0.01 },
        anonymous: { burst: 40, perSecond: 0.01 },
        wrongToken: { burst: 40, perSecond: 0.01 },
        wrongCode: { burst: 3, perSecond: 0.01 },
      },
    });
  });
  afterAll(async () => {
    await listener?.close();
    await host?.close();
  });

  it('answers only the room routes: no annotation API, no project files, no other Host', async () => {
    for (const p of [
      '/api/project',
      '/api/agreement',
      '/aloud.yaml',
      '/items.jsonl',
      '/sessions/ana/events.jsonl',
      `/rooms/${host.code}/events.jsonl`,
      '/..%2faloud.yaml',
      '/api/lead/state',
    ]) {
      const r = await request(listener.url, 'GET', p);
      expect(r.status, p).toBe(404);
      expect(JSON.stringify(r.body)).not.toContain('politeness');
    }
    const page = await request(listener.url, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    // fetch cannot set Host: a raw request, as a DNS-rebinding page's browser would send it
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: listener.port, path: '/', headers: { Host: `attacker.example:${listener.port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(rebound).toBe(421);
    const form = await request(listener.url, 'POST', '/api/join', {
      body: { code: host.code, name: 'x' },
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(form.status).toBe(415);
    const crossSite = await request(listener.url, 'POST', '/api/join', {
      body: { code: host.code, name: 'x' },
      headers: { Origin: 'http://attacker.example' },
    });
    expect(crossSite.status).toBe(403);
    const big = await request(listener.url, 'POST', '/api/join', { body: { code: host.code, name: 'x'.repeat(5000) } });
    expect(big.status).toBe(413);
  });

  it('rate limits: a member token past its burst gets 429 with Retry-After; so do repeated wrong codes', async () => {
    const m = await RoomClient.join(listener.url, host.code, 'ana');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await m.call('GET', '/api/state?after=0')).status);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses.slice(4)).toEqual([429, 429]);
    expect(Number(m.answers.at(-1)!.headers.get('retry-after'))).toBeGreaterThan(0);
    const wrong: number[] = [];
    for (let i = 0; i < 5; i++)
      wrong.push(
        (await request(listener.url, 'POST', '/api/join', { body: { code: 'ZZZZZZ' === host.code ? 'YYYYYY' : 'ZZZZZZ', name: `g${i}` } }))
          .status,
      );
    expect(wrong).toEqual([403, 403, 403, 429, 429]);
    // wrong tokens spend a budget of their own (burst 40 here)
    const guesses: number[] = [];
    for (let i = 0; i < 45; i++) guesses.push((await request(listener.url, 'GET', '/api/state?after=0', { token: `guess${i}` })).status);
    expect(guesses.slice(0, 3)).toEqual([403, 403, 403]);
    expect(guesses.at(-1)).toBe(429);
  });

  it('limits members (the default is 12)', async () => {
    const small = await demoProject();
    const project = await loadProjectConfig(small);
    const room = await RoomHost.create(small, {
      project: project.config.name,
      mode: 'items',
      items: [{ id: 'demo-01', text: 't' }],
      labels: LABELS,
      level: 'nominal',
      max_members: 12,
    });
    try {
      for (let i = 0; i < 12; i++) await room.join(`m${i}`);
      await expect(room.join('thirteenth')).rejects.toThrow(/the room is full \(12 members\)/);
    } finally {
      await room.close();
    }
  });
});
