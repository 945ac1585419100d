import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { encodeWavPcm16 } from '../../../../../core/node/audio/wavFile';
import { cli } from '../../../../helpers/cli';
import { describeWithModels, testAssets, testClip } from '../../engine/engineTestModels';

describeWithModels('aloud bench (real whisper.cpp in the engine process)', () => {
  it(
    'reports the median per-utterance latency over the runs, the 30 s encode, the real-time factor and memory',
    { timeout: 180_000 },
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'aloud-bench-'));
      const wav = path.join(dir, 'clip.wav');
      await writeFile(wav, encodeWavPcm16(testClip(2, 9), 16000));
      const model = testAssets().benchModel;
      const { code, out, err } = await cli('bench', '--model', model, '--audio', wav, '--runs', '5', '--json');
      expect(err).toBe('');
      expect(code).toBe(0);
      const report = JSON.parse(out) as Record<string, unknown> & {
        latencies_ms: number[];
        encode_runs_ms: number[];
        utterances: unknown[];
      };
      expect(report.runs).toBe(5);
      expect(report.utterances).toEqual([{ start_ms: 0, duration_ms: 2000, audio_ctx: 228 }]);
      expect(report.latencies_ms).toHaveLength(5);
      const sorted = [...report.latencies_ms].sort((a, b) => a - b);
      expect(report.median_latency_ms).toBe(sorted[2]);
      expect(report.encode_runs_ms).toHaveLength(5);
      expect(report.encode_ms_30s).toBe([...report.encode_runs_ms].sort((a, b) => a - b)[2]);
      expect(report.realtime_factor).toBeCloseTo((report.median_latency_ms as number) / 2000, 2);
      expect(report.rss_mb).toBeGreaterThan(0);
      expect(report.system_info).toEqual(expect.stringContaining('AVX'));
    },
  );

  it('refuses fewer than 5 runs', async () => {
    const { code, err } = await cli('bench', '--model', 'm.bin', '--audio', 'a.wav', '--runs', '3');
    expect(code).toBe(2);
    expect(err).toBe('aloud bench: --runs must be an integer from 5 to 1000 (got "3")\n');
  });
});
