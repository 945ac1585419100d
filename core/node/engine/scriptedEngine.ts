import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  EngineError,
  type EncodeTiming,
  type EngineInfo,
  type EngineTranscription,
  type TranscribeInput,
  type TranscriptionEngine,
} from '../../common/engine/engineTypes';
import { JsonSyntaxError, parseStrictJson } from '../../common/io/strictJson';
import type { Segment } from '../../common/transcript/segment';
import { sha256OfPcm } from './whisperEngine';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';
import { Refusal } from '../../common/refusal/refusal';

/** One scripted result: the text the "engine" returns for the next request of an item, after delay_ms. */
export interface ScriptedResult {
  text: string;
  delay_ms: number;
}

export interface EngineScript {
  /** item id → results in request order */
  items: ReadonlyMap<string, readonly ScriptedResult[]>;
  /** sha256 of the script file's bytes: the model identity is `scripted:<sha256>` */
  sha256: string;
  file: string;
}

/** The model identity of scripted data: never confused with a whisper model's file sha256. */
export const SCRIPTED_MODEL_PREFIX = 'scripted:';

export function isScriptedModel(model: { sha256: string | null } | null | undefined): boolean {
  return typeof model?.sha256 === 'string' && model.sha256.startsWith(SCRIPTED_MODEL_PREFIX);
}

/** A bad engine script: names the file and the field. */
export class EngineScriptError extends Refusal {
  override name = 'EngineScriptError';
  constructor(message: string) {
    super('bad_request', message);
  }
}

const MAX_DELAY_MS = 600_000;

/** Parses an engine script: `{"items": {"<item id>": [{"text": "…", "delay_ms": 200}, …]}}` and nothing else. */
export function parseEngineScript(text: string, file: string, sha256: string): EngineScript {
  let value: unknown;
  try {
    value = parseStrictJson(text).value;
  } catch (e) {
    // i18n-ignore: an engine script (tests, demos: --engine-script) is a developer's file; its problems stay English
    if (e instanceof JsonSyntaxError) throw new EngineScriptError(`${file}:${e.line}: ${e.message}`);
    throw e;
  }
  const fail = (field: string, problem: string): never => {
    // i18n-ignore: an engine script (tests, demos: --engine-script) is a developer's file; its problems stay English
    throw new EngineScriptError(`${file}: ${field}: ${problem}`);
  };
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value)) fail('(top level)', 'must be an object {"items": {…}}');
  const root = value as Record<string, unknown>;
  for (const key of Object.keys(root)) if (key !== 'items') fail(key, 'unknown key (only "items" is allowed)');
  if (!isObject(root.items)) fail('items', 'must be an object mapping item ids to lists of results');
  const items = new Map<string, ScriptedResult[]>();
  for (const [itemId, list] of Object.entries(root.items as Record<string, unknown>)) {
    if (itemId === '') fail('items', 'an item id must not be empty');
    if (!Array.isArray(list)) fail(`items.${itemId}`, 'must be a list of {"text", "delay_ms"}');
    items.set(
      itemId,
      (list as unknown[]).map((entry, i) => {
        const where = `items.${itemId}[${i}]`;
        if (!isObject(entry)) return fail(where, 'must be an object {"text": "…", "delay_ms": N}');
        for (const key of Object.keys(entry))
          if (key !== 'text' && key !== 'delay_ms') fail(`${where}.${key}`, 'unknown key (text, delay_ms)');
        if (typeof entry.text !== 'string') fail(`${where}.text`, 'must be a string');
        const delay = entry.delay_ms ?? 0;
        if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_MS)
          fail(`${where}.delay_ms`, `must be an integer from 0 to ${MAX_DELAY_MS}`);
        return { text: entry.text as string, delay_ms: delay as number };
      }),
    );
  }
  return { items, sha256, file };
}

export async function loadEngineScript(file: string): Promise<EngineScript> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    // i18n-ignore: an engine script (tests, demos: --engine-script) is a developer's file; its problems stay English
    throw new EngineScriptError(`${file}: cannot read the engine script (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  return parseEngineScript(bytes.toString('utf8'), file, createHash('sha256').update(bytes).digest('hex'));
}

/**
 * Word times spread over the utterance by characters: a word starts at the share of the text before it. Segments
 * are one per result and span the utterance's audio (times relative to the PCM, as whisper.cpp's are).
 */
export function scriptedSegments(text: string, audioMs: number): Segment[] {
  if (text === '') return [];
  const tokens: NonNullable<Segment['tokens']> = [];
  const at = (offset: number): number => Math.round((offset / text.length) * audioMs);
  for (const m of text.matchAll(/\s*\S+/gu)) tokens.push({ t0_ms: at(m.index), t1_ms: at(m.index + m[0].length), text: m[0] });
  return [{ t0_ms: 0, t1_ms: Math.round(audioMs), text, tokens }];
}

/**
 * A TranscriptionEngine that returns scripted text instead of running whisper.cpp: the n-th utterance of an item
 * (in the order they are first asked for) gets the item's n-th result (after its delay), an empty transcript when
 * the script has no more. Partial and speculative requests for an utterance get that utterance's result too, so
 * they never use up the results of later utterances. Everything around it (cutter, VAD, scheduler, identity check,
 * parser, fold, UI) is the real code.
 */
export class ScriptedEngine implements TranscriptionEngine {
  /** per item: utterance index → its result's position in the script */
  private readonly served = new Map<string, Map<number, number>>();
  private running: { reject: (e: unknown) => void; timer: ReturnType<typeof setTimeout> } | null = null;
  private loaded: string | null = null;
  private closed = false;

  constructor(private readonly script: EngineScript) {}

  get modelIdentity(): { name: string; sha256: string } {
    return { name: 'scripted', sha256: `${SCRIPTED_MODEL_PREFIX}${this.script.sha256}` };
  }

  load(modelPath: string): Promise<EngineInfo> {
    this.loaded = modelPath;
    return this.info();
  }

  async transcribe(input: TranscribeInput): Promise<EngineTranscription> {
    if (this.closed) throw new EngineError('engine_closed', 'the scripted engine is closed');
    if (this.running) throw new EngineError('busy', 'the scripted engine runs one job at a time');
    const itemId = input.identity?.item_id ?? '';
    const utterance = input.identity?.utterance ?? 0;
    let positions = this.served.get(itemId);
    if (!positions) this.served.set(itemId, (positions = new Map()));
    if (!positions.has(utterance)) positions.set(utterance, positions.size);
    const result = this.script.items.get(itemId)?.[positions.get(utterance)!] ?? { text: '', delay_ms: 0 };
    const audioMs = (input.pcm.length * 1000) / AUDIO_SAMPLE_RATE;
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, result.delay_ms);
      this.running = { reject, timer };
    }).finally(() => {
      this.running = null;
    });
    return {
      segments: scriptedSegments(result.text, audioMs),
      identity: {
        request_id: input.identity?.request_id ?? '',
        item_id: itemId,
        utterance: input.identity?.utterance ?? 0,
        audio_sha256: sha256OfPcm(input.pcm),
        model_sha256: this.modelIdentity.sha256,
      },
      audio_ms: Math.round(audioMs),
      audio_ctx: 0,
      elapsed_ms: Date.now() - started,
    };
  }

  encode(): Promise<EncodeTiming> {
    return Promise.resolve({ mel_ms: 0, encode_ms: 0, audio_ctx: 0 });
  }

  abort(): void {
    const job = this.running;
    if (!job) return;
    clearTimeout(job.timer);
    job.reject(new EngineError('aborted', 'the job was aborted'));
  }

  info(): Promise<EngineInfo> {
    return Promise.resolve({
      binding: 'aloud-scripted',
      whisper_cpp: 'scripted',
      whisper_version: null,
      flash_attn: false,
      thread_poll: 0,
      threads_mode: 'fixed',
      last_threads: 0,
      system_info: `scripted engine: ${this.script.file}`,
      simd: {},
      compile_flags: '',
      threads: 0,
      model:
        this.loaded === null
          ? null
          : {
              path: this.script.file,
              sha256: this.modelIdentity.sha256,
              type: 'scripted',
              multilingual: false,
              load_ms: 0,
              flash_attn: false,
            },
    });
  }

  close(): Promise<void> {
    this.abort();
    this.closed = true;
    return Promise.resolve();
  }
}
