import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { hiddenSampleRanges, maskSamples } from '../../common/deidentify/audioMask';
import type { SampleRange, HiddenAudio } from '../../common/deidentified/deidentifyTerms';
import { DEIDENTIFY_FILE, parseDeidentifyList, type DeidentifyList } from '../../common/deidentify/deidentifyList';
import { deidentifyRecord, NO_DECISIONS, type DeidentifiableRecord, type RecordDecisions } from '../../common/deidentify/deidentifyRecord';
import {
  DEIDENTIFY_METHOD,
  deidentificationReceipt,
  type DeidentificationReceipt,
  type HiddenAudioEntry,
} from '../../common/deidentified/deidentifyReceipt';
import { SpanMatcher } from '../../common/deidentify/spanMatcher';
import { ConfigError } from '../../common/project/strictYaml';
import { foldedKey } from '../../common/text/textFold';
import { recordSegmentText } from './reviewLog';
import { resolveInside } from '../fs/resolveInside';
import { sha256Hex } from '../fs/sha256';
import { ProjectError } from '../fs/projectError';
import type { OpenProject } from '../project/projectFolder';
import { say } from '../../common/refusal/refusalMessage';

/** A project's deidentify.yaml, read and checked, with the sha256 of its bytes (the receipt's list identity). */
export interface LoadedDeidentifyList {
  file: string;
  list: DeidentifyList;
  sha256: string;
  matcher: SpanMatcher;
}

export function deidentifyListPath(project: OpenProject): string {
  return path.join(project.dir, DEIDENTIFY_FILE);
}

/** 100 000 terms of 200 characters with their classes fit; a bigger file is a mistake or hostile. */
const MAX_LIST_BYTES = 32 * 1024 * 1024;

/** The project's list, or null when it has none; a bad list is an error naming file, line and key. */
export async function loadDeidentifyList(project: OpenProject): Promise<LoadedDeidentifyList | null> {
  const file = deidentifyListPath(project);
  let bytes: Buffer;
  try {
    bytes = await readFile(await resolveInside(project.dir, DEIDENTIFY_FILE, 'read'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as { status?: number }).status === 404) return null;
    throw new ProjectError(say('refusal.deidentify.cannotRead', { file, message: (e as Error).message }));
  }
  if (bytes.length > MAX_LIST_BYTES)
    throw new ProjectError(say('refusal.deidentify.bytesMoreThanAList', { file, length: bytes.length, MAX_LIST_BYTES }));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ProjectError(say('refusal.deidentify.notValidUtf', { file }));
  }
  try {
    const list = parseDeidentifyList(text, file);
    return { file, list, sha256: sha256Hex(bytes), matcher: new SpanMatcher(list) };
  } catch (e) {
    if (e instanceof ConfigError) throw new ProjectError(e.say ?? e.message);
    throw e;
  }
}

/** Where the PCM samples of a 16-bit WAV are: the data chunk's offset and length, walking the RIFF chunks. */
export function wavDataRange(bytes: Uint8Array, name: string): { offset: number; samples: number; sampleRate: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number): string => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new ProjectError(say('refusal.deidentify.notAWavFile', { name }));
  let sampleRate = 0;
  for (let at = 12; at + 8 <= bytes.length;) {
    const size = view.getUint32(at + 4, true);
    if (tag(at) === 'fmt ') {
      if (view.getUint16(at + 8, true) !== 1 || view.getUint16(at + 10, true) !== 1 || view.getUint16(at + 22, true) !== 16)
        throw new ProjectError(say('refusal.deidentify.notBitPcmMonoWhich', { name }));
      sampleRate = view.getUint32(at + 12, true);
    }
    if (tag(at) === 'data') return { offset: at + 8, samples: Math.floor(Math.min(size, bytes.length - at - 8) / 2), sampleRate };
    at += 8 + size + (size % 2);
  }
  throw new ProjectError(say('refusal.deidentify.theWavHasNoData', { name }));
}

/** A 16-bit WAV's samples, as they are in its data chunk. */
export function wavSamples(bytes: Uint8Array, name: string): { pcm: Int16Array; offset: number; sampleRate: number } {
  const { offset, samples, sampleRate } = wavDataRange(bytes, name);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pcm = new Int16Array(samples);
  for (let i = 0; i < samples; i++) pcm[i] = view.getInt16(offset + 2 * i, true);
  return { pcm, offset, sampleRate };
}

/** A copy of a WAV with the ranges silenced or toned: same length, same header, every other byte as it was. */
export function maskWavBytes(bytes: Uint8Array, ranges: readonly SampleRange[], mode: HiddenAudio, name: string): Buffer {
  const out = Buffer.from(bytes);
  // the data chunk may start at an odd offset: mask a copy of the samples and put them back
  const { pcm, offset, sampleRate } = wavSamples(out, name);
  maskSamples(pcm, ranges, mode, sampleRate);
  for (const r of ranges) for (let i = r.start; i < Math.min(r.end, pcm.length); i++) out.writeInt16LE(pcm[i]!, offset + 2 * i);
  return out;
}

const recordKey = (annotator: string, itemId: string): string => `${annotator}\u0000${itemId}`;

/** The records of one export de-identified, with what their audio must hide and the receipt's statement. */
export interface DeidentifiedExport<R extends DeidentifiableRecord> {
  records: R[];
  /** per annotator and item: the sample ranges of its recording to hide */
  rangesOf(annotator: string, itemId: string): SampleRange[];
  /** a recording's WAV bytes, hidden spans masked */
  maskWav(annotator: string, itemId: string, bytes: Uint8Array, name: string): Buffer;
  /** the receipt's statement, given where each masked WAV was written (relative to the receipt) */
  receipt(paths: ReadonlyMap<string, string>): DeidentificationReceipt;
  /** what reviewers said is not to be hidden (folded): not a leak */
  keptByReview: ReadonlySet<string>;
}

export interface ReviewDecisionSource {
  decisionsOf(record: DeidentifiableRecord): RecordDecisions;
  counts: DeidentificationReceipt['review'];
}

export const NO_REVIEW: ReviewDecisionSource = { decisionsOf: () => NO_DECISIONS, counts: { accepted: 0, rejected: 0, added: 0 } };

/** Refuses a name that holds a listed term or pattern: it names files and fields, and no placeholder may change it. */
export function refuseHiddenNames(matcher: SpanMatcher, names: ReadonlyArray<readonly [what: string, name: string]>): void {
  for (const [what, name] of names) {
    const found = matcher.find(name)[0];
    if (found)
      throw new ProjectError(
        say('refusal.deidentify.holdsWhatHidesAsA', { what, name: JSON.stringify(name), DEIDENTIFY_FILE, class: found.class }),
      );
  }
}

/**
 * De-identifies records one at a time (a streamed export) and keeps what the receipt states: the spans per class
 * and each recording's hidden sample ranges.
 */
export class Deidentifier {
  private readonly counts: Record<string, number> = {};
  private readonly ranges = new Map<string, SampleRange[]>();
  private readonly order: Array<{ annotator: string; item_id: string }> = [];
  /** what reviewers said is not to be hidden (folded): the export's own check does not count it as a leak */
  readonly kept = new Set<string>();

  constructor(
    private readonly loaded: LoadedDeidentifyList,
    private readonly review: ReviewDecisionSource,
    private readonly sampleRate: number,
  ) {}

  record<R extends DeidentifiableRecord>(r: R): R {
    const decisions = this.review.decisionsOf(r);
    for (const span of decisions.rejected) {
      const text = recordSegmentText(r, span);
      if (text !== null) this.kept.add(foldedKey(text.slice(span.start, span.end)));
    }
    const result = deidentifyRecord(r, this.loaded.matcher, decisions);
    for (const [c, n] of Object.entries(result.counts)) this.counts[c] = (this.counts[c] ?? 0) + n;
    this.order.push({ annotator: r.annotator, item_id: r.item_id });
    if (r.audio) {
      const sampleCount = Math.round((r.audio.duration_ms * this.sampleRate) / 1000);
      this.ranges.set(
        recordKey(r.annotator, r.item_id),
        hiddenSampleRanges(result.audio_spans, this.loaded.list.margin_ms, this.sampleRate, sampleCount),
      );
    }
    // the record says inside that it is de-identified, so a copy without its receipt is still checked
    if (result.record.schema_version < 4) return result.record;
    return { ...result.record, deidentification: { method: DEIDENTIFY_METHOD, list_sha256: this.loaded.sha256, classes: result.classes } };
  }

  rangesOf(annotator: string, itemId: string): SampleRange[] {
    return this.ranges.get(recordKey(annotator, itemId)) ?? [];
  }

  /** a recording's WAV bytes, hidden spans masked */
  maskWav(annotator: string, itemId: string, bytes: Uint8Array, name: string): Buffer {
    const { samples } = wavDataRange(bytes, name);
    // the ranges were cut to the record's length; a WAV holds exactly that many samples (its sha256 was checked)
    return maskWavBytes(
      bytes,
      this.rangesOf(annotator, itemId).map((x) => ({ start: x.start, end: Math.min(x.end, samples) })),
      this.loaded.list.audio,
      name,
    );
  }

  /** the receipt's statement, given where each masked WAV was written (relative to the receipt) */
  receipt(paths: ReadonlyMap<string, string>): DeidentificationReceipt {
    const hidden: HiddenAudioEntry[] = [];
    for (const r of this.order) {
      const p = paths.get(recordKey(r.annotator, r.item_id));
      if (p !== undefined)
        hidden.push({
          annotator: r.annotator,
          item_id: r.item_id,
          path: p,
          sample_rate: this.sampleRate,
          ranges: this.rangesOf(r.annotator, r.item_id),
        });
    }
    return deidentificationReceipt(this.loaded.list, this.loaded.sha256, this.counts, this.review.counts, hidden);
  }
}

/** The records of one export de-identified at once (the interop and transcript exports, which hold them all). */
export function deidentifyExport<R extends DeidentifiableRecord>(
  loaded: LoadedDeidentifyList,
  records: readonly R[],
  review: ReviewDecisionSource,
  sampleRate: number,
): DeidentifiedExport<R> {
  refuseHiddenNames(
    loaded.matcher,
    records.flatMap(
      (r) =>
        [
          ['annotator name', r.annotator],
          ['item id', r.item_id],
        ] as const,
    ),
  );
  const deidentifier = new Deidentifier(loaded, review, sampleRate);
  const out = records.map((r) => deidentifier.record(r));
  return {
    records: out,
    rangesOf: (annotator, itemId) => deidentifier.rangesOf(annotator, itemId),
    maskWav: (annotator, itemId, bytes, name) => deidentifier.maskWav(annotator, itemId, bytes, name),
    receipt: (paths) => deidentifier.receipt(paths),
    keptByReview: deidentifier.kept,
  };
}

export { recordKey as deidentifiedRecordKey };
