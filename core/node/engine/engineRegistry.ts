import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { processIsAlive } from '../process/processAlive';
import type { EngineSupervision } from './engineSupervisor';

/** Where running engines are listed (default: a folder per user in the temp folder). */
export const ENGINE_REGISTRY_ENV = 'ALOUD_ENGINE_REGISTRY';

export function engineRegistryDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env[ENGINE_REGISTRY_ENV]) return env[ENGINE_REGISTRY_ENV];
  let user = 'user';
  try {
    user = String(userInfo().uid >= 0 ? userInfo().uid : userInfo().username);
  } catch {
    // no user database entry: one shared folder name
  }
  return path.join(tmpdir(), `aloud-engines-${user}`);
}

/** One supervised engine as a host (app, serve, ingest) last reported it. */
export interface EngineRecord extends EngineSupervision {
  host_pid: number;
  /** the host's command line, shortened */
  host: string;
  updated_at: string;
}

let nextEntry = 1;

/**
 * A host's line in the registry of running engines: rewritten (atomically) whenever the engine's supervision
 * changes, removed when the engine closes, so that `aloud doctor` can show every engine's pid, memory and restarts.
 */
export class EngineRegistryEntry {
  private readonly file: string;

  constructor(private readonly dir = engineRegistryDir()) {
    this.file = path.join(dir, `${process.pid}-${nextEntry++}.json`);
  }

  /** Never throws: the registry is for diagnosis, and a full or read-only temp folder must not stop transcription. */
  update(supervision: EngineSupervision): void {
    try {
      if (supervision.state === 'closed') {
        rmSync(this.file, { force: true });
        return;
      }
      mkdirSync(this.dir, { recursive: true });
      const record: EngineRecord = { ...supervision, host_pid: process.pid, host: hostCommand(), updated_at: new Date().toISOString() };
      writeFileSync(`${this.file}.tmp`, `${JSON.stringify(record)}\n`);
      renameSync(`${this.file}.tmp`, this.file);
    } catch {
      // diagnosis only
    }
  }
}

function hostCommand(): string {
  const args = process.argv.slice(1).map((a) => path.basename(a));
  return args.join(' ').slice(0, 120);
}

/** Resident memory of another process: /proc on Linux, `ps` elsewhere; null when it cannot be read. */
export async function residentBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (kb) return Number(kb[1]) * 1024;
  } catch {
    // not Linux, or the process is gone
  }
  try {
    const kb = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
    return Number.isFinite(kb) && kb > 0 ? kb * 1024 : null;
  } catch {
    return null;
  }
}

/** The engines of hosts still running, with their current resident memory; entries of hosts gone are removed. */
export async function runningEngines(dir = engineRegistryDir()): Promise<Array<EngineRecord & { rss_bytes: number | null }>> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const engines: Array<EngineRecord & { rss_bytes: number | null }> = [];
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    let record: EngineRecord;
    try {
      record = JSON.parse(readFileSync(file, 'utf8')) as EngineRecord;
    } catch {
      continue;
    }
    if (!Number.isSafeInteger(record.host_pid) || !processIsAlive(record.host_pid)) {
      rmSync(file, { force: true });
      continue;
    }
    const rss = record.pid !== null && record.state !== 'stopped' && processIsAlive(record.pid) ? await residentBytes(record.pid) : null;
    engines.push({ ...record, rss_bytes: rss });
  }
  return engines;
}
