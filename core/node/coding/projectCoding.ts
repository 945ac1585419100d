import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument, isSeq } from 'yaml';
import { CODEBOOK_FILE, codebookVersion, formatCodebook, parseCodebook, type CodeDef, type Codebook } from '../../common/codebook/codebook';
import { codeAgreement, type CodeAgreement, type ProtocolInfo } from '../../common/coding/codeAgreement';
import type { CoderCodings } from '../../common/coding/codingFold';
import type { CodingContext, ProtocolFacts } from '../../common/coding/codingRules';
import { isTranscriptFinal, unitsOfItem } from '../../common/coding/codingUnits';
import type { Item } from '../../common/items/item';
import { ConfigError, formatConfigProblem } from '../../common/project/projectConfig';
import type { ItemSessionState } from '../../common/session/itemState';
import { writeFileAtomic } from '../fs/atomicFile';
import { resolveInside } from '../fs/resolveInside';
import { sha256Hex } from '../fs/sha256';
import { allSessionNames, type AnnotatorStates, type SessionSource } from '../session/sessionSource';
import { ProjectError } from '../fs/projectError';
import type { OpenProject } from '../project/projectFolder';
import { codeGuidelinesInForce, type GuidelineInForce } from '../../common/guidelines/guidelines';
import { englishRefusal, say, type RefusalMessage, type RefusalValue } from '../../common/refusal/refusalMessage';
import { configProblemsSaid } from '../../common/project/strictYaml';

/** The project's codebook with its version, or why there is none to code with. */
export type LoadedCodebook =
  | { codebook: Codebook; version: string; file: string }
  /** problemSaid: the problem as a catalog message, said in the person's language */
  | { problem: string; problemSaid: RefusalValue; file: string; missing: boolean };

/** codebook.yaml beside aloud.yaml, read strictly (never through a link out of the project); a missing file is not an error here. */
export async function loadCodebook(project: OpenProject): Promise<LoadedCodebook> {
  const file = path.join(project.dir, CODEBOOK_FILE);
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  if (!exists) return { ...problemOf(say('refusal.coding.noCodebook', { file: CODEBOOK_FILE })), file, missing: true };
  const text = await readFile(await resolveInside(project.dir, CODEBOOK_FILE, 'read'), 'utf8');
  try {
    const codebook = parseCodebook(text, file);
    return { codebook, version: codebookVersion(codebook, sha256Hex), file };
  } catch (e) {
    if (e instanceof ConfigError) {
      const said = configProblemsSaid(e.problems, 'inline');
      return {
        problem: e.problems.map(formatConfigProblem).join('; '),
        problemSaid: said ?? e.problems.map(formatConfigProblem).join('; '),
        file,
        missing: false,
      };
    }
    throw e;
  }
}

function problemOf(said: RefusalMessage): { problem: string; problemSaid: RefusalMessage } {
  return { problem: englishRefusal(said), problemSaid: said };
}

/** The coding rules' context for a coder, from the project's settings and its codebook. */
export function codingContext(project: OpenProject, coder: string, loaded: LoadedCodebook): CodingContext {
  return {
    coder,
    config: project.config.coding,
    codebook: 'codebook' in loaded ? { codebook: loaded.codebook, version: loaded.version } : null,
    problem: 'problem' in loaded ? loaded.problem : null,
  };
}

/** The codes' guidelines a coding act is given under (null without a codebook): logged before the first act under them. */
export function codeGuidelinesOf(project: OpenProject, context: CodingContext): GuidelineInForce | null {
  return context.codebook
    ? codeGuidelinesInForce(context.codebook.codebook.codes, context.codebook.version, project.config.thinkaloud.languages[0] ?? 'en')
    : null;
}

/** An annotator's item as a protocol to code: its current units (by the project's unit rule) and whether they are final. */
export function protocolFacts(project: OpenProject, annotator: string, state: ItemSessionState): ProtocolFacts {
  return { annotator, item_id: state.item_id, final: isTranscriptFinal(state), units: unitsOfItem(state, project.config.coding.unit) };
}

/**
 * A new code in codebook.yaml (the lead adding an in-vivo proposal, or any code): the file is edited as a YAML
 * document, so its comments and layout stay, and checked by the same validator as a hand-written one before it is
 * written atomically. Without a codebook.yaml, one is made.
 */
export async function addCodeToCodebook(project: OpenProject, code: CodeDef): Promise<void> {
  const file = path.join(project.dir, CODEBOOK_FILE);
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  let text: string;
  if (!exists) {
    text = formatCodebook(
      { codes: [code] },
      "The project's codebook: each code has a name and a definition (what a unit must show to get it);\noptional: example, counter_example, parent (the code it is nested under), key (one character that applies it).",
    );
  } else {
    const real = await resolveInside(project.dir, CODEBOOK_FILE, 'write');
    const doc = parseDocument(await readFile(real, 'utf8'));
    const codes = doc.get('codes');
    if (!isSeq(codes)) throw new ProjectError(say('refusal.coding.hasNoListOfCodes', { file, name: code.name }));
    codes.add(doc.createNode(Object.fromEntries(Object.entries(code).filter(([, v]) => v !== undefined && v !== ''))));
    text = doc.toString({ lineWidth: 0 });
  }
  try {
    parseCodebook(text, file);
  } catch (e) {
    if (e instanceof ConfigError)
      throw new ProjectError(
        say('refusal.coding.wasNotAdded', {
          name: code.name,
          problems: configProblemsSaid(e.problems, 'inline') ?? e.problems.map(formatConfigProblem).join('; '),
        }),
      );
    throw e;
  }
  await writeFileAtomic(exists ? await resolveInside(project.dir, CODEBOOK_FILE, 'write') : file, text);
}

/** Every annotator's session, read-only: their items (the protocols) and what they coded as coders. */
export async function projectCodingSessions(project: OpenProject, sessions: SessionSource): Promise<AnnotatorStates[]> {
  const names = await allSessionNames(sessions, project);
  return Promise.all(names.map((name) => sessions.load(project, name)));
}

/** The protocols of the project's sessions as agreement reads them: current units and the annotator's labels. */
export function protocolInfos(project: OpenProject, loaded: readonly AnnotatorStates[]): ProtocolInfo[] {
  return loaded.flatMap((s) =>
    s.items
      .filter((state) => state.segments.length > 0)
      .map((state) => ({
        annotator: s.annotator,
        item_id: state.item_id,
        units: unitsOfItem(state, project.config.coding.unit),
        final_label: state.final_label,
        blind_label: state.blind_label,
      })),
  );
}

export function coderCodings(loaded: readonly AnnotatorStates[]): Array<{ coder: string; protocols: CoderCodings['protocols'] }> {
  return loaded.filter((s) => (s.codings?.protocols.length ?? 0) > 0).map((s) => ({ coder: s.annotator, protocols: s.codings!.protocols }));
}

/** Agreement on codes over the project's sessions (`aloud agreement --codes`, the Agreement tab). */
export async function projectCodeAgreement(
  project: OpenProject,
  sessions: SessionSource,
  options: { resamples?: number; seed?: number; detailsVisible?: (annotator: string, itemId: string) => boolean } = {},
): Promise<CodeAgreement & { codebook_version: string | null; exclusive: boolean; unit: string; warnings: string[] }> {
  const loaded = await projectCodingSessions(project, sessions);
  const codebook = await loadCodebook(project);
  const result = codeAgreement(coderCodings(loaded), protocolInfos(project, loaded), {
    codebook: 'codebook' in codebook ? codebook.codebook : null,
    longPauseMs: project.config.thinkaloud.long_pause_ms,
    // blind coding: α on the codes each coder gave before the others' were shown to them
    basis: project.config.coding.blind ? 'blind' : 'current',
    ...options,
  });
  const warnings = loaded.flatMap((s) => s.warnings);
  if ('problem' in codebook && !codebook.missing) warnings.push(codebook.problem);
  return {
    ...result,
    codebook_version: 'version' in codebook ? codebook.version : null,
    exclusive: 'codebook' in codebook ? codebook.codebook.exclusive === true : false,
    unit: project.config.coding.unit,
    warnings,
  };
}

/** An item's text for the coding view (the protocol's words are the annotator's; the item is what they talked about). */
export function itemTextOf(items: readonly Item[], itemId: string): string {
  return items.find((i) => i.id === itemId)?.text ?? '';
}
