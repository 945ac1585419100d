// Whether this machine lets a process run AMX (Intel's tile instructions, which ggml's q4_0/q4_1/q8_0/q4_K/q5_K/q6_K
// kernels use when compiled with them): the CPU must advertise AMX-TILE and AMX-INT8 (CPUID 7.0 EDX bits 24, 25),
// the OS must have enabled the tile state (XCR0 bits 17, 18), Linux must grant this process the tile data
// (arch_prctl ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA), and a tile instruction must then actually run: a virtual
// machine may advertise AMX and still trap it (SIGILL). Shared by the binding's run-time guard (ggml's AMX buffer
// type is only offered when this says yes) and by scripts/build-engine.mjs's probe (compile without AMX when no).
// Plain C, so that the probe compiles it with the C compiler alone.
#ifndef ALOUD_CPU_GUARD_H
#define ALOUD_CPU_GUARD_H

#include <stdio.h>
#include <string.h>

typedef struct {
  int cpu;         // CPUID advertises AMX-TILE and AMX-INT8
  int os_enabled;  // XCR0 has the tile config and tile data states
  int permitted;   // Linux granted XTILEDATA to this process (elsewhere: same as os_enabled)
  int runs;        // a tile instruction ran without a fault
  char reason[200];
} aloud_amx_check;

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define ALOUD_X86_GNU 1
#endif

#if defined(ALOUD_X86_GNU) && defined(__linux__) && defined(__x86_64__)
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
#define ALOUD_ARCH_REQ_XCOMP_PERM 0x1023
#define ALOUD_XFEATURE_XTILEDATA 18

static sigjmp_buf aloud_amx_jump;
static void aloud_amx_on_sigill(int sig) {
  (void)sig;
  siglongjmp(aloud_amx_jump, 1);
}

// Loads a one-tile configuration, zeroes the tile (first use of the tile data: the kernel allocates its state here,
// or sends SIGILL when it may not) and releases it. Instruction bytes, so that no assembler support is needed.
static int aloud_amx_try_tiles(void) {
  unsigned char config[64];
  memset(config, 0, sizeof config);
  config[0] = 1;   // palette 1
  config[16] = 4;  // tmm0: 4 bytes a row
  config[48] = 1;  // tmm0: 1 row
  struct sigaction handler, previous;
  memset(&handler, 0, sizeof handler);
  handler.sa_handler = aloud_amx_on_sigill;
  sigemptyset(&handler.sa_mask);
  if (sigaction(SIGILL, &handler, &previous) != 0) return 0;
  volatile int ran = 0;
  if (sigsetjmp(aloud_amx_jump, 1) == 0) {
    __asm__ volatile(
        ".byte 0xc4, 0xe2, 0x78, 0x49, 0x07\n\t"  // ldtilecfg (%rdi)
        ".byte 0xc4, 0xe2, 0x7b, 0x49, 0xc0\n\t"  // tilezero %tmm0
        ".byte 0xc4, 0xe2, 0x78, 0x49, 0xc0\n\t"  // tilerelease
        :
        : "D"(config)
        : "memory");
    ran = 1;
  }
  sigaction(SIGILL, &previous, NULL);
  return ran;
}
#endif

static aloud_amx_check aloud_check_amx(void) {
  aloud_amx_check check;
  memset(&check, 0, sizeof check);
#if defined(ALOUD_X86_GNU)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_max(0, 0) < 7) {
    snprintf(check.reason, sizeof check.reason, "the CPU does not advertise AMX (no CPUID leaf 7)");
    return check;
  }
  __cpuid_count(7, 0, a, b, c, d);
  check.cpu = ((d >> 24) & 1) && ((d >> 25) & 1);
  if (!check.cpu) {
    snprintf(check.reason, sizeof check.reason, "the CPU does not advertise AMX (amx_tile, amx_int8)");
    return check;
  }
  __cpuid(1, a, b, c, d);
  if (!((c >> 27) & 1)) {
    snprintf(check.reason, sizeof check.reason, "the CPU advertises AMX but the OS has not enabled XSAVE");
    return check;
  }
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  check.os_enabled = ((lo >> 17) & 1) && ((lo >> 18) & 1);
  if (!check.os_enabled) {
    snprintf(check.reason, sizeof check.reason, "the CPU advertises AMX but the OS has not enabled the tile state (XCR0 = 0x%x)", lo);
    return check;
  }
#if defined(__linux__) && defined(__x86_64__)
  if (syscall(SYS_arch_prctl, ALOUD_ARCH_REQ_XCOMP_PERM, ALOUD_XFEATURE_XTILEDATA) != 0) {
    snprintf(check.reason, sizeof check.reason, "the CPU advertises AMX but the kernel does not grant the tile data (arch_prctl ARCH_REQ_XCOMP_PERM XTILEDATA: %s)", strerror(errno));
    return check;
  }
  check.permitted = 1;
  check.runs = aloud_amx_try_tiles();
  if (!check.runs) {
    snprintf(check.reason, sizeof check.reason, "the CPU advertises AMX and the kernel grants it, but a tile instruction traps here (SIGILL): the virtual machine does not allow it");
    return check;
  }
#else
  check.permitted = 1;
  check.runs = 1;
#endif
  snprintf(check.reason, sizeof check.reason, "the CPU advertises AMX and the OS allows it");
#else
  snprintf(check.reason, sizeof check.reason, "not an x86 CPU: no AMX");
#endif
  return check;
}

#endif
