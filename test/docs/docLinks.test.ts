import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOCS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** A heading's anchor as GitHub makes it: lower case, punctuation but hyphens dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(text: string): Set<string> {
  return new Set(Array.from(text.matchAll(/^#{1,6} (.*)$/gm), (m) => headingAnchor(String(m[1]))));
}

/** The relative links and images of a Markdown text, code blocks left out. */
function linksOf(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  return Array.from(prose.matchAll(/\]\(([^)\s]+)\)/g), (m) => String(m[1])).filter((target) => !/^[a-z]+:/.test(target));
}

describe('the README and docs/', () => {
  it('makes anchors as GitHub does', () => {
    expect(headingAnchor('REFI-QDA (`--format qdpx`)')).toBe('refi-qda---format-qdpx');
    expect(headingAnchor('What to hide: `deidentify.yaml`')).toBe('what-to-hide-deidentifyyaml');
    expect(headingAnchor('A team, one dataset')).toBe('a-team-one-dataset');
  });

  it('keeps the README short: at most 250 lines', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  it.each(DOCS)('%s: every relative link reaches a file, and every #anchor a heading of it', (doc) => {
    const text = readFileSync(path.join(ROOT, doc), 'utf8');
    const broken = linksOf(text).filter((link) => {
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const target = file === '' ? path.join(ROOT, doc) : path.resolve(path.dirname(path.join(ROOT, doc)), file);
      if (!existsSync(target)) return true;
      return anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor);
    });
    expect(broken).toEqual([]);
  });

  it.each(DOCS.filter((d) => d !== 'README.md'))('%s says in its first paragraph who it is for', (doc) => {
    const firstParagraph = readFileSync(path.join(ROOT, doc), 'utf8').split('\n\n')[1] ?? '';
    expect(firstParagraph).toMatch(/^\*\*For /);
  });
});
