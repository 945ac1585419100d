/** Test audio built by hand: exact tones and digital silence at 16 kHz unless said otherwise. */

/** Deterministic PRNG (mulberry32) so a failing random case can be reproduced from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Speech-like audio: noise bursts of random loudness and digital silence of random lengths. */
export function burstyAudio(random: () => number, length: number): Float32Array {
  const pcm = new Float32Array(length);
  let i = 0;
  while (i < length) {
    const run = 1 + Math.floor(random() * 3000);
    const amp = random() < 0.4 ? 0 : random() * 0.8;
    for (let k = 0; k < run && i < length; k++, i++) pcm[i] = amp * (random() * 2 - 1);
  }
  return pcm;
}

export type Part = { tone_ms: number; amp?: number } | { silence_ms: number } | { dc_ms: number; value: number };

/**
 * Concatenates parts. A tone is a 500 Hz sine (10 whole periods per 20 ms frame at 16 kHz, so every frame of it
 * has RMS amp/√2: amp 0.5 ≈ -9 dBFS, far above -45); silence is all zeros (-Infinity dBFS).
 */
export function audio(parts: Part[], sampleRate = 16000): Float32Array {
  const lengths = parts.map((p) =>
    Math.round((('tone_ms' in p ? p.tone_ms : 'silence_ms' in p ? p.silence_ms : p.dc_ms) * sampleRate) / 1000),
  );
  const pcm = new Float32Array(lengths.reduce((a, b) => a + b, 0));
  let at = 0;
  parts.forEach((p, k) => {
    const n = lengths[k]!;
    for (let i = 0; i < n; i++) {
      if ('tone_ms' in p) pcm[at + i] = (p.amp ?? 0.5) * Math.sin((2 * Math.PI * 500 * i) / sampleRate);
      else if ('dc_ms' in p) pcm[at + i] = p.value;
    }
    at += n;
  });
  return pcm;
}
