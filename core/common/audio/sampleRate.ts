/**
 * Aloud's audio is 16 kHz mono everywhere: the rate the capture delivers, the session's WAVs keep, and whisper.cpp
 * and the Silero VAD take. The one definition of it.
 */
export const AUDIO_SAMPLE_RATE = 16_000;
