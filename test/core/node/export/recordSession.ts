import { createTranscriptAnalyzer } from '../../../../core/common/analysis/transcriptAnalysis';
import { PARSER_VERSION } from '../../../../core/common/parser/parserVersion';
import type { OpenProject } from '../../../../core/node/project/projectFolder';
import { voiceCommitmentsOf } from '../../../../core/common/session/voiceCommitments';
import { SessionStore } from '../../../../core/node/session/sessionStore';

export const TEST_MODEL = { name: 'tiny.en', sha256: '5'.repeat(64), whisper_cpp: '1.9.1' };

export interface ScriptedItem {
  id: string;
  /** what whisper "heard", as segments of the item's audio; omitted: no recording at all */
  said?: string[];
  /** a label given by click after speaking */
  click?: string;
  complete?: boolean;
}

/**
 * Records a real session through the session store (lock, fsynced log, WAV writer, the store's own checks), as the
 * session service would: open, record 1 s per utterance, transcribe, compute audio signals, label, complete.
 */
export async function recordSession(project: OpenProject, annotator: string, items: readonly ScriptedItem[]): Promise<void> {
  const store = await SessionStore.open({ project, annotator });
  try {
    for (const item of items) {
      await store.append('item_opened', { item_id: item.id, text_sha256: null });
      if (item.said) {
        const samplesEach = 16_000;
        const total = samplesEach * item.said.length;
        await store.append('recording_started', {
          item_id: item.id,
          audio_path: store.audioPath(item.id),
          offset_samples: 0,
          device: null,
        });
        const writer = await store.audioWriter(item.id);
        const pcm = new Float32Array(total);
        for (let i = 0; i < total; i++) pcm[i] = 0.2 * Math.sin((2 * Math.PI * 220 * i) / 16_000);
        writer.append(pcm);
        await writer.flush();
        await store.append('audio_appended', { item_id: item.id, offset_samples: 0, samples: total });
        await store.closeAudio(item.id);
        await store.append('recording_stopped', { item_id: item.id, total_samples: total, reason: 'user', error: null });
        for (const [utterance, text] of item.said.entries()) {
          const t0 = utterance * 1000;
          await store.append('utterance_transcribed', {
            item_id: item.id,
            utterance,
            request_id: `r${utterance}`,
            start_sample: utterance * samplesEach,
            end_sample: (utterance + 1) * samplesEach,
            segments: [{ t0_ms: t0 + 100, t1_ms: t0 + 900, text }],
            model: { ...TEST_MODEL, vad: null },
          });
        }
        // what the service logs when a transcription lands: the parser's voice commitments
        for (const c of voiceCommitmentsOf(store.utterancesOf(item.id), createTranscriptAnalyzer(project.config)).commitments) {
          await store.append('label_committed', {
            item_id: item.id,
            source: 'voice',
            ...c,
            parser_version: PARSER_VERSION,
            reviewer: null,
          });
        }
        const { samples, audio, vad, takes } = await store.itemAudioSignals(item.id);
        await store.append('signals_computed', { item_id: item.id, audio_samples: samples, audio, vad, vad_model: null, takes });
      }
      if (item.click)
        await store.append('label_committed', {
          item_id: item.id,
          label: item.click,
          source: 'click',
          quote: null,
          start: null,
          end: null,
          stem: null,
          audio_ms: null,
          utterance: null,
          parser_version: null,
          reviewer: null,
        });
      if (item.complete) await store.append('item_completed', { item_id: item.id });
    }
  } finally {
    await store.close();
  }
}
