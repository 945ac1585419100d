import { ProjectError } from '../../fs/projectError';
import { loadProjectConfig } from '../../project/projectFolder';
import { checkSyncedFolder } from '../../session/syncedFolder';
import { type CliIo, printJson, UsageError } from '../cliSupport';

export const DOCTOR_PROJECT_USAGE =
  '       aloud doctor --project DIR [--json]   a project folder shared through a file-sync tool or git: damaged or torn\n' +
  '         logs, copies a sync tool made of a log it could not merge, a log written from two computers, missing or\n' +
  '         partial audio, an unfinished unpack (exit 1 when there is a problem; warnings alone exit 0)';

/** `aloud doctor --project DIR`: checks a synced project folder (checkSyncedFolder) and prints what it found. */
export async function doctorProject(dir: string, json: boolean, io: CliIo): Promise<number> {
  let report;
  try {
    report = await checkSyncedFolder(await loadProjectConfig(dir));
  } catch (e) {
    if (e instanceof ProjectError) throw new UsageError(e.message);
    throw e;
  }
  const problems = report.findings.filter((f) => f.severity === 'problem').length;
  if (json) printJson(io, { ok: problems === 0, ...report });
  else {
    const warnings = report.findings.length - problems;
    io.out(
      `project ${report.project} (${report.sessions} session${report.sessions === 1 ? '' : 's'}): ${problems} problem${problems === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}\n`,
    );
    for (const f of report.findings)
      io.out(`${f.severity.padEnd(8)} ${f.annotator ?? '-'}  ${f.file}${f.line !== null ? `:${f.line}` : ''}  ${f.message}\n`);
  }
  return problems === 0 ? 0 : 1;
}
