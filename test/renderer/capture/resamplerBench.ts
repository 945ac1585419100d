/** Prints what the capture worklet's resampler costs: `npx tsx test/renderer/capture/resamplerBench.ts`. */
import { SincResampler } from '../../../core/common/audio/sincResampler';

const seconds = 60;
for (const inputRate of [48_000, 44_100]) {
  const resampler = new SincResampler(inputRate, 16_000);
  const quantum = Float32Array.from({ length: 128 }, (_, i) => Math.sin(i / 3));
  const quanta = Math.round((inputRate * seconds) / 128);
  const started = performance.now();
  for (let i = 0; i < quanta; i++) resampler.process(quantum);
  const ms = performance.now() - started;
  console.log(
    `${inputRate} → 16000 Hz: ${seconds} s of audio in ${ms.toFixed(0)} ms = ${((ms / (seconds * 1000)) * 100).toFixed(2)} % of one core`,
  );
}
