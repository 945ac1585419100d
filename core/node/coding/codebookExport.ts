import path from 'node:path';
import {
  aloudCodebookOrigin,
  codebookGuids,
  formatQdaCodebook,
  parseQdaCodebook,
  QDA_CODEBOOK_NAMESPACE,
  QDA_PROJECT_NAMESPACE,
} from '../../common/codebook/qdaCodebook';
import { codebookVersion } from '../../common/codebook/codebook';
import { hasRichGuideline } from '../../common/guidelines/guidelines';
import { InputError } from '../../common/io/inputProblem';
import { appVersion } from '../exportFiles/appVersion';
import { checkExportTarget } from '../exportFiles/exportTarget';
import { stableGuid } from '../exportFiles/stableGuid';
import { xsdProblems } from '../exportFiles/xsdValidation';
import { writeFileAtomic } from '../fs/atomicFile';
import { sha256Hex } from '../fs/sha256';
import { ProjectError } from '../fs/projectError';
import type { OpenProject } from '../project/projectFolder';
import { loadCodebook } from './projectCoding';
import { say } from '../../common/refusal/refusalMessage';

export interface QdcExportSummary {
  file: string;
  sha256: string;
  bytes: number;
  codes: number;
  codebook_version: string;
}

/**
 * `aloud export --format qdc --out FILE.qdc`: the project's codebook as a REFI-QDA codebook for ATLAS.ti, NVivo,
 * MAXQDA, QualCoder. Checked before it is written: its CodeBook against the REFI-QDA schema (the codebook part of the
 * project schema, in a project around it) and read back by Aloud's own codebook import with the same codes and nesting.
 */
export async function exportQdc(options: { project: OpenProject; out: string; force: boolean }): Promise<QdcExportSummary> {
  const { project, out } = options;
  const loaded = await loadCodebook(project);
  if ('problem' in loaded) throw new ProjectError(say('refusal.coding.nothingToExport', { problem: loaded.problemSaid }));
  // a QDA description is one text: per-language guidelines or example lists would not come back from a .qdc
  const rich = loaded.codebook.codes.find(hasRichGuideline);
  if (rich) throw new ProjectError(say('refusal.coding.richGuideline', { file: loaded.file, code: rich.name }));
  await checkExportTarget(project, out, 'file', { force: options.force });
  const version = await appVersion();
  const guidOf = (key: string): string => stableGuid(project.config.name, key);
  const xml = formatQdaCodebook(loaded.codebook, guidOf, aloudCodebookOrigin(version, loaded.version, loaded.codebook.exclusive === true));
  const asProject = xml
    .replace(`<CodeBook xmlns="${QDA_CODEBOOK_NAMESPACE}"`, `<Project xmlns="${QDA_PROJECT_NAMESPACE}" name="codebook check"><CodeBook`)
    .replace(/ origin="[^"]*">/, '>')
    .replace('</CodeBook>', '</CodeBook></Project>');
  const problems = await xsdProblems('qde', [{ file: path.basename(out), xml: asProject }]);
  // i18n-ignore: the strict import's problem list (file:line per row), English like every importer (io/inputProblem) for now
  if (problems.length > 0) throw new InputError(problems);
  // read back, the file must be the same codebook: same version (names, definitions, examples, nesting), keys and GUIDs
  const back = parseQdaCodebook(xml, out).codebook;
  const guids = codebookGuids(loaded.codebook.codes, guidOf);
  const backByName = new Map(back.codes.map((c) => [c.name, c]));
  const differs = loaded.codebook.codes.find((c) => {
    const b = backByName.get(c.name);
    return (
      !b ||
      b.definition !== c.definition ||
      b.example !== c.example ||
      b.counter_example !== c.counter_example ||
      b.parent !== c.parent ||
      b.key !== c.key ||
      b.guid !== guids.get(c.name)
    );
  });
  if (differs) throw new ProjectError(say('refusal.coding.codeWouldNotComeBack', { file: loaded.file, name: differs.name }));
  if (codebookVersion(back, sha256Hex) !== loaded.version || back.codes.length !== loaded.codebook.codes.length)
    throw new Error('the .qdc does not read back as the codebook it was written from');
  await writeFileAtomic(out, xml);
  const bytes = Buffer.from(xml, 'utf8');
  return {
    file: out,
    sha256: sha256Hex(bytes),
    bytes: bytes.length,
    codes: loaded.codebook.codes.length,
    codebook_version: loaded.version,
  };
}
