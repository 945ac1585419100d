/**
 * Prints timings of the hesitation-signal code on a 10-minute recording (16 kHz, 9.6 M samples).
 * Run: npx tsx scripts/bench-signals.ts   (figures only; nothing is asserted)
 */
import { AudioSignalMeter, computeAudioSignals } from '../core/common/signals/audioSignals';
import { FrameLevelMeter, frameLevelsDbfs } from '../core/common/signals/frameLevels';
import type { AudioSignalOptions } from '../core/common/signals/signalTypes';
import { computeTranscriptSignals } from '../core/common/signals/transcriptSignals';
import { DEFAULT_FILLERS } from '../core/common/signals/hesitationLists';
import { decodeWav, encodeWavPcm16, resampleTo16k } from '../core/node/audio/wavFile';
import { AUDIO_SAMPLE_RATE } from '../core/common/audio/sampleRate';

const SECONDS = 600;
const options: AudioSignalOptions = { chunk_seconds: 1, silence_threshold_dbfs: -45, min_pause_ms: 250, long_pause_ms: 1000 };

/** Speech-like audio: 0.2-3 s bursts of noise at varying loudness separated by 0.1-2 s of near-silence. */
function speechLike(samples: number): Float32Array {
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
  const pcm = new Float32Array(samples);
  let i = 0;
  while (i < samples) {
    const talk = Math.floor(AUDIO_SAMPLE_RATE * (0.2 + random() * 2.8));
    const amp = 0.05 + random() * 0.4;
    for (let k = 0; k < talk && i < samples; k++, i++) pcm[i] = amp * (random() * 2 - 1);
    const pause = Math.floor(AUDIO_SAMPLE_RATE * (0.1 + random() * 1.9));
    for (let k = 0; k < pause && i < samples; k++, i++) pcm[i] = 1e-5 * (random() * 2 - 1);
  }
  return pcm;
}

function time(label: string, runs: number, work: () => unknown): void {
  work(); // warm-up
  const ms: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    work();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const median = ms[Math.floor(ms.length / 2)]!;
  console.log(`${label.padEnd(58)} median ${median.toFixed(1).padStart(7)} ms   min ${ms[0]!.toFixed(1).padStart(7)} ms   (${runs} runs)`);
}

const pcm = speechLike(AUDIO_SAMPLE_RATE * SECONDS);
console.log(
  `${SECONDS / 60}-minute recording, ${pcm.length.toLocaleString('en')} samples at ${AUDIO_SAMPLE_RATE} Hz; node ${process.version}`,
);

time('frameLevelsDbfs (batch)', 9, () => frameLevelsDbfs(pcm, AUDIO_SAMPLE_RATE));
time('computeAudioSignals (batch)', 9, () => computeAudioSignals(pcm, AUDIO_SAMPLE_RATE, options));
time('FrameLevelMeter, 200 ms chunks', 9, () => {
  const meter = new FrameLevelMeter(AUDIO_SAMPLE_RATE);
  for (let at = 0; at < pcm.length; at += 3200) meter.push(pcm.subarray(at, at + 3200));
});
time('AudioSignalMeter, 200 ms chunks + result()', 9, () => {
  const meter = new AudioSignalMeter(AUDIO_SAMPLE_RATE, options);
  for (let at = 0; at < pcm.length; at += 3200) meter.push(pcm.subarray(at, at + 3200));
  return meter.result();
});
{
  const meter = new AudioSignalMeter(AUDIO_SAMPLE_RATE, options);
  const perChunk: number[] = [];
  for (let at = 0; at < pcm.length; at += 3200) {
    const t = performance.now();
    meter.push(pcm.subarray(at, at + 3200));
    meter.result();
    perChunk.push(performance.now() - t);
  }
  perChunk.sort((a, b) => a - b);
  console.log(
    `${'AudioSignalMeter: one 200 ms push + result(), p50 / p99'.padEnd(58)} ${(perChunk[perChunk.length >> 1]! * 1000).toFixed(1)} µs / ${(perChunk[Math.floor(perChunk.length * 0.99)]! * 1000).toFixed(1)} µs`,
  );
}

const wavBytes = encodeWavPcm16(pcm, AUDIO_SAMPLE_RATE);
time(`decodeWav, 16-bit mono (${(wavBytes.length / 1e6).toFixed(1)} MB)`, 5, () => decodeWav(wavBytes, 'bench.wav'));
const oneMinute48k = Float32Array.from({ length: 48000 * 60 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / 48000));
time('resampleTo16k, 1 minute at 48 kHz', 3, () => resampleTo16k(oneMinute48k, 48000));
const oneMinute441k = Float32Array.from({ length: 44100 * 60 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / 44100));
time('resampleTo16k, 1 minute at 44.1 kHz', 3, () => resampleTo16k(oneMinute441k, 44100));

const sentence = ' Hmm, well. This reply is, um, kind of polite, I guess. I label this polite. Uh, actually no, sort of rude.';
const transcript = sentence.repeat(Math.ceil((SECONDS * 150) / 60 / 20)); // ~150 words a minute
time(`computeTranscriptSignals, ${transcript.length.toLocaleString('en')} chars`, 9, () =>
  computeTranscriptSignals(transcript, { commitments: [] }, { fillers: DEFAULT_FILLERS, languages: ['en'] }),
);
