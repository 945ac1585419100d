import { encodeWavPcm16 } from '../../core/node/audio/wavFile';

/** A 16-bit PCM WAV whose header declares `rate` (the audio itself is a short tone). */
export function wavDeclaring(rate: number, samples = 1600): Uint8Array {
  const bytes = encodeWavPcm16(
    Float32Array.from({ length: samples }, (_, i) => 0.2 * Math.sin(i / 7)),
    16_000,
  );
  new DataView(bytes.buffer).setUint32(24, rate >>> 0, true);
  return bytes;
}

/** A mono 32-bit IEEE float WAV at 16 kHz holding `values`. */
export function floatWav(values: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(44 + values.length * 4);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => {
    for (let k = 0; k < 4; k++) bytes[at + k] = text.charCodeAt(k);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + values.length * 4, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 3, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 16_000, true);
  view.setUint32(28, 64_000, true);
  view.setUint16(32, 4, true);
  view.setUint16(34, 32, true);
  ascii(36, 'data');
  view.setUint32(40, values.length * 4, true);
  values.forEach((v, i) => view.setFloat32(44 + 4 * i, v, true));
  return bytes;
}
