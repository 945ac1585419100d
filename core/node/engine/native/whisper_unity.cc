// whisper.cpp's own translation unit (whisper.cpp 1.9.1 from nodejs-whisper), compiled here so that the helpers
// below can reach fields whisper.h does not expose. A changed field name fails this build, never silently.
#include "whisper.cpp"

#include "ggml-cpu.h"

// Decoder 0's sampling generator is seeded only when a state is created, so a reused state would make the
// temperature fallback depend on earlier jobs; reseeding it gives every job the result of a fresh state.
void aloud_whisper_reseed_sampling(struct whisper_state* state) {
  state->decoders[0].rng = std::mt19937(0);
}

// whisper.cpp leaves ggml-cpu to start a throw-away thread pool per graph (one per decoded token), whose
// workers poll before they sleep. One pool per model, with polling off, keeps the threads and never spins
// against other processes; passing nullptr gives the state back to ggml's default.
void aloud_whisper_use_threadpool(struct whisper_state* state, struct ggml_threadpool* pool) {
  for (ggml_backend_t backend : state->backends) {
    if (ggml_backend_is_cpu(backend)) ggml_backend_cpu_set_threadpool(backend, pool);
  }
}

// Samples per VAD probability (512 at 16 kHz for Silero), which whisper.h does not expose.
int aloud_whisper_vad_window(struct whisper_vad_context* vctx) { return vctx->n_window; }
