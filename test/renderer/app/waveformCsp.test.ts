import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, WAVEFORM_STYLE_HASHES } from '../../../core/common/contract/securityHeaders';

/** The <style> wavesurfer.js writes into each waveform's shadow root, for a given waveform height (no CSP nonce). */
function waveformStylesheet(height: number): string {
  // the package exports only its bundles; its renderer module sits beside the main one
  const dist = path.dirname(createRequire(import.meta.url).resolve('wavesurfer.js'));
  const source = readFileSync(path.join(dist, 'renderer.js'), 'utf8');
  const template = /shadow\.innerHTML = `([\s\S]*?)`;/.exec(source)?.[1];
  if (!template) throw new Error('wavesurfer.js renderer: shadow template not found (did the package change?)');
  const body = template.slice(template.indexOf('>', template.indexOf('<style')) + 1, template.indexOf('</style>'));
  return body.replace('${this.getHeight(this.options.height, this.options.splitChannels)}', String(height));
}

describe('the CSP allows exactly the waveform stylesheets', () => {
  it('hashes of the 96 px waveform and the 24 px minimap stylesheets of the installed wavesurfer.js', () => {
    const hashes = [96, 24].map((h) => `'sha256-${createHash('sha256').update(waveformStylesheet(h)).digest('base64')}'`);
    expect(WAVEFORM_STYLE_HASHES).toEqual(hashes);
    expect(CONTENT_SECURITY_POLICY).toContain(`style-src 'self' ${hashes.join(' ')};`);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
  });
});
