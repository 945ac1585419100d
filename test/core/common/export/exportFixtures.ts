import { buildExportRecord, type ExportRecord } from '../../../../core/common/export/exportRecord';
import type { ExportProjectFacts } from '../../../../core/common/export/exportRules';
import type { ItemSessionState } from '../../../../core/common/session/itemState';

export const SHA_TEXT_1 = '1'.repeat(64);
export const SHA_TEXT_2 = '2'.repeat(64);
export const SHA_CONTEXT_2 = 'c'.repeat(64);
export const SHA_CONFIG = 'f'.repeat(64);
export const SHA_AUDIO = 'a'.repeat(64);
export const SHA_MODEL = 'b'.repeat(64);

const TRANSCRIPT = ' Hmm, this is kind of polite. I label this polite.';

/** A labelled item as the session fold would leave it (voice commitment at its exact offsets). */
export function labelledState(itemId: string): ItemSessionState {
  const quote = 'I label this polite';
  const start = TRANSCRIPT.indexOf(quote);
  return {
    item_id: itemId,
    audio_path: `sessions/ann/audio/${itemId}.wav`,
    audio_ms: 5000,
    transcript: TRANSCRIPT,
    segments: [
      { t0_ms: 0, t1_ms: 2400, text: ' Hmm, this is kind of polite.' },
      { t0_ms: 2600, t1_ms: 4100, text: ' I label this polite.', tokens: [{ t0_ms: 2600, t1_ms: 2700, text: ' I', p: 0.9 }] },
    ],
    commitments: [{ label: 'Polite', quote, start, end: start + quote.length, t_ms: 2600, stem: 'i label (this|it)' }],
    final_label: 'Polite',
    label_source: 'voice',
    blind_label: 'Polite',
    signals: {
      silent_chunks: 1,
      total_chunks: 5,
      pauses: { count: 1, total_ms: 200, longest_ms: 200, long_count: 0 },
      time_to_first_speech_ms: 40,
      filler_count: 2,
      fillers_by_term: { hmm: 1, 'kind of': 1 },
      word_count: 10,
      commitment_count: 1,
      label_changes: 0,
      time_to_first_commit_ms: 2600,
      time_to_final_commit_ms: 2600,
      filled_pause_count: 1,
      hedge_count: 1,
      repetition_count: 0,
      editing_term_count: 0,
      hesitation_language: 'en',
    },
    model: { name: 'tiny.en', sha256: SHA_MODEL, whisper_cpp: '1.9.1' },
    started_at: '2026-01-02T10:00:00.000Z',
    completed_at: '2026-01-02T10:00:09.500Z',
    stale_results: 0,
    label_history: [{ label: 'Polite', source: 'voice', at: '2026-01-02T10:00:06.600Z', audio_ms: 2600, quote }],
    segment_refs: [
      { utterance: 0, segment: 0 },
      { utterance: 1, segment: 0 },
    ],
    transcript_corrected: null,
    corrections: [],
    superseded_transcripts: [],
    parser_version: 'aloud-commit-parser/1',
    config_changed: false,
    labels_not_in_schema: [],
    changed_after_completion: false,
  };
}

/** Two records: item-1 labelled by voice, item-2 never opened (all nulls, three gaps). */
export function validRecords(): ExportRecord[] {
  const common = {
    project: 'politeness-demo',
    annotator: 'ann',
    appVersion: '0.1.0',
    configSha256: SHA_CONFIG,
    exportedAt: '2026-01-02T11:00:00Z',
    notes: [{ seq: 9, ts: '2026-01-02T10:00:08.000Z', item_id: 'item-1', text: 'sarcastic?' }],
  };
  return [
    buildExportRecord({
      ...common,
      item: { id: 'item-1', text: 'Thanks!' },
      itemTextSha256: SHA_TEXT_1,
      itemContextSha256: null,
      state: labelledState('item-1'),
      audioSha256: SHA_AUDIO,
    }),
    buildExportRecord({
      ...common,
      item: { id: 'item-2', text: 'No.', context: 'Hi?' },
      itemTextSha256: SHA_TEXT_2,
      itemContextSha256: SHA_CONTEXT_2,
      state: null,
      audioSha256: null,
    }),
  ];
}

export const projectFactsFixture: ExportProjectFacts = {
  name: 'politeness-demo',
  labels: ['Polite', 'Impolite', 'Neutral'],
  items: new Map([
    ['item-1', { textSha256: SHA_TEXT_1, contextSha256: null }],
    ['item-2', { textSha256: SHA_TEXT_2, contextSha256: SHA_CONTEXT_2 }],
  ]),
};
