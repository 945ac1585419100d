import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const css = readFileSync(path.resolve(import.meta.dirname, '../../../renderer/src/app/styles.css'), 'utf8');
const variable = (name: string): string => {
  const m = new RegExp(`--${name}:\\s*(#[0-9a-fA-F]{6})`).exec(css);
  if (!m) throw new Error(`styles.css: --${name} is not a #rrggbb colour`);
  return m[1]!;
};

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const ratio = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

describe('WCAG AA contrast of the app colours (4.5:1 for text)', () => {
  it.each([
    ['ink on panel', 'ink', 'panel'],
    ['ink on background', 'ink', 'bg'],
    ['muted text on panel', 'muted', 'panel'],
    ['muted text on background', 'muted', 'bg'],
    ['muted text on the current item (accent-soft)', 'muted', 'accent-soft'],
    ['accent text on the current tab (accent-soft)', 'accent', 'accent-soft'],
    ['white on accent (chosen label, primary buttons)', 'panel', 'accent'],
    ['white on the recording button', 'panel', 'rec'],
    ['ink on the warning banner', 'ink', 'warn-bg'],
    ['ink on the error banner', 'ink', 'err-bg'],
  ])('%s', (_what, fg, bg) => {
    expect(ratio(variable(fg), variable(bg))).toBeGreaterThanOrEqual(4.5);
  });
  it('the literal text colours too (fillers, good/bad notes)', () => {
    expect(ratio('#5b4a9e', '#f0ecfb')).toBeGreaterThanOrEqual(4.5);
    expect(ratio('#1f6b40', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(ratio('#a12b2b', '#fde8e8')).toBeGreaterThanOrEqual(4.5);
  });
});
