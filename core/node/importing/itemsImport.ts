import { mkdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Item } from '../../common/items/item';
import { conversationsToItems, messagesFromRecords, type ConversationGap } from '../../common/items/conversations';
import { mergeItems, type ImportMode } from '../../common/items/itemsMerge';
import {
  csvRowsAsValues,
  formatFromFileName,
  itemCsvRecords,
  itemsFromRecords,
  parseRecords,
  requireColumns,
  type TabularFormat,
} from '../../common/items/itemsSource';
import type { LabelSchemaContext } from '../../common/reasoning/modelLabel';
import { parseCsv } from '../../common/io/csv';
import { InputError, type InputProblem } from '../../common/io/inputProblem';
import type { InputLimits } from '../../common/io/inputText';
import type { LocatedValue } from '../../common/io/jsonInput';
import { countWords } from '../../common/items/wordCount';
import { itemIdKey } from '../../common/names/nameRules';
import { writeFileAtomic } from '../fs/atomicFile';
import { itemsPath, projectLabelSchema, type OpenProject } from '../project/projectFolder';
import { formatItemsJsonl, readItemsFile } from '../project/itemsFile';
import { readInputFile } from '../fs/inputFile';
import { itemsWithSessionData } from './sessionItems';

export type ImportKind = 'items' | 'conversations';

/** What `aloud import --json` prints; conversation figures are null for an items import. */
export interface ImportSummary {
  source: string;
  source_sha256: string;
  kind: ImportKind;
  format: TabularFormat;
  mode: ImportMode;
  dry_run: boolean;
  messages: number | null;
  conversations: number | null;
  candidate_replies: number | null;
  /** reply ids imported as items (for an items import: the item ids read) */
  included_pairs: string[];
  gaps: ConversationGap[];
  distinct_user_contexts: number;
  words_all_messages: number | null;
  words_eligible_messages: number | null;
  /** context counted with every pair (every item) */
  words_pairs: number;
  /** messages with absent or null text: no word estimate for them */
  messages_without_text: number | null;
  items_file: string;
  /** imports/<time>-gaps.jsonl, for conversations; null for items or a dry run */
  gap_register: string | null;
  /** imports/<time>-import.json: this summary, kept with the project; null for a dry run */
  import_record: string | null;
  items_added: number;
  items_unchanged: number;
  items_changed: string[];
  items_removed: string[];
  items_total: number;
}

/** The source file read through every stage, before anything touches the project. */
export interface ImportSource {
  items: Item[];
  /** line of each item in the source, for rule problems found while merging */
  lines: Map<string, number>;
  sha256: string;
  format: TabularFormat;
  stats: Pick<
    ImportSummary,
    | 'messages'
    | 'conversations'
    | 'candidate_replies'
    | 'included_pairs'
    | 'gaps'
    | 'distinct_user_contexts'
    | 'words_all_messages'
    | 'words_eligible_messages'
    | 'words_pairs'
    | 'messages_without_text'
  >;
}

const CONVERSATION_OPTIONAL_COLUMNS = ['parent_id', 'session_id', 'message_tree_id', 'reasoning', 'reasoning_content', 'model_label'];

/** `schema`: the project's labels, against which a model's answer (`model_label`) is resolved. */
export async function readImportSource(
  file: string,
  kind: ImportKind,
  limits?: InputLimits,
  schema?: LabelSchemaContext,
): Promise<ImportSource> {
  const format = formatFromFileName(file);
  if (format === null) {
    throw new InputError([{ file, line: null, field: null, stage: 'input', message: 'unknown file type: use .jsonl, .json or .csv' }]);
  }
  const input = await readInputFile(file, { lineBased: format !== 'json', ...(limits ? { limits } : {}) });
  const what = kind === 'items' ? 'items' : 'messages';
  let records: LocatedValue[];
  if (format === 'csv') {
    const table = parseCsv(input.text, file);
    requireColumns(table, file, kind === 'items' ? ['id', 'text'] : ['message_id', 'role', 'text']);
    records = csvRowsAsValues(table);
    // in CSV an empty cell is the only way to say "absent" for optional references and context
    if (kind === 'items') records = itemCsvRecords(records, file);
    else {
      for (const record of records) {
        const row = record.value as Record<string, string>;
        for (const column of CONVERSATION_OPTIONAL_COLUMNS) if (row[column] === '') delete row[column];
      }
    }
  } else {
    records = parseRecords(input.text, file, format, what);
  }
  if (records.length === 0) throw new InputError([{ file, line: null, field: null, stage: 'rule', message: `the file has no ${what}` }]);

  if (kind === 'items') {
    const items = itemsFromRecords(records, file, schema, 'import');
    return {
      items,
      lines: new Map(items.map((item, i) => [item.id, records[i]!.line])),
      sha256: input.sha256,
      format,
      stats: {
        messages: null,
        conversations: null,
        candidate_replies: null,
        included_pairs: items.map((i) => i.id),
        gaps: [],
        distinct_user_contexts: new Set(items.flatMap((i) => (i.context === undefined ? [] : [i.context]))).size,
        words_all_messages: null,
        words_eligible_messages: null,
        words_pairs: items.reduce((n, i) => n + countWords(i.text) + (i.context === undefined ? 0 : countWords(i.context)), 0),
        messages_without_text: null,
      },
    };
  }
  const messages = messagesFromRecords(records, file, schema);
  const { items, ...stats } = conversationsToItems(messages);
  const lineOf = new Map(messages.map((m) => [m.message_id, m.line]));
  return { items, lines: new Map(items.map((i) => [i.id, lineOf.get(i.id) ?? 0])), sha256: input.sha256, format, stats };
}

export interface ImportOptions {
  project: OpenProject;
  source: string;
  kind: ImportKind;
  mode: ImportMode;
  /** replace even when removed or changed items hold session data */
  force: boolean;
  dryRun: boolean;
  limits?: InputLimits;
  now?: () => Date;
}

/**
 * Imports items into a project completely or not at all. Every stage runs on the source first; then the merge
 * rules; then the gap register and the import record are written (each atomically) and last the items file is
 * replaced atomically — the commit point. If that fails, the register and record are removed again.
 */
export async function importIntoProject(options: ImportOptions): Promise<ImportSummary> {
  const { project, source: file } = options;
  const target = itemsPath(project);
  if (formatFromFileName(target) !== 'jsonl') {
    throw new InputError([
      {
        file: project.configPath,
        line: null,
        field: 'items',
        stage: 'rule',
        message: `import writes JSON Lines, but the project's items file is ${project.config.items}; point "items" at a .jsonl file`,
      },
    ]);
  }
  const source = await readImportSource(file, options.kind, options.limits, projectLabelSchema(project));
  const existing = await readExistingItems(target, project);
  const problems: InputProblem[] = [];
  // one id in two Unicode forms would be two items to the merge and one item to the eye
  const existingByKey = new Map(existing.map((item) => [itemIdKey(item.id), item.id]));
  for (const item of source.items) {
    const known = existingByKey.get(itemIdKey(item.id));
    if (known !== undefined && known !== item.id) {
      problems.push({
        file,
        line: source.lines.get(item.id) ?? null,
        field: 'id',
        stage: 'rule',
        message: `item id ${JSON.stringify(item.id)} is the project's item ${JSON.stringify(known)} (${target}) in another form (Unicode normalisation or an invisible character); use the project's id`,
      });
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  const merged = mergeItems(existing, source.items, options.mode);

  if (options.mode === 'append') {
    for (const id of merged.changed) {
      problems.push({
        file,
        line: source.lines.get(id) ?? null,
        field: 'id',
        stage: 'rule',
        message: `item "${id}" already exists in ${target} with different content; use --replace to change it`,
      });
    }
  } else if (!options.force && (merged.removed.length > 0 || merged.changed.length > 0)) {
    const withData = await itemsWithSessionData(project.dir);
    for (const id of merged.changed) {
      const who = withData.get(id);
      if (who)
        problems.push({
          file,
          line: source.lines.get(id) ?? null,
          field: 'id',
          stage: 'rule',
          message: `item "${id}" would change but has session data (${who.join(', ')}); use --force to change it anyway`,
        });
    }
    for (const id of merged.removed) {
      const who = withData.get(id);
      if (who)
        problems.push({
          file,
          line: null,
          field: 'id',
          stage: 'rule',
          message: `item "${id}" would be removed but has session data (${who.join(', ')}); its recordings would be orphaned — keep it in the file or use --force`,
        });
    }
  }
  if (problems.length > 0) throw new InputError(problems);

  const summary: ImportSummary = {
    source: file,
    source_sha256: source.sha256,
    kind: options.kind,
    format: source.format,
    mode: options.mode,
    dry_run: options.dryRun,
    ...source.stats,
    items_file: target,
    gap_register: null,
    import_record: null,
    items_added: merged.added.length,
    items_unchanged: merged.unchanged.length,
    items_changed: merged.changed,
    items_removed: merged.removed,
    items_total: merged.items.length,
  };
  if (options.dryRun) return summary;

  const importsDir = path.join(path.dirname(target), 'imports');
  await mkdir(importsDir, { recursive: true });
  const stamp = await freeStamp(importsDir, (options.now ?? (() => new Date()))());
  const written: string[] = [];
  try {
    if (options.kind === 'conversations') {
      summary.gap_register = path.join(importsDir, `${stamp}-gaps.jsonl`);
      await writeFileAtomic(summary.gap_register, summary.gaps.map((g) => `${JSON.stringify(g)}\n`).join(''));
      written.push(summary.gap_register);
    }
    summary.import_record = path.join(importsDir, `${stamp}-import.json`);
    await writeFileAtomic(summary.import_record, `${JSON.stringify(summary, null, 2)}\n`);
    written.push(summary.import_record);
    await writeFileAtomic(target, formatItemsJsonl(merged.items));
  } catch (e) {
    for (const f of written) await unlink(f).catch(() => undefined);
    throw e;
  }
  return summary;
}

/** The project's current items; a project whose items file does not exist yet has none. */
async function readExistingItems(target: string, project: OpenProject): Promise<Item[]> {
  const exists = await stat(target).then(
    () => true,
    (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? false : true),
  );
  return exists ? readItemsFile(target, undefined, projectLabelSchema(project, 'keep')) : [];
}

/** A file-name-safe time stamp no earlier import in this folder has used. */
async function freeStamp(dir: string, now: Date): Promise<string> {
  const base = now.toISOString().replace(/[:.]/g, '-');
  for (let n = 1; ; n++) {
    const stamp = n === 1 ? base : `${base}-${n}`;
    const taken = await stat(path.join(dir, `${stamp}-import.json`)).then(
      () => true,
      () => false,
    );
    if (!taken) return stamp;
  }
}
