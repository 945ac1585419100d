// ggml/src/ggml-cpu/ggml-cpu.cpp under another name (ggml-cpu.c would share its object file name; see ggml_cpp.cpp).
// When ggml's AMX kernels are compiled in, the CPU backend offers their buffer type only where this process may run
// tile instructions (cpu_guard.h): ggml itself asks the kernel for permission, not whether the instructions run.
#include "../cpu_guard.h"

// What the run-time check found, once per process (the binding reports it through cpuGuard()).
aloud_amx_check aloud_amx_status(void) {
  static const aloud_amx_check status = aloud_check_amx();
  return status;
}

// Whether ggml's AMX kernels are in this build at all.
bool aloud_amx_compiled(void) {
#if defined(__AMX_INT8__) && defined(__AVX512VNNI__)
  return true;
#else
  return false;
#endif
}

#if defined(__AMX_INT8__) && defined(__AVX512VNNI__)
#define ggml_backend_amx_buffer_type aloud_guarded_amx_buffer_type
#endif
#include "ggml-cpu.cpp"
#if defined(__AMX_INT8__) && defined(__AVX512VNNI__)
#undef ggml_backend_amx_buffer_type
ggml_backend_buffer_type_t ggml_backend_amx_buffer_type(void);

ggml_backend_buffer_type_t aloud_guarded_amx_buffer_type(void) {
  return aloud_amx_status().runs ? ggml_backend_amx_buffer_type() : nullptr;
}
#endif
