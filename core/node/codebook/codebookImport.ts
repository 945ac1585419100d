import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { CODEBOOK_FILE, codebookVersion, formatCodebook, parseCodebook } from '../../common/codebook/codebook';
import { parseQdaCodebook } from '../../common/codebook/qdaCodebook';
import { InputError } from '../../common/io/inputProblem';
import { QDPX_LIMITS, unzipBounded, ZipLimitError } from '../archives/boundedUnzip';
import { writeFileAtomic } from '../fs/atomicFile';
import { sha256Hex } from '../fs/sha256';
import { ProjectError } from '../fs/projectError';
import type { OpenProject } from '../project/projectFolder';

/** A codebook larger than this is not a codebook (the biggest published ones are a few hundred kB). */
const MAX_CODEBOOK_BYTES = 64 * 1024 * 1024;

export interface CodebookImportSummary {
  source: string;
  /** sha256 of the codebook XML read (the .qdc, or the .qdpx's project.qde) */
  source_sha256: string;
  /** "codebook" for a .qdc, "project" for the CodeBook of a .qdpx */
  source_kind: 'codebook' | 'project';
  codebook_file: string;
  codes: number;
  top_level: number;
  nested: number;
  /** the deepest nesting, 1 for a flat list */
  depth: number;
  /** codes the QDA tool marked isCodable="false" (folders of codes): kept, as parents */
  not_codable: string[];
  /** codes without a description: their definition is empty until someone writes it */
  without_definition: string[];
  /** the imported codebook's version, which coding acts record */
  codebook_version: string;
  /** the version an Aloud .qdc says it was exported at (null from another tool): equal to codebook_version when nothing was lost */
  source_codebook_version: string | null;
  replaced: boolean;
  dry_run: boolean;
}

/** The XML of a .qdc, or the project.qde of a .qdpx (a zip), as UTF-8 text. */
async function codebookXml(source: string): Promise<string> {
  const info = await stat(source).catch(() => null);
  if (!info?.isFile()) throw new ProjectError(`${source}: file not found`);
  if (info.size > MAX_CODEBOOK_BYTES)
    throw new ProjectError(`${source}: ${info.size} bytes is too large for a codebook (at most ${MAX_CODEBOOK_BYTES})`);
  const bytes = await readFile(source);
  const lower = source.toLowerCase();
  let xml: Uint8Array;
  if (lower.endsWith('.qdpx')) {
    let entries: Map<string, Uint8Array>;
    try {
      entries = unzipBounded(bytes, (name) => /^[^/]*\.qde$/i.test(name), QDPX_LIMITS).entries;
    } catch (e) {
      throw new InputError([
        {
          file: source,
          line: null,
          field: null,
          stage: 'input',
          message: e instanceof ZipLimitError ? `refused: ${e.message}` : `not a .qdpx (zip) file: ${(e as Error).message}`,
        },
      ]);
    }
    const names = [...entries.keys()];
    if (names.length !== 1)
      throw new InputError([
        {
          file: source,
          line: null,
          field: null,
          stage: 'input',
          message:
            names.length === 0
              ? 'the .qdpx holds no project.qde'
              : `the .qdpx holds ${names.length} .qde files (${names.join(', ')}); REFI-QDA puts exactly one at the top`,
        },
      ]);
    xml = entries.get(names[0]!)!;
  } else if (lower.endsWith('.qdc')) xml = bytes;
  else throw new ProjectError(`${source}: a codebook is a REFI-QDA .qdc file or the CodeBook of a .qdpx project`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(xml).replace(/^\ufeff/, '');
  } catch {
    throw new InputError([{ file: source, line: null, field: null, stage: 'input', message: 'not UTF-8 text (REFI-QDA files are UTF-8)' }]);
  }
}

/**
 * `aloud import --codebook FILE.qdc|FILE.qdpx`: the QDA tool's codebook becomes the project's codebook.yaml (nesting
 * as `parent`, descriptions as definitions), checked by the same validator as a hand-written one before it is
 * written atomically. An existing codebook.yaml is replaced only with `replace`.
 */
export async function importCodebook(options: {
  project: OpenProject;
  source: string;
  replace: boolean;
  dryRun: boolean;
}): Promise<CodebookImportSummary> {
  const { project, source } = options;
  const xml = await codebookXml(source);
  const imported = parseQdaCodebook(xml, source);
  const target = path.join(project.dir, CODEBOOK_FILE);
  const exists = await stat(target).then(
    () => true,
    () => false,
  );
  if (exists && !options.replace)
    throw new ProjectError(`${target}: the project already has a codebook; pass --replace to replace it with ${path.basename(source)}`);
  const { codes } = imported;
  const text = formatCodebook(
    imported.codebook,
    `The project's codebook, imported by aloud from ${path.basename(source)} (${imported.kind === 'project' ? 'the CodeBook of a REFI-QDA project' : 'a REFI-QDA codebook'}).\nEach code: name, definition (the QDA description), optional example, counter_example, parent (nesting), key, guid (its QDA GUID).`,
  );
  // what is written must read back as it is meant: the same validator as a hand-edited codebook.yaml
  const check = parseCodebook(text, target);
  if (check.codes.length !== codes.length) throw new Error(`codebook round trip lost codes (${codes.length} → ${check.codes.length})`);
  const version = codebookVersion(check, sha256Hex);
  if (!options.dryRun) await writeFileAtomic(target, text);
  return {
    source,
    source_sha256: sha256Hex(new TextEncoder().encode(xml)),
    source_kind: imported.kind,
    codebook_file: target,
    codes: codes.length,
    top_level: codes.filter((c) => c.path.length === 0).length,
    nested: codes.filter((c) => c.path.length > 0).length,
    depth: Math.max(...codes.map((c) => c.path.length + 1)),
    not_codable: codes.filter((c) => !c.isCodable).map((c) => c.name),
    without_definition: codes.filter((c) => c.description === null).map((c) => c.name),
    codebook_version: version,
    source_codebook_version: imported.originVersion,
    replaced: exists,
    dry_run: options.dryRun,
  };
}
