import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import type { Segment } from '../../../../../core/common/transcript/segment';
import { encodeWavPcm16 } from '../../../../../core/node/audio/wavFile';
import { ENGINE_CRASH_FILE_ENV } from '../../../../../core/node/engine/engineProcessCommandLine';
import { cli } from '../../../../helpers/cli';
import { describeWithModels, testAssets, FOR_TESTS_MODEL, REPO, testClip } from '../../engine/engineTestModels';

let dir: string;
let wav22k: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'aloud-transcribe-'));
  // 22.05 kHz on purpose: the command resamples to the 16 kHz whisper needs
  const clip = testClip(3, 5);
  const at22k = new Float32Array(Math.round((clip.length * 22050) / 16000));
  for (let i = 0; i < at22k.length; i++) at22k[i] = clip[Math.min(clip.length - 1, Math.floor((i * 16000) / 22050))]!;
  wav22k = path.join(dir, 'clip-22k.wav');
  await writeFile(wav22k, encodeWavPcm16(at22k, 22050));
});

describeWithModels('aloud transcribe (real whisper.cpp)', () => {
  it('prints {"segments": [...]} for a WAV file', async () => {
    const { code, out, err } = await cli('transcribe', '--model', FOR_TESTS_MODEL, '--audio', wav22k, '--json');
    expect(err).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(out) as { segments: Segment[]; audio_ms: number; model: { path: string; sha256: string } };
    expect(Array.isArray(result.segments)).toBe(true);
    expect(result.audio_ms).toBe(3000);
    expect(result.model.path).toBe(FOR_TESTS_MODEL);
    expect(result.model.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives segments with text, and token timestamps when asked (random-weight tiny.en)', async () => {
    const model = testAssets().benchModel;
    const { code, out } = await cli('transcribe', '--model', model, '--audio', wav22k, '--json', '--token-timestamps');
    expect(code).toBe(0);
    const { segments } = JSON.parse(out) as { segments: Segment[] };
    expect(segments.length).toBeGreaterThan(0);
    expect(segments.map((s) => s.text).join('')).not.toBe('');
    for (const s of segments) {
      expect(s.t1_ms).toBeLessThanOrEqual(3000);
      expect(Array.isArray(s.tokens)).toBe(true);
    }
    const text = await cli('transcribe', '--model', model, '--audio', wav22k);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^\[\d+\.\d\d → \d+\.\d\d\]/);
  });

  it(
    'whisper.cpp runs in its own process: a crash there is one line naming the signal, or (mid-job) a restart that still answers',
    { timeout: 120_000 },
    async () => {
      const crashFile = path.join(dir, 'crash.txt');
      process.env[ENGINE_CRASH_FILE_ENV] = crashFile;
      try {
        await writeFile(crashFile, 'load');
        const atLoad = await cli('transcribe', '--model', FOR_TESTS_MODEL, '--audio', wav22k);
        expect(atLoad.code).toBe(2);
        expect(atLoad.err.trim().split('\n')).toHaveLength(1);
        expect(atLoad.err).toMatch(
          /^aloud transcribe: the engine process crashed while loading .*for-tests-ggml-tiny\.en\.bin \(killed by SIGSEGV \(segmentation fault\)\)/,
        );

        await writeFile(crashFile, 'transcribe');
        const midJob = await cli('transcribe', '--model', FOR_TESTS_MODEL, '--audio', wav22k, '--json');
        expect(midJob.code, midJob.err).toBe(0);
        expect(JSON.parse(midJob.out).audio_ms).toBe(3000);
        expect(midJob.err).toMatch(
          /^aloud transcribe: the engine process \d+ stopped: killed by SIGSEGV \(segmentation fault\); restarting it with .*\naloud transcribe: transcription restarted \(process \d+, restart 1\) with .*; the waiting utterance is transcribed now\n$/,
        );
      } finally {
        delete process.env[ENGINE_CRASH_FILE_ENV];
      }
    },
  );

  it('a bad model, audio file or option exits 2 with one line naming it', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--audio', wav22k], /missing required option --model/],
      [['--model', FOR_TESTS_MODEL], /missing required option --audio/],
      [['--model', path.join(REPO, 'package.json'), '--audio', wav22k], /package\.json/],
      [['--model', path.join(dir, 'absent.bin'), '--audio', wav22k], /absent\.bin: not found/],
      [['--model', FOR_TESTS_MODEL, '--audio', path.join(REPO, 'package.json')], /package\.json/],
      [['--model', FOR_TESTS_MODEL, '--audio', path.join(dir, 'absent.wav')], /absent\.wav: cannot read/],
      [['--model', FOR_TESTS_MODEL, '--audio', wav22k, '--threads', 'many'], /--threads must be an integer/],
      [['--model', FOR_TESTS_MODEL, '--audio', wav22k, '--language', 'English'], /decode setting language/],
      [['--model', FOR_TESTS_MODEL, '--audio', wav22k, '--bogus'], /bogus/],
    ];
    for (const [args, message] of cases) {
      const { code, out, err } = await cli('transcribe', ...args);
      expect(code, args.join(' ')).toBe(2);
      expect(out).toBe('');
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toMatch(/^aloud transcribe: /);
      expect(err).toMatch(message);
    }
  });
});
