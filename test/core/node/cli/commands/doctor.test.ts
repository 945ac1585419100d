import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { arch, tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { forkEngineLauncher, startEngineProcess } from '../../../../../core/node/engine/engineProcessHost';
import { ENGINE_REGISTRY_ENV } from '../../../../../core/node/engine/engineRegistry';
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
      expect.objectContaining({
        file: 'ggml-tiny.en.bin',
        loadable: true,
        verified: false,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    ]);
    expect(report.problems).toEqual([]);
    // the engine process doctor started, as a session would: its pid, title and memory, idle and with the model
    expect(report.engine_process).toMatchObject({
      pid: expect.any(Number),
      title: 'aloud-engine',
      model: 'tiny.en',
      restarts: 0,
      error: null,
    });
    expect(report.engine_process.rss_mb_loaded).toBeGreaterThan(report.engine_process.rss_mb_idle);
    expect(report.engine_process.rss_mb_loaded).toBeLessThan(300);
    // what the CPU advertises and the OS allows: left out with a reason, or nothing
    expect(report.cpu_guard.amx).toMatchObject({
      cpu: expect.any(Boolean),
      runs: expect.any(Boolean),
      compiled: expect.any(Boolean),
      reason: expect.any(String),
    });
    for (const l of report.left_out)
      expect(l).toMatchObject({
        feature: expect.stringContaining('AMX'),
        reason: expect.any(String),
        where: expect.stringMatching(/^(build|run time)$/),
      });
    expect(report.cpu_guard.amx.used).toBe(report.cpu_guard.amx.compiled && report.cpu_guard.amx.runs);
    // no VAD model in the folder: the energy cutter, and doctor says so
    expect(report.vad).toMatchObject({ cutter: 'energy', file: null, note: expect.stringContaining('no voice-activity model') });
    await copyFile(path.join(FOR_TESTS_MODEL, '../for-tests-silero-v6.2.0-ggml.bin'), path.join(models, 'ggml-silero-v6.2.0.bin'));
    const withVad = JSON.parse((await cli('doctor', '--models', models, '--json')).out);
    expect(withVad.vad).toMatchObject({ cutter: 'vad', file: path.join(models, 'ggml-silero-v6.2.0.bin'), verified: true });
    // the VAD file is not listed as a broken whisper model
    expect(withVad.models.map((m: { file: string }) => m.file)).toEqual(['broken.bin', 'ggml-tiny.en.bin']);
  });

  it('lists the engines of running hosts with their pid, memory and restarts; a host gone is dropped', { timeout: 120_000 }, async () => {
    const registry = await mkdtemp(path.join(tmpdir(), 'aloud-registry-'));
    const models = await mkdtemp(path.join(tmpdir(), 'aloud-doctor-'));
    process.env[ENGINE_REGISTRY_ENV] = registry;
    const engine = startEngineProcess({ launch: forkEngineLauncher, warmUp: false, modelName: 'for-tests' });
    try {
      await engine.load(FOR_TESTS_MODEL);
      const first = engine.supervision().pid!;
      process.kill(first, 'SIGKILL');
      for (let i = 0; i < 600 && engine.supervision().restarts < 1; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const { out } = await cli('doctor', '--models', models, '--json');
      const running = JSON.parse(out).running_engines;
      expect(running).toEqual([
        expect.objectContaining({
          host_pid: process.pid,
          pid: engine.supervision().pid,
          model: 'for-tests',
          state: 'running',
          restarts: 1,
          crashes: [expect.objectContaining({ pid: first, description: 'killed by SIGKILL' })],
        }),
      ]);
      expect(running[0].rss_mb).toBeGreaterThan(10);
      const text = (await cli('doctor', '--models', models)).out;
      expect(text).toMatch(
        new RegExp(
          `running      engine ${engine.supervision().pid} of process ${process.pid} \\(.*\\): for-tests, running, [\\d.]+ MB, restarts 1 \\(last crash .*: killed by SIGKILL\\)`,
        ),
      );
    } finally {
      await engine.close();
    }
    expect(JSON.parse((await cli('doctor', '--models', models, '--json')).out).running_engines).toEqual([]);
    // an entry left by a host that died is dropped
    await writeFile(
      path.join(registry, '999999999-1.json'),
      JSON.stringify({ host_pid: 999_999_999, pid: 1, state: 'running', restarts: 0, crashes: [] }),
    );
    expect(JSON.parse((await cli('doctor', '--models', models, '--json')).out).running_engines).toEqual([]);
    expect(existsSync(path.join(registry, '999999999-1.json'))).toBe(false);
    delete process.env[ENGINE_REGISTRY_ENV];
  });

  it('says how to get a model when the folder has none', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'aloud-doctor-'));
    const { code, out } = await cli('doctor', '--models', empty);
    expect(code).toBe(0);
    expect(out).toMatch(/system info  .*AVX/);
    expect(out).toContain(`problem: no model in ${empty}: run \`aloud models download tiny.en\``);
  });
});
