import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { createTranscriptAnalyzer } from '../core/common/analysis/transcriptAnalysis';
import { seededRandom } from '../core/common/agreement/krippendorff';
import { PARSER_VERSION } from '../core/common/parser/parserVersion';
import { EVENT_VERSIONS, type SessionEvent, type SessionEventData, type SessionEventType } from '../core/common/session/sessionEvents';
import { formatEventLine } from '../core/common/session/sessionLog';
import { voiceCommitmentsOf } from '../core/common/session/voiceCommitments';
import { sha256Hex } from '../core/node/fs/sha256';
import { loadProjectConfig } from '../core/node/project/projectFolder';
import { itemAudioRelativePath, sessionPaths } from '../core/node/session/sessionPaths';
import { encodeWavPcm16 } from '../core/node/audio/wavFile';
import { audioSignalsOf } from '../core/node/session/itemAudioSignals';
import { configSha256Of } from '../core/node/session/sessionStore';

/** The shape of a generated study: how many items, which annotators, and how often an item is spoken, reasoned on, left out. */
export interface ScaleStudyShape {
  items: number;
  annotators: readonly string[];
  /** every n-th item is labelled by voice (a transcript with a commit phrase) besides its key label */
  spokenEvery: number;
  /** every n-th item carries model reasoning (process-reward records) */
  reasonedEvery: number;
  seed: number;
  /** every item recorded: a WAV per annotator and item (a short generated clip) and its take in the log, as the app logs it */
  recordings?: boolean;
}

export const DEFAULT_STUDY_SHAPE: Omit<ScaleStudyShape, 'items' | 'annotators'> = { spokenEvery: 5, reasonedEvery: 10, seed: 7 };

const LABELS = ['Polite', 'Impolite', 'Neutral'] as const;
const SPOKEN: Record<(typeof LABELS)[number], string> = { Polite: 'polite', Impolite: 'rude', Neutral: 'neutral' };
const MODEL = { name: 'tiny.en', sha256: '5'.repeat(64), whisper_cpp: '1.9.1' };

const CONFIG = `name: scale-study
schema:
  name: politeness
  ordered: false
  labels:
    - {name: Polite, key: "1", synonyms: {en: [courteous]}}
    - {name: Impolite, key: "2", synonyms: {en: [rude]}}
    - {name: Neutral, key: "3"}
items: items.jsonl
reasoning:
  split: auto
  reveal: after_blind
thinkaloud:
  model: tiny.en
  languages: [en]
`;

/** The clip every recorded item holds: 1 s at 16 kHz, a tone between two silences (its speech is what utterances cover). */
export const STUDY_CLIP_SAMPLES = 16_000;

function studyClip(): Float32Array {
  const pcm = new Float32Array(STUDY_CLIP_SAMPLES);
  for (let i = 1_600; i < 14_400; i++)
    pcm[i] = 0.25 * Math.sin((2 * Math.PI * 180 * i) / 16_000) * (1 + 0.3 * Math.sin((2 * Math.PI * 3 * i) / 16_000));
  return pcm;
}

export function studyItemId(i: number): string {
  return `item-${String(i + 1).padStart(6, '0')}`;
}

/**
 * Writes a project with `items` items and one session log per annotator, as the app would have logged a study labelled
 * by key (and by voice on every spokenEvery-th item), the logs written directly (no audio, no fsync per event): the
 * input of the scale benchmark and of tests that need a study larger than a hand-made one. Deterministic for a seed.
 */
export async function writeScaleStudy(dir: string, shape: ScaleStudyShape): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'aloud.yaml'), CONFIG);
  const truth: string[] = [];
  const random = seededRandom(shape.seed);
  const items: string[] = [];
  for (let i = 0; i < shape.items; i++) {
    truth.push(LABELS[Math.floor(random() * LABELS.length)]!);
    const item: Record<string, unknown> = {
      id: studyItemId(i),
      text: `Reply ${i + 1}: thank you for waiting, the order ${i % 7 === 0 ? 'is late' : 'arrives tomorrow'}.`,
    };
    if (i % shape.reasonedEvery === 0) {
      item.model_steps = ['The reply thanks the customer.', 'It says when the order arrives.', `So it is ${truth[i]!.toLowerCase()}.`];
      item.model_label = truth[i];
    }
    items.push(JSON.stringify(item));
  }
  await writeFile(path.join(dir, 'items.jsonl'), `${items.join('\n')}\n`);
  const project = await loadProjectConfig(dir);
  const analyze = createTranscriptAnalyzer(project.config);
  const configSha256 = configSha256Of(project);
  const textSha256 = items.map((line) => sha256Hex((JSON.parse(line) as { text: string }).text));
  const clip = studyClip();
  const clipWav = shape.recordings ? encodeWavPcm16(clip, 16_000) : null;
  // every clip is the same audio, so its signals are computed once, as the recorder computes them on stop
  const clipSignals = shape.recordings ? audioSignalsOf(clip, 16_000, project.config.thinkaloud) : null;
  for (const [a, annotator] of shape.annotators.entries()) {
    const paths = sessionPaths(dir, annotator);
    await mkdir(shape.recordings ? paths.audioDir : paths.dir, { recursive: true });
    const out = createWriteStream(paths.events);
    let seq = 0;
    let clock = Date.UTC(2025, 0, 6, 9, 0, 0) + a * 1000;
    const lines: string[] = [];
    const log = <T extends SessionEventType>(type: T, data: SessionEventData[T]): void => {
      clock += 700 + Math.floor(random() * 2000);
      lines.push(formatEventLine({ v: EVENT_VERSIONS[type], seq: ++seq, ts: new Date(clock).toISOString(), type, data } as SessionEvent));
    };
    const flush = async (): Promise<void> => {
      if (!out.write(`${lines.join('\n')}\n`)) await once(out, 'drain');
      lines.length = 0;
    };
    log('session_started', {
      annotator,
      project_name: project.config.name,
      sample_rate: 16_000,
      config_sha256: configSha256,
      parser_version: PARSER_VERSION,
      parser_inputs_sha256: null,
      kind: 'annotator',
      room: null,
    });
    for (let i = 0; i < shape.items; i++) {
      const id = studyItemId(i);
      const given = random() < 0.8 ? truth[i]! : LABELS[Math.floor(random() * LABELS.length)]!;
      log('item_opened', { item_id: id, text_sha256: textSha256[i]! });
      const audioPath = itemAudioRelativePath(paths, id);
      if (clipWav) {
        await writeFile(path.join(dir, ...audioPath.split('/')), clipWav);
        log('recording_started', { item_id: id, audio_path: audioPath, offset_samples: 0, device: null });
        log('audio_appended', { item_id: id, offset_samples: 0, samples: STUDY_CLIP_SAMPLES });
      }
      let labelled = true;
      if (i % shape.spokenEvery === 0) {
        const text = ` Hmm, I think it is kind of ${SPOKEN[given as keyof typeof SPOKEN]}. I label this ${SPOKEN[given as keyof typeof SPOKEN]}.`;
        const [endSample, t1] = clipWav ? [STUDY_CLIP_SAMPLES, 900] : [48_000, 2_900];
        const utterance = {
          item_id: id,
          utterance: 0,
          request_id: 'r0',
          start_sample: 0,
          end_sample: endSample,
          segments: [{ t0_ms: 120, t1_ms: t1, text }],
          model: { ...MODEL, vad: null },
        };
        log('utterance_transcribed', utterance);
        for (const c of voiceCommitmentsOf([{ utterance: 0, segments: utterance.segments }], analyze).commitments) {
          log('label_committed', { item_id: id, source: 'voice', ...c, parser_version: PARSER_VERSION, reviewer: null });
        }
      } else if (random() < 0.97) {
        log('label_committed', {
          item_id: id,
          label: given,
          source: 'key',
          quote: null,
          start: null,
          end: null,
          stem: null,
          audio_ms: null,
          utterance: null,
          parser_version: null,
          reviewer: null,
        });
      } else labelled = false;
      if (clipSignals) {
        log('recording_stopped', { item_id: id, total_samples: STUDY_CLIP_SAMPLES, reason: 'user', error: null });
        log('signals_computed', {
          item_id: id,
          audio_samples: clipSignals.samples,
          audio: clipSignals.audio,
          vad: null,
          vad_model: null,
          takes: clipSignals.takes,
        });
      }
      if (labelled && given !== truth[i] && random() < 0.25) {
        // a change of mind, as the app logs it: the new act, then the change record
        log('label_committed', {
          item_id: id,
          label: truth[i]!,
          source: 'key',
          quote: null,
          start: null,
          end: null,
          stem: null,
          audio_ms: null,
          utterance: null,
          parser_version: null,
          reviewer: null,
        });
        log('label_changed', { item_id: id, from: given, to: truth[i]!, source: 'key', after_completion: false, reviewer: null });
      }
      log('item_completed', { item_id: id });
      if (lines.length >= 2_000) await flush();
    }
    await flush();
    out.end();
    await once(out, 'close');
  }
}

/** Keeps a copy of a session's log as the study wrote it (events.jsonl.pristine), for benchmarks that open it again and again. */
export async function keepPristineLog(dir: string, annotator: string): Promise<void> {
  const { events } = sessionPaths(dir, annotator);
  await copyFile(events, `${events}.pristine`);
}

/** Puts the pristine log back and removes whatever an open left beside it (the audio stays): the next open is a first open. */
export async function restorePristineLog(dir: string, annotator: string): Promise<void> {
  const paths = sessionPaths(dir, annotator);
  await copyFile(`${paths.events}.pristine`, paths.events);
  for (const name of await readdir(paths.dir))
    if (name !== 'events.jsonl' && name !== 'events.jsonl.pristine' && name !== 'audio')
      await rm(path.join(paths.dir, name), { recursive: true });
}
