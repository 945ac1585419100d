import { appendFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_DIR, loadProjectConfig, type OpenProject } from '../../../../core/node/project/projectFolder';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { cli } from '../../../helpers/cli';
import { recordSession } from '../export/recordSession';

let root: string;
let n = 0;

/** A project folder as a team syncs it: two annotators' sessions, ana's with audio. */
async function syncedProject(): Promise<OpenProject> {
  const dir = path.join(root, `synced-${n++}`);
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  const project = await loadProjectConfig(dir);
  await recordSession(project, 'ana', [
    { id: 'demo-01', said: [' I label this polite.'], complete: true },
    { id: 'demo-02', click: 'Neutral' },
  ]);
  await recordSession(project, 'ben', [{ id: 'demo-01', click: 'Impolite', complete: true }]);
  return project;
}

async function doctor(project: OpenProject): Promise<{
  code: number;
  findings: Array<{ severity: string; kind: string; annotator: string | null; file: string; line: number | null; message: string }>;
}> {
  const run = await cli('doctor', '--project', project.dir, '--json');
  return { code: run.code, findings: (JSON.parse(run.out) as { findings: never[] }).findings };
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'aloud-synced-'));
});

describe('aloud doctor --project (a folder shared through a sync tool or git)', () => {
  it('finds nothing in a clean folder and says so', async () => {
    const project = await syncedProject();
    expect(await doctor(project)).toEqual({ code: 0, findings: [] });
    expect((await cli('doctor', '--project', project.dir)).out).toBe('project politeness-demo (2 sessions): 0 problems, 0 warnings\n');
  });

  it('a torn last line is a warning; a line a merge damaged is a problem naming its line', async () => {
    const project = await syncedProject();
    await appendFile(sessionPaths(project.dir, 'ana').events, '{"v":1,"seq":99,"ts":"20');
    const log = sessionPaths(project.dir, 'ben').events;
    const lines = (await readFile(log, 'utf8')).split('\n');
    await writeFile(log, [...lines.slice(0, 2), '<<<<<<< HEAD', ...lines.slice(2)].join('\n'));
    const { code, findings } = await doctor(project);
    expect(code).toBe(1);
    expect(findings).toEqual([
      expect.objectContaining({
        severity: 'warning',
        kind: 'torn_line',
        annotator: 'ana',
        file: 'sessions/ana/events.jsonl',
        line: expect.any(Number),
      }),
      expect.objectContaining({ severity: 'problem', kind: 'damaged_log', annotator: 'ben', file: 'sessions/ben/events.jsonl', line: 3 }),
    ]);
  });

  it('copies a sync tool made of a log or a session folder, and a log written from two computers', async () => {
    const project = await syncedProject();
    const ana = sessionPaths(project.dir, 'ana');
    await cp(ana.events, path.join(ana.dir, "events (Ana's conflicted copy 2025-01-06).jsonl"));
    await cp(sessionPaths(project.dir, 'ben').dir, path.join(project.dir, 'sessions', 'ben (1)'), { recursive: true });
    // ana opens her session again on this computer, then on another one
    await recordSession(project, 'ana', []);
    const lines = (await readFile(ana.events, 'utf8')).trimEnd().split('\n');
    await appendFile(
      ana.events,
      `${JSON.stringify({ v: 2, seq: lines.length + 1, ts: new Date().toISOString(), type: 'session_resumed', data: { pid: 4242, host: 'laptop-b', config_sha256: null, parser_version: null } })}\n`,
    );
    const { code, findings } = await doctor(project);
    expect(code).toBe(1);
    expect(findings.map((f) => [f.severity, f.kind, f.file])).toEqual([
      ['problem', 'conflict_copy', "sessions/ana/events (Ana's conflicted copy 2025-01-06).jsonl"],
      ['warning', 'two_computers', 'sessions/ana/events.jsonl'],
      ['problem', 'conflict_copy', 'sessions/ben (1)'],
    ]);
    expect(findings[1]!.message).toMatch(/opened on 2 computers \(.+, laptop-b\)/);
  });

  it('audio the log records but the folder lacks (not synced, or ignored), and an unpack left unfinished', async () => {
    const project = await syncedProject();
    await rm(path.join(sessionPaths(project.dir, 'ana').audioDir, 'demo-01.wav'));
    await mkdir(path.join(project.dir, '.aloud-unpack-otherhost-123-0a1b2c3d'));
    const { code, findings } = await doctor(project);
    expect(code).toBe(1);
    expect(findings).toEqual([
      expect.objectContaining({ severity: 'warning', kind: 'unfinished_unpack', annotator: null }),
      expect.objectContaining({ severity: 'problem', kind: 'missing_audio', annotator: 'ana', file: 'sessions/ana/audio/demo-01.wav' }),
    ]);
    expect(findings[1]!.message).toMatch(/the log records 1000 ms of audio for "demo-01" but the file is not in the folder/);
  });
});
