import { EXPORT_SCHEMA_VERSION, exportRecordJsonSchemas, type ExportRecord } from '../exportRecord';
import { hesitationListsFor, type HesitationLists } from '../../signals/hesitationLists';

/** How a column of the dataset holds its values (Hugging Face `dtype`; Parquet type beside it). */
export type HfColumnType = 'string' | 'int32' | 'float64' | 'bool' | 'json';

/** One flat column: the record field it comes from (a path into the record) and its type. */
export interface HfColumn {
  name: string;
  path: readonly string[];
  type: HfColumnType;
}

type SchemaNode = Record<string, unknown>;

/**
 * The dataset's columns, derived from the record schema this Aloud writes so that every field is in it: a nested object's fields
 * become columns named with "_" (audio.path → audio_path, signals.pauses.count → signals_pauses_count), a list or a
 * map (segments, label_history, fillers_by_term, …) one column of JSON text; `file_name` (audiofolder) comes first.
 */
export function hfColumns(schema: SchemaNode = exportRecordJsonSchemas[EXPORT_SCHEMA_VERSION]!): HfColumn[] {
  const defs = (schema.$defs ?? {}) as Record<string, SchemaNode>;
  const resolve = (node: SchemaNode): SchemaNode =>
    typeof node.$ref === 'string' ? resolve(defs[node.$ref.replace('#/$defs/', '')]!) : node;
  const columns: HfColumn[] = [{ name: 'file_name', path: [], type: 'string' }];
  const walk = (node: SchemaNode, path: string[]): void => {
    for (const [key, raw] of Object.entries((node.properties ?? {}) as Record<string, SchemaNode>)) {
      const child = resolve(raw);
      const types = ([] as unknown[]).concat(child.type ?? []).filter((t) => t !== 'null');
      const at = [...path, key];
      if (types.includes('object') && child.properties) walk(child, at);
      else columns.push({ name: at.join('_'), path: at, type: columnType(child, types) });
    }
  };
  walk(schema, []);
  return columns;
}

function columnType(node: SchemaNode, types: unknown[]): HfColumnType {
  if (types.includes('array') || types.includes('object')) return 'json';
  if (types.includes('integer') || (node.const !== undefined && Number.isInteger(node.const))) return 'int32';
  if (types.includes('number')) return 'float64';
  if (types.includes('boolean')) return 'bool';
  return 'string';
}

export type HfCell = string | number | boolean | null;

/** One dataset row: the record's values under `hfColumns` (JSON text for lists and maps; null where a parent is null). */
export function hfRow(record: ExportRecord, fileName: string, columns: readonly HfColumn[]): Record<string, HfCell> {
  const row: Record<string, HfCell> = {};
  for (const column of columns) {
    if (column.path.length === 0) {
      row[column.name] = fileName;
      continue;
    }
    let value: unknown = record;
    for (const key of column.path) value = value === null || value === undefined ? null : (value as Record<string, unknown>)[key];
    if (value === undefined) value = null;
    row[column.name] = column.type === 'json' ? (value === null ? null : JSON.stringify(value)) : (value as HfCell);
  }
  return row;
}

/** Hugging Face's size category of a row count (dataset card metadata). */
export function sizeCategory(rows: number): string {
  if (rows < 1_000) return 'n<1K';
  if (rows < 10_000) return '1K<n<10K';
  if (rows < 100_000) return '10K<n<100K';
  return '100K<n<1M';
}

export interface DatasetCardInput {
  project: string;
  rows: number;
  annotators: readonly string[];
  items: number;
  labels: readonly string[];
  languages: readonly string[];
  columns: readonly HfColumn[];
  models: ReadonlyArray<{ name: string; sha256: string | null; whisper_cpp: string | null }>;
  parserVersions: readonly string[];
  thinkaloud: {
    fillers: readonly string[];
    /** aloud.yaml's per-language hesitation lists (the built-in ones where none is given) */
    hesitation?: Readonly<Record<string, Partial<HesitationLists>>>;
    silence_threshold_dbfs: number;
    min_pause_ms: number;
    long_pause_ms: number;
    chunk_seconds: number;
  };
  /** records of the export left out because they have no audio */
  withoutAudio: number;
  appVersion: string;
  createdAt: string;
  parquetFile: string;
  /** the gold split beside the recordings (aloud export --gold records), null when the export has none */
  goldFile?: string | null;
}

const yamlString = (s: string): string => JSON.stringify(s);
const quoted = (terms: readonly string[]): string => terms.map((f) => `"${f}"`).join(', ');

/** The lists each category counted, per language, as a methods section states them. */
function hesitationMethods(
  languages: readonly string[],
  configured: Readonly<Record<string, Partial<HesitationLists>>> | undefined,
): string {
  return languages
    .map((language) => {
      const lists = hesitationListsFor(language, configured);
      return `${language}: \`signals_filled_pause_count\` counts ${quoted(lists.filled_pauses) || 'nothing'}, \`signals_hedge_count\` ${quoted(lists.hedges) || 'nothing'}, \`signals_editing_term_count\` ${quoted(lists.editing_terms) || 'nothing'}`;
    })
    .join('; ');
}

/**
 * The dataset card (README.md): YAML metadata (pretty name, languages, task, size, `configs:` naming the Parquet file,
 * features equal to its columns) and a methods paragraph
 * generated from the project: model, parser version, hesitation definitions, blind and final labels.
 */
export function datasetCard(input: DatasetCardInput): string {
  // the features are the Parquet file's columns, in its order (the default config reads that file)
  const features = input.columns.flatMap((c) => [`  - name: ${c.name}`, `    dtype: ${c.type === 'json' ? 'string' : c.type}`]);
  const models =
    input.models.length === 0
      ? 'no speech model (nothing was transcribed)'
      : input.models
          .map((m) => `${m.name} (sha256 ${m.sha256 ?? 'unknown'}${m.whisper_cpp ? `, whisper.cpp ${m.whisper_cpp}` : ''})`)
          .join('; ');
  const scripted = input.models.some((m) => m.sha256?.startsWith('scripted:'));
  const t = input.thinkaloud;
  return [
    '---',
    `pretty_name: ${yamlString(`${input.project}: think-aloud labels`)}`,
    'language:',
    ...input.languages.map((l) => `- ${l}`),
    'task_categories:',
    '- text-classification',
    '- automatic-speech-recognition',
    'tags:',
    '- think-aloud',
    '- annotation-rationales',
    '- aloud',
    'size_categories:',
    `- ${sizeCategory(input.rows)}`,
    'configs:',
    '- config_name: default',
    '  data_files:',
    '  - split: train',
    `    path: ${input.parquetFile}`,
    // the gold labels are one row per item, not per recording: a config of their own
    ...(input.goldFile ? ['- config_name: gold', '  data_files:', '  - split: train', `    path: ${input.goldFile}`] : []),
    'dataset_info:',
    '  config_name: default',
    '  features:',
    ...features,
    '  splits:',
    '  - name: train',
    `    num_examples: ${input.rows}`,
    '---',
    '',
    `# ${input.project}: think-aloud labels`,
    '',
    `${input.rows} recordings of ${input.annotators.length} annotator${input.annotators.length === 1 ? '' : 's'} (${input.annotators.join(', ')}) thinking aloud while labelling ${input.items} items with the labels ${input.labels.join(', ')}.`,
    `Exported by Aloud ${input.appVersion} at ${input.createdAt}.${input.withoutAudio > 0 ? ` ${input.withoutAudio} records without audio are not in this dataset (they are in Aloud's JSONL export).` : ''}`,
    '',
    '## Layout',
    '',
    '- `audio/<annotator>/<item>.wav`: the recordings (16 kHz mono 16-bit PCM), names encoded as Aloud stores them;',
    '- `metadata.jsonl`: one row per recording, keyed by `file_name` (the `audiofolder` layout: `load_dataset("audiofolder", data_dir=...)` gives the same rows with an `audio` column);',
    `- \`${input.parquetFile}\`: the same rows as Parquet, the \`default\` config above (\`load_dataset(".")\` or \`load_dataset("parquet", data_files=...)\`); \`file_name\` is the recording's path.`,
    ...(input.goldFile
      ? [
          `- \`${input.goldFile}\`: the gold split, one row per item: \`gold_label\`, \`gold_source\` (unanimous, majority, adjudicated, model, unresolved), the annotators' labels and the lead's decision (\`load_dataset("json", data_files=...)\`).`,
        ]
      : []),
    '',
    `Columns: every field of Aloud's export record (schema version ${EXPORT_SCHEMA_VERSION}, as \`schema_version\` in every row), a nested object's fields named with \`_\` (\`audio_path\`,`,
    '`signals_pauses_count`), lists and maps (`segments`, `label_history`, `commitments`, `signals_fillers_by_term`, …) as JSON text.',
    'Offsets (`start`, `end` of each commitment) count Unicode code points of `transcript`, as Python does: `transcript[start:end]` is the quote.',
    '',
    '## Methods',
    '',
    `Annotators spoke their reasoning while labelling; audio was recorded per item and transcribed on the annotator's computer by ${models}.${scripted ? ' The transcripts are SCRIPTED (test or demo data), not speech recognition.' : ''} ` +
      `The transcript is verbatim (\`transcript\`); reviewers' corrections are a separate layer (\`transcript_corrected\`, \`corrections\`). ` +
      `Labels were committed from fixed spoken phrases by a deterministic rule parser (version ${input.parserVersions.length > 0 ? input.parserVersions.join(', ') : 'none recorded'}; the last commitment wins), or by key or click. ` +
      "`blind_label` is the first label act of the item, given before any change and before the model's reasoning was shown; `final_label` is the last label act, `label_source` says how it was given, `label_history` lists every act in order. " +
      `Hesitation signals are arithmetic: fillers (\`signals_filler_count\`, the legacy single list) are the words or phrases ${quoted(t.fillers)} counted in the verbatim transcript; ` +
      `by category, in the transcript's language (\`signals_hesitation_language\`), ${hesitationMethods(input.languages, t.hesitation)}, each with context rules (e.g. \`like\` as a verb, "what kind of", German \`um\` before a time are not counted), and \`signals_repetition_count\` counts a word said again at once; ` +
      `a pause is a run of 20 ms frames below ${t.silence_threshold_dbfs} dBFS of at least ${t.min_pause_ms} ms between speech (a long pause at least ${t.long_pause_ms} ms); ` +
      `silent chunks are ${t.chunk_seconds} s chunks below the same threshold; \`signals_vad_*\` are the same pauses by voice activity (Silero VAD), when it ran.`,
    '',
  ].join('\n');
}
