// Which instruction sets the engine build leaves out because this machine does not let a process run them, decided
// from core/node/engine/native/cpu_probe.c's report. Used by scripts/build-engine.mjs; pure, so tests feed it reports.

/** The compiler flags that turn ggml's AMX kernels off (after -march=native, which would turn them on). */
export const NO_AMX_FLAGS = ['-mno-amx-tile', '-mno-amx-int8', '-mno-amx-bf16'];

/** The matrix kernels that change when AMX is left out. */
const AMX_KERNELS = 'q4_0, q4_1, q8_0, q4_K, q5_K and q6_K matrix products run on the AVX-512/AVX2 kernels instead';

/**
 * @param {{ amx?: { cpu: boolean, runs: boolean, reason: string } } | { error: string }} probe the probe's report, or why it could not run
 * @param {{ arch: string, native: boolean }} target what the build compiles for (`native`: -march=native on x86-64)
 * @returns {{ cflags: string[], leftOut: Array<{ feature: string, reason: string, flags: string[], effect: string }> }}
 */
export function isaPlan(probe, target) {
  // only a native x86-64 build can pick AMX up (portable builds stop at x86-64-v3; MSVC and ARM never enable it)
  if (target.arch !== 'x64' || !target.native) return { cflags: [], leftOut: [] };
  if ('error' in probe) {
    return {
      cflags: NO_AMX_FLAGS,
      leftOut: [
        {
          feature: 'AMX (amx_tile, amx_int8)',
          reason: `what the OS allows could not be checked (${probe.error}), so the build does without it`,
          flags: NO_AMX_FLAGS,
          effect: AMX_KERNELS,
        },
      ],
    };
  }
  const amx = probe.amx;
  if (!amx || !amx.cpu || amx.runs) return { cflags: [], leftOut: [] };
  return {
    cflags: NO_AMX_FLAGS,
    leftOut: [{ feature: 'AMX (amx_tile, amx_int8)', reason: amx.reason, flags: NO_AMX_FLAGS, effect: AMX_KERNELS }],
  };
}

/** The left-out list as a C string literal for generated/aloud_build_info.h (the binding reports it as `leftOut`). */
export function leftOutDefine(leftOut) {
  return JSON.stringify(JSON.stringify(leftOut));
}
