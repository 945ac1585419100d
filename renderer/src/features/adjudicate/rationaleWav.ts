/** 16 kHz mono PCM chunks as one 16-bit WAV file: how the lead's spoken rationale travels to the host. */
export function rationaleWav(chunks: readonly Float32Array[], sampleRate = 16_000): Uint8Array {
  const samples = chunks.reduce((n, c) => n + c.length, 0);
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const tag = (at: number, text: string) => [...text].forEach((ch, i) => view.setUint8(at + i, ch.charCodeAt(0)));
  tag(0, 'RIFF');
  view.setUint32(4, 36 + samples * 2, true);
  tag(8, 'WAVE');
  tag(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  tag(36, 'data');
  view.setUint32(40, samples * 2, true);
  let at = 44;
  for (const chunk of chunks) {
    for (const x of chunk) {
      // clipped to full scale, then to the nearest 16-bit step
      const clipped = Math.max(-1, Math.min(1, x));
      view.setInt16(at, Math.round(clipped < 0 ? clipped * 0x8000 : clipped * 0x7fff), true);
      at += 2;
    }
  }
  return bytes;
}
