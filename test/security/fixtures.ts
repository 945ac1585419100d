import { cp, mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { DEMO_PROJECT_DIR, loadProjectConfig, type OpenProject } from '../../core/node/project/projectFolder';
import { recordSession } from '../core/node/export/recordSession';

/** A fresh copy of the demo project in its own temporary folder, with a sibling folder "outside" it. */
export async function freshProject(): Promise<{ project: OpenProject; root: string; outside: string }> {
  const root = await mkdtemp(path.join(tmpdir(), 'aloud-hostile-'));
  const dir = path.join(root, 'project');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  const outside = path.join(root, 'outside');
  await mkdir(outside);
  return { project: await loadProjectConfig(dir), root, outside };
}

/** A project with ana's session holding 1 s of audio for demo-01 (closed, no lock). */
export async function recordedProject(): Promise<{ project: OpenProject; root: string; wav: string }> {
  const { project, root } = await freshProject();
  await recordSession(project, 'ana', [{ id: 'demo-01', said: ['hello'] }]);
  return { project, root, wav: path.join(project.dir, 'sessions', 'ana', 'audio', 'demo-01.wav') };
}

/** Awaits a rejection and returns it, failing when the promise resolves. */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  const outcome = await p.then(
    () => null,
    (e: unknown) => e as Error,
  );
  if (outcome === null) throw new Error('expected a refusal, but it succeeded');
  return outcome;
}

/** Asserts that a file still holds exactly `bytes`. */
export async function unchanged(file: string, bytes: Uint8Array | string): Promise<void> {
  const now = await readFile(file);
  expect(now.equals(typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes))).toBe(true);
}
