import { arch, availableParallelism, cpus } from 'node:os';
import { EngineError, parseSystemInfo } from '../../../common/engine/engineTypes';
import { defaultEngineThreads, ENGINE_FLASH_ATTN } from '../../engine/whisperEngine';
import { type CpuGuardReport, leftOutFeatures, type LeftOutFeature, loadWhisperAddon, whisperAddonPath } from '../../engine/whisperAddon';
import { forkEngineLauncher, startEngineProcess } from '../../engine/engineProcessHost';
import { runningEngines } from '../../engine/engineRegistry';
import { openVoiceActivity } from '../../engine/sessionEngine';
import { listInstalledModels } from '../../models/installedModels';
import { loadModelManifest } from '../../models/manifestFile';
import { digestFile } from '../../models/modelFiles';
import { resolveModelsDir } from '../../models/modelsDir';
import { type CliCommand, printJson, parseOptions } from '../cliSupport';
import { doctorProject, DOCTOR_PROJECT_USAGE } from './doctorProject';

/** The SIMD features whisper.cpp must report for this CPU architecture (what the engine build guarantees). */
function requiredSimd(): string[] {
  if (arch() === 'x64') return ['AVX2', 'FMA', 'F16C'];
  if (arch() === 'arm64') return ['NEON'];
  return [];
}

const mb = (bytes: number | null | undefined): number | null =>
  typeof bytes === 'number' ? Math.round((bytes / (1024 * 1024)) * 10) / 10 : null;

interface EngineProcessCheck {
  pid: number | null;
  title: string | null;
  rss_mb_idle: number | null;
  rss_mb_loaded: number | null;
  model: string | null;
  restarts: number;
  error: string | null;
}

/** Starts the engine process, reads its pid and memory, loads `model` when there is one, and closes it. */
async function checkEngineProcess(model: { name: string; path: string } | undefined): Promise<EngineProcessCheck> {
  const engine = startEngineProcess({ launch: forkEngineLauncher, warmUp: false, ...(model ? { modelName: model.name } : {}) });
  const check: EngineProcessCheck = {
    pid: null,
    title: null,
    rss_mb_idle: null,
    rss_mb_loaded: null,
    model: null,
    restarts: 0,
    error: null,
  };
  try {
    const idle = await engine.info();
    check.pid = idle.process?.pid ?? null;
    check.title = idle.process?.title ?? null;
    check.rss_mb_idle = mb(idle.process?.rss_bytes);
    if (model) {
      await engine.load(model.path);
      check.rss_mb_loaded = mb((await engine.info()).process?.rss_bytes);
      check.model = model.name;
    }
    check.restarts = engine.supervision().restarts;
  } catch (e) {
    check.error = `the engine process ${check.pid === null ? 'does not start' : `${check.pid} failed`}: ${(e as Error).message.split('\n')[0]}`;
  } finally {
    await engine.close();
  }
  return check;
}

export const doctorCommand: CliCommand = {
  name: 'doctor',
  usage: `doctor [--models DIR] [--json]   (exit 1 when the binding is missing, lacks the SIMD it was built for, or its engine process does not start)\n${DOCTOR_PROJECT_USAGE}`,
  async run(argv, io) {
    const { values } = parseOptions(argv, { models: 'string', json: false, project: 'string' });
    if (values.project !== undefined) return doctorProject(values.project, values.json, io);
    const problems: string[] = [];
    let engineRuns = true;
    let binding: { version: string | null; path: string; compile_flags: string | null; error: string | null };
    let whisper: { version: string | null; system_info: string | null; simd: Record<string, boolean> };
    let whisperVersion: string | null = null;
    let leftOut: LeftOutFeature[] = [];
    let cpuGuard: CpuGuardReport | null = null;
    try {
      const addon = loadWhisperAddon();
      leftOut = leftOutFeatures(addon);
      cpuGuard = addon.cpuGuard?.() ?? null;
      const systemInfo = addon.systemInfo();
      binding = { version: addon.bindingVersion, path: whisperAddonPath(), compile_flags: addon.compileFlags, error: null };
      whisper = { version: addon.whisperCppVersion, system_info: systemInfo, simd: parseSystemInfo(systemInfo) };
      whisperVersion = addon.whisperVersion ?? null;
      const missing = requiredSimd().filter((feature) => !whisper.simd[feature]);
      if (missing.length > 0) {
        engineRuns = false;
        problems.push(`whisper.cpp was built without ${missing.join(', ')}: run \`npm run build:engine -- --force\``);
      }
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      binding = { version: null, path: whisperAddonPath(), compile_flags: null, error: e.message };
      whisper = { version: null, system_info: null, simd: {} };
      engineRuns = false;
      problems.push(e.message);
    }

    const modelsDir = resolveModelsDir(values.models);
    let models: Array<Record<string, unknown>> = [];
    try {
      models = (await listInstalledModels(modelsDir)).map((m) => ({
        name: m.name,
        file: m.file,
        path: m.path,
        bytes: m.bytes,
        sha256: m.sha256,
        verified: m.verified,
        manifest_name: m.manifest_name,
        loadable: m.problem === null,
        problem: m.problem,
      }));
    } catch (e) {
      problems.push(`cannot list the models folder ${modelsDir}: ${(e as Error).message.split('\n')[0]}`);
    }
    // the live cutter's voice activity: Silero VAD when its model is in the folder, else the energy rule
    let vad: { cutter: 'vad' | 'energy'; file: string | null; verified: boolean; note: string } = {
      cutter: 'energy',
      file: null,
      verified: false,
      note: 'the engine does not run',
    };
    if (engineRuns) {
      const voice = openVoiceActivity(modelsDir);
      const expected = (await loadModelManifest()).vad?.checksum;
      const file = voice.probe?.file ?? null;
      const verified = file !== null && expected !== undefined && (await digestFile(file))[expected.algo] === expected.value;
      vad = { cutter: voice.probe ? 'vad' : 'energy', file, verified, note: voice.note };
      voice.probe?.free();
    }
    if (models.length === 0)
      problems.push(`no model in ${modelsDir}: run \`aloud models download tiny.en\` or \`aloud models import FILE\``);

    // the engine runs in a process of its own: start one as a session would, with the first loadable model
    const engineProcess = engineRuns
      ? await checkEngineProcess(models.find((m) => m.loadable) as { name: string; path: string } | undefined)
      : null;
    if (engineProcess?.error) {
      engineRuns = false;
      problems.push(engineProcess.error);
    }
    const running = (await runningEngines()).map((e) => ({
      host_pid: e.host_pid,
      host: e.host,
      pid: e.pid,
      model: e.model,
      state: e.state,
      rss_mb: mb(e.rss_bytes),
      restarts: e.restarts,
      crashes: e.crashes.map((c) => ({ at: new Date(c.at).toISOString(), pid: c.pid, description: c.description })),
      stopped_because: e.stopped_because,
    }));

    const report = {
      ok: engineRuns,
      /** whisper_version() of the compiled whisper.cpp, e.g. "1.9.1" */
      whisper_version: whisperVersion,
      /** the engine loads every model with flash attention */
      flash_attn: engineRuns && ENGINE_FLASH_ATTN,
      binding,
      whisper_cpp: whisper,
      threads: defaultEngineThreads(),
      cpu: { arch: arch(), cores: availableParallelism(), model: cpus()[0]?.model ?? null },
      /** instruction sets the CPU advertises but this machine does not let the engine run, and why */
      left_out: leftOut,
      cpu_guard: cpuGuard,
      /** the engine process doctor started: pid, resident memory idle and with a model loaded, restarts */
      engine_process: engineProcess,
      /** engines of running hosts (app, serve, ingest): pid, memory, restarts and crashes */
      running_engines: running,
      models_dir: modelsDir,
      models,
      vad,
      problems,
    };
    if (values.json) {
      printJson(io, report);
    } else {
      io.out(`binding      ${binding.version ?? 'MISSING'} (${binding.path})\n`);
      io.out(`whisper.cpp  ${whisper.version ?? '-'}\n`);
      io.out(`flash attn   ${report.flash_attn ? 'on' : 'off'}\n`);
      io.out(`system info  ${whisper.system_info ?? '-'}\n`);
      io.out(`build flags  ${binding.compile_flags ?? '-'}\n`);
      io.out(`threads      ${report.threads} of ${report.cpu.cores} cores (${report.cpu.model ?? report.cpu.arch})\n`);
      for (const l of leftOut) io.out(`left out     ${l.feature} (${l.where}): ${l.reason}\n`);
      if (engineProcess && !engineProcess.error) {
        const loaded = engineProcess.model ? `, ${engineProcess.rss_mb_loaded} MB with ${engineProcess.model} loaded` : '';
        io.out(
          `engine       process ${engineProcess.pid} (${engineProcess.title}), ${engineProcess.rss_mb_idle} MB resident idle${loaded}; restarts ${engineProcess.restarts}\n`,
        );
      }
      for (const e of running) {
        const last = e.crashes.at(-1);
        io.out(
          `running      engine ${e.pid ?? '-'} of process ${e.host_pid} (${e.host}): ${e.model ?? 'no model'}, ${e.state}, ${e.rss_mb ?? '?'} MB, restarts ${e.restarts}${last ? ` (last crash ${last.at}: ${last.description})` : ''}\n`,
        );
      }
      io.out(`models       ${modelsDir}\n`);
      for (const m of models) {
        io.out(
          `  ${String(m.name).padEnd(12)} ${m.verified ? 'verified' : 'unverified'}  ${m.loadable ? 'loadable' : `NOT LOADABLE: ${m.problem}`}  ${m.file}\n`,
        );
      }
      io.out(`cutter       ${vad.note}${vad.file && !vad.verified ? ' (NOT the published file: checksum differs)' : ''}\n`);
      for (const p of problems) io.out(`problem: ${p}\n`);
    }
    return report.ok ? 0 : 1;
  },
};
