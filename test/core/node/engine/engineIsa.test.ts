import { spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { arch, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isaPlan, leftOutDefine, NO_AMX_FLAGS } from '../../../../scripts/engineIsa.mjs';
import { REPO } from './engineTestModels';

const native = { arch: 'x64', native: true };
const amx = (cpu: boolean, runs: boolean, reason: string) => ({ amx: { cpu, os_enabled: runs, permitted: runs, runs, reason } });

describe('which instructions the engine build leaves out (scripts/engineIsa.mjs)', () => {
  it('a CPU that advertises AMX the OS does not grant: compiled without it, and the reason kept for doctor', () => {
    const reason =
      'the CPU advertises AMX but the kernel does not grant the tile data (arch_prctl ARCH_REQ_XCOMP_PERM XTILEDATA: Operation not supported)';
    const plan = isaPlan(amx(true, false, reason), native);
    expect(plan.cflags).toEqual(['-mno-amx-tile', '-mno-amx-int8', '-mno-amx-bf16']);
    expect(plan.leftOut).toEqual([
      { feature: 'AMX (amx_tile, amx_int8)', reason, flags: NO_AMX_FLAGS, effect: expect.stringContaining('q8_0') },
    ]);
    // the binding reports the list through a C string literal
    expect(JSON.parse(JSON.parse(leftOutDefine(plan.leftOut)))).toEqual(plan.leftOut);
  });

  it('AMX allowed, or not advertised, or a build that never enables it: nothing left out', () => {
    expect(isaPlan(amx(true, true, 'the CPU advertises AMX and the OS allows it'), native)).toEqual({ cflags: [], leftOut: [] });
    expect(isaPlan(amx(false, false, 'the CPU does not advertise AMX'), native)).toEqual({ cflags: [], leftOut: [] });
    expect(isaPlan(amx(true, false, 'x'), { arch: 'x64', native: false })).toEqual({ cflags: [], leftOut: [] });
    expect(isaPlan(amx(true, false, 'x'), { arch: 'arm64', native: true })).toEqual({ cflags: [], leftOut: [] });
  });

  it('a probe that could not run: the build does without AMX rather than risk it', () => {
    const plan = isaPlan({ error: 'cc could not compile the CPU probe' }, native);
    expect(plan.cflags).toEqual(NO_AMX_FLAGS);
    expect(plan.leftOut[0]!.reason).toContain('could not be checked (cc could not compile the CPU probe)');
  });

  it.skipIf(arch() !== 'x64' || process.platform !== 'linux')(
    'the probe (cpu_guard.h) runs here and answers for CPU and OS; the flags leave the AMX kernels out of ggml',
    async () => {
      const exe = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-probe-')), 'probe');
      const native = path.join(REPO, 'core/node/engine/native');
      expect(spawnSync('cc', ['-O1', '-o', exe, path.join(native, 'cpu_probe.c')]).status).toBe(0);
      const ran = spawnSync(exe, [], { encoding: 'utf8' });
      expect(ran.status).toBe(0);
      const probe = JSON.parse(ran.stdout) as {
        amx: { cpu: boolean; os_enabled: boolean; permitted: boolean; runs: boolean; reason: string };
      };
      expect(probe.amx.reason.length).toBeGreaterThan(10);
      // "runs" needs every earlier step
      if (probe.amx.runs) expect(probe.amx).toMatchObject({ cpu: true, os_enabled: true, permitted: true });
      // even a target that has AMX, with the flags after it, compiles ggml's AMX path out
      const defines = spawnSync('cc', ['-march=sapphirerapids', ...NO_AMX_FLAGS, '-dM', '-E', '-x', 'c', '-'], {
        input: '',
        encoding: 'utf8',
      }).stdout;
      expect(defines).not.toMatch(/__AMX_INT8__|__AMX_TILE__/);
      expect(spawnSync('cc', ['-march=sapphirerapids', '-dM', '-E', '-x', 'c', '-'], { input: '', encoding: 'utf8' }).stdout).toMatch(
        /__AMX_INT8__/,
      );
    },
  );
});
