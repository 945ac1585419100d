import { readFile } from 'node:fs/promises';
import {
  createTranscriptAnalyzer,
  parseOptionsOf,
  transcriptSignalsOf,
  type AnalysisConfig,
} from '../../../common/analysis/transcriptAnalysis';
import { explainCommitRules } from '../../../common/parser/commitExplain';
import { hesitationListsFor } from '../../../common/signals/hesitationLists';
import { defaultThinkAloud } from '../../../common/project/projectConfig';
import type { LabelDef } from '../../../common/parser/parseTypes';
import { computeAudioSignals } from '../../../common/signals/audioSignals';
import type { Segment } from '../../../common/transcript/segment';
import { readWav } from '../../audio/wavFile';
import { loadProjectConfigFile } from '../../project/projectFolder';
import { type CliCommand, printJson, UsageError, parseOptions } from '../cliSupport';
import { caselessKey } from '../../../common/text/textFold';

const KNOWN_LANGUAGES = new Set(['en', 'de']);

function labelsFromList(list: string): LabelDef[] {
  const names = list.split(',').map((s) => s.trim());
  if (names.some((n) => n === ''))
    throw new UsageError(`--labels: empty label name in "${list}" (expected e.g. "Polite,Impolite,Neutral")`);
  const folded = names.map(caselessKey);
  const dup = folded.find((n, i) => folded.indexOf(n) !== i);
  if (dup !== undefined) throw new UsageError(`--labels: label "${dup}" is listed twice`);
  if (names.length < 2) throw new UsageError('--labels: give at least two labels, comma-separated');
  return names.map((name) => ({ name, synonyms: {} }));
}

function languagesFromList(list: string): string[] {
  const langs = list.split(',').map((s) => s.trim().toLowerCase());
  for (const lang of langs) {
    if (!KNOWN_LANGUAGES.has(lang)) throw new UsageError(`--lang: unknown language "${lang}" (known: ${[...KNOWN_LANGUAGES].join(', ')})`);
  }
  return [...new Set(langs)];
}

/** A transcript file: plain UTF-8 text (verbatim), or the JSON `aloud transcribe --json` prints ({"segments": [...]}). */
async function readTranscriptFile(file: string): Promise<string | Segment[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    throw new UsageError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new UsageError(`${file}: not valid UTF-8 text`);
  }
  if (!file.toLowerCase().endsWith('.json')) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  const segments = (value as { segments?: unknown })?.segments;
  if (!Array.isArray(segments)) throw new UsageError(`${file}: expected a JSON object with a "segments" array`);
  segments.forEach((s: unknown, i) => {
    const seg = s as Partial<Segment> | null;
    if (typeof seg?.text !== 'string') throw new UsageError(`${file}: segments[${i}].text must be a string`);
    for (const key of ['t0_ms', 't1_ms'] as const) {
      if (typeof seg[key] !== 'number' || !Number.isFinite(seg[key]))
        throw new UsageError(`${file}: segments[${i}].${key} must be a number`);
    }
    if (seg.t1_ms! < seg.t0_ms!) throw new UsageError(`${file}: segments[${i}]: t1_ms is before t0_ms`);
  });
  return segments as Segment[];
}

export const analyzeCommand: CliCommand = {
  name: 'analyze',
  usage:
    'analyze (--labels "Polite,Impolite,Neutral" | --config aloud.yaml) [--lang en,de] (--text "..." | --transcript FILE[.json] | --explain) [--audio FILE.wav] [--explain]',
  async run(argv, io) {
    const { values } = parseOptions(argv, {
      labels: 'string',
      config: 'string',
      lang: 'string',
      text: 'string',
      transcript: 'string',
      audio: 'string',
      explain: false,
    });
    if (values.labels === undefined && values.config === undefined)
      throw new UsageError('give the labels: --labels "A,B,C" or --config aloud.yaml');
    if (values.text !== undefined && values.transcript !== undefined)
      throw new UsageError('give exactly one of --text "..." or --transcript FILE');
    if (values.text === undefined && values.transcript === undefined && !values.explain)
      throw new UsageError('give exactly one of --text "..." or --transcript FILE (or --explain)');

    let config: AnalysisConfig;
    if (values.config !== undefined) {
      config = (await loadProjectConfigFile(values.config)).config;
    } else {
      config = { schema: { name: 'cli', ordered: false, labels: [] }, thinkaloud: defaultThinkAloud() };
    }
    if (values.labels !== undefined) {
      // --labels chooses the labels; synonyms still come from --config where it names the same label.
      const fromConfig = new Map(config.schema.labels.map((l) => [caselessKey(l.name), l]));
      const labels = labelsFromList(values.labels).map((l) => fromConfig.get(caselessKey(l.name)) ?? l);
      config = { ...config, schema: { ...config.schema, labels } };
    }
    if (values.lang !== undefined) config = { ...config, thinkaloud: { ...config.thinkaloud, languages: languagesFromList(values.lang) } };

    // --explain: every input of the parser and of the hesitation counts, listed (the spoken forms of each label among them)
    const explain = values.explain
      ? {
          ...explainCommitRules(parseOptionsOf(config)),
          hesitation: Object.fromEntries(config.thinkaloud.languages.map((l) => [l, hesitationListsFor(l, config.thinkaloud.hesitation)])),
        }
      : null;
    if (values.text === undefined && values.transcript === undefined) {
      printJson(io, { explain });
      return 0;
    }
    const input = values.text ?? (await readTranscriptFile(values.transcript!));
    const analysis = createTranscriptAnalyzer(config)(input);
    let audioSignals = {};
    if (values.audio !== undefined) {
      // a file that cannot be read or is no WAV refuses with its name (WavError)
      const wav = await readWav(values.audio);
      audioSignals = { audio_ms: Math.round(wav.durationMs), ...computeAudioSignals(wav.samples, wav.sampleRate, config.thinkaloud) };
    }
    printJson(io, {
      final_label: analysis.final_label,
      commitments: analysis.commitments,
      diagnostics: analysis.diagnostics,
      ...transcriptSignalsOf(analysis, config, typeof input !== 'string'),
      ...audioSignals,
      transcript: analysis.transcript,
      ...(explain ? { explain } : {}),
    });
    return 0;
  },
};
