import type { GuidelineVersionRecord } from '../../../common/guidelines/guidelineHistory';
import { loadProjectConfig } from '../../project/projectFolder';
import { exportGuidelineHistory, projectGuidelineHistory } from '../../guidelines/projectGuidelines';
import { type CliCommand, parseOptions, printJson, requireOption, UsageError } from '../cliSupport';

const USAGE = [
  'guidelines history --project DIR [--json]',
  '       aloud guidelines export --project DIR --out FILE.json [--force]',
  "  history   every version of the labels' guidelines (aloud.yaml: definition, examples, counter_examples per label) and",
  "            the codes' (codebook.yaml) the project's logs recorded in force: when first and last used, by whom, how many",
  '            acts were given under it, what changed from the version before (label, part, old → new), and the',
  '            adjudication guideline flags against the version the flagged item was labelled under; the versions in force',
  '            now are marked, used or not. Export records carry the version as guideline_version (codings: codebook_version)',
  "  export    the same history as one JSON file (guideline_history_version 1), with every version's texts",
  '  --json    versions [{scope, version, language, guidelines, first_used, last_used, annotators, acts, changes, flags, current}]',
].join('\n');

const quoted = (text: string | null): string => (text === null ? '—' : JSON.stringify(text));

function describeVersion(v: GuidelineVersionRecord): string {
  const used =
    v.first_used === null
      ? 'not used yet'
      : `first used ${v.first_used}, last ${v.last_used} by ${v.annotators.join(', ')}; ${v.acts} ${v.scope === 'labels' ? 'label' : 'code'} act${v.acts === 1 ? '' : 's'}`;
  const lines = [`${v.scope} ${v.version}${v.current ? ' (in force now)' : ''}: ${used}`];
  for (const c of v.changes)
    lines.push(
      c.part === 'added' || c.part === 'removed'
        ? `  ${c.part} ${c.name}${c.part === 'added' && c.to !== null ? `: ${quoted(c.to)}` : ''}`
        : `  ${c.name} ${c.part.replace('_', '-')} (${c.language}): ${quoted(c.from)} → ${quoted(c.to)}`,
    );
  for (const f of v.flags) lines.push(`  flag on ${f.item_id} (${f.label}) by ${f.adjudicator} at ${f.decided_at}: ${quoted(f.text)}`);
  return lines.join('\n');
}

export const guidelinesCommand: CliCommand = {
  name: 'guidelines',
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'history') {
      const { values } = parseOptions(rest, { project: 'string', json: false });
      const project = await loadProjectConfig(requireOption(values.project, '--project'));
      const history = await projectGuidelineHistory(project);
      for (const w of history.warnings) io.err(`warning: ${w}\n`);
      if (values.json) {
        const { warnings: _w, ...out } = history;
        printJson(io, out);
        return 0;
      }
      if (history.versions.length === 0) {
        io.out(`${history.project}: no guidelines yet (add definition, examples, counter_examples to the labels in aloud.yaml)\n`);
        return 0;
      }
      io.out(`${history.project}: ${history.versions.length} guideline version${history.versions.length === 1 ? '' : 's'}\n`);
      for (const v of history.versions) io.out(`${describeVersion(v)}\n`);
      return 0;
    }
    if (sub === 'export') {
      const { values } = parseOptions(rest, { project: 'string', out: 'string', force: false });
      const project = await loadProjectConfig(requireOption(values.project, '--project'));
      const result = await exportGuidelineHistory({ project, out: requireOption(values.out, '--out'), force: values.force });
      io.out(`Exported the guideline history (${result.versions} version${result.versions === 1 ? '' : 's'}) to ${result.file}\n`);
      return 0;
    }
    throw new UsageError(
      sub === undefined ? 'guidelines: say history or export' : `guidelines: unknown subcommand "${sub}" (history, export)`,
    );
  },
};
