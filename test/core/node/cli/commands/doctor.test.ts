import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { arch, tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { cli } from '../../../../helpers/cli';
import { describeWithModels, FOR_TESTS_MODEL } from '../../engine/engineTestModels';

describeWithModels('aloud doctor', () => {
  it('reports the binding, whisper.cpp system info, threads, and the models present and verified', async () => {
    const models = await mkdtemp(path.join(tmpdir(), 'aloud-doctor-'));
    await copyFile(FOR_TESTS_MODEL, path.join(models, 'ggml-tiny.en.bin'));
    await writeFile(path.join(models, 'broken.bin'), 'not a model');
    const { code, out } = await cli('doctor', '--models', models, '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.ok).toBe(true);
    expect(report.binding).toMatchObject({ version: expect.stringMatching(/^aloud-whisper /), error: null });
    expect(report.whisper_cpp.version).toContain('nodejs-whisper 0.3.1');
    expect(report.whisper_version).toBe('1.9.1');
    expect(report.flash_attn).toBe(true);
    if (arch() === 'x64') {
      expect(report.whisper_cpp.system_info).toContain('AVX2 = 1');
      expect(report.whisper_cpp.system_info).toContain('FMA = 1');
      expect(report.whisper_cpp.simd).toMatchObject({ AVX2: true, FMA: true, F16C: true });
    }
    expect(report.threads).toBeGreaterThanOrEqual(1);
    expect(report.models_dir).toBe(models);
    expect(report.models).toEqual([
      expect.objectContaining({ file: 'broken.bin', loadable: false, verified: false, problem: expect.any(String) }),
      // the for-tests file has the real tiny.en header but no weights: loadable, not the published tiny.en
      expect.objectContaining({ file: 'ggml-tiny.en.bin', loadable: true, verified: false, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    ]);
    expect(report.problems).toEqual([]);
    // no VAD model in the folder: the energy cutter, and doctor says so
    expect(report.vad).toMatchObject({ cutter: 'energy', file: null, note: expect.stringContaining('no voice-activity model') });
    await copyFile(path.join(FOR_TESTS_MODEL, '../for-tests-silero-v6.2.0-ggml.bin'), path.join(models, 'ggml-silero-v6.2.0.bin'));
    const withVad = JSON.parse((await cli('doctor', '--models', models, '--json')).out);
    expect(withVad.vad).toMatchObject({ cutter: 'vad', file: path.join(models, 'ggml-silero-v6.2.0.bin'), verified: true });
    // the VAD file is not listed as a broken whisper model
    expect(withVad.models.map((m: { file: string }) => m.file)).toEqual(['broken.bin', 'ggml-tiny.en.bin']);
  });

  it('says how to get a model when the folder has none', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'aloud-doctor-'));
    const { code, out } = await cli('doctor', '--models', empty);
    expect(code).toBe(0);
    expect(out).toMatch(/system info  .*AVX/);
    expect(out).toContain(`problem: no model in ${empty}: run \`aloud models download tiny.en\``);
  });
});
