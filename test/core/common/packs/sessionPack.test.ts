import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  describeEventLine,
  firstItemDifference,
  manifestProblems,
  packPathProblem,
  type SessionPackManifest,
} from '../../../../core/common/packs/sessionPack';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const manifest = (): SessionPackManifest => ({
  pack_version: 1,
  kind: 'aloud-session-pack',
  project: 'p',
  annotator: 'ana',
  events: 3,
  items: [{ id: 'i1', id_sha256: sha('i1'), text_sha256: sha('Hello'), context_sha256: null }],
  files: [
    { path: 'events.jsonl', sha256: sha('x'), bytes: 1 },
    { path: 'audio/i1.wav', sha256: sha('y'), bytes: 1 },
  ],
  app_version: '0.1.0',
  created_at: '2026-01-01T00:00:00.000Z',
});

describe('session pack rules', () => {
  it('a manifest that describes one session: its schema, allowed paths listed once, a log, ids that hash to their sha256', () => {
    expect(manifestProblems(manifest(), 'manifest.json', sha)).toEqual([]);
    const bad = manifest();
    bad.items[0]!.id_sha256 = sha('i2');
    bad.files.push({ path: 'audio/i1.wav', sha256: sha('y'), bytes: 1 }, { path: '../aloud.yaml', sha256: sha('z'), bytes: 1 });
    bad.files.shift();
    expect(manifestProblems(bad, 'manifest.json', sha).map((p) => `${p.field}: ${p.message}`)).toEqual([
      'files[1].path: "audio/i1.wav" is listed twice',
      'files[2].path: "../aloud.yaml" is not a file a session pack holds (events.jsonl, audio/<item>.wav, manifest.json)',
      'files: the pack lists no events.jsonl: it holds no session',
      'items[0].id_sha256: is not the sha256 of the id "i1"',
    ]);
    expect(manifestProblems({ ...manifest(), pack_version: 2 }, 'manifest.json', sha)[0]).toMatchObject({
      stage: 'schema',
      field: 'pack_version',
    });
  });

  it('only the log and WAVs named as the store names them', () => {
    for (const ok of ['events.jsonl', 'manifest.json', 'audio/demo-01.wav', 'audio/%C3%A9t%C3%A9.wav'])
      expect(packPathProblem(ok)).toBeNull();
    for (const bad of [
      'audio/../x.wav',
      'audio/.hidden.wav',
      'audio/a/b.wav',
      '/etc/passwd',
      'sessions/ana/events.jsonl',
      'audio/x.mp3',
      'events.jsonl.torn',
    ])
      expect(packPathProblem(bad)).not.toBeNull();
  });

  it("names the first item of the pack that is not the project's own: missing, other text, other context", () => {
    const project = new Map([
      ['i1', { textSha256: sha('Hello'), contextSha256: null }],
      ['i2', { textSha256: sha('Bye'), contextSha256: sha('ctx') }],
    ]);
    const items = (text: string, context: string | null, id = 'i2') => [
      manifest().items[0]!,
      { id, id_sha256: sha(id), text_sha256: sha(text), context_sha256: context === null ? null : sha(context) },
    ];
    expect(firstItemDifference(items('Bye', 'ctx'), project)).toBeNull();
    expect(firstItemDifference(items('Bye!', 'ctx'), project)).toMatch(
      /^item "i2" \(item 2 of the pack\) has another text in the pack than in this project/,
    );
    expect(firstItemDifference(items('Bye', null), project)).toBe(
      'item "i2" (item 2 of the pack) has another context in the pack than in this project',
    );
    expect(firstItemDifference(items('Bye', 'ctx', 'i3'), project)).toBe('item "i3" (item 2 of the pack) is not in this project');
  });

  it('describes an event line for a refusal', () => {
    expect(describeEventLine(7, '{"v":2,"seq":7,"ts":"2026-01-01T00:00:00.000Z","type":"label_committed","data":{"item_id":"i1"}}')).toBe(
      'event 7 (label_committed of i1 at 2026-01-01T00:00:00.000Z)',
    );
    expect(describeEventLine(8, null)).toBe('event 8 (none)');
  });
});
