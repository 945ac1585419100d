// whisper.cpp's own translation unit (the sources smart-whisper vendors), compiled here so that one helper
// can reach a field whisper.h does not expose. A changed field name fails this build, never silently.
#include "whisper.cpp"

// Decoder 0's sampling generator is seeded only when a state is created, so a reused state would make the
// temperature fallback depend on earlier jobs; reseeding it gives every job the result of a fresh state.
void aloud_whisper_reseed_sampling(struct whisper_state* state) {
  state->decoders[0].rng = std::mt19937(0);
}
