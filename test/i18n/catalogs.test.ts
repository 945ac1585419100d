/**
 * The message catalogs hold together: every area's `messages/en.json` has a `messages/de.json` with the same keys, the
 * same ICU arguments and plural forms that parse; keys are named after their area; no key is defined twice; every
 * catalog is imported by the code that composes it (else its strings would never reach a screen).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { INTERFACE_LOCALES } from '../../core/common/i18n/interfaceLocale';

const REPO = path.resolve(import.meta.dirname, '../..');
const SOURCE_ROOTS = ['core', 'renderer', 'electron'];

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(rel, out);
    else out.push(rel);
  }
  return out;
}

const files = SOURCE_ROOTS.flatMap((root) => walk(root));
const catalogDirs = files.filter((f) => f.endsWith('/messages/en.json')).map((f) => path.posix.dirname(f));
let imported: Set<string> | null = null;
/** Every repo path some source file imports (read once). */
function importedJson(): Set<string> {
  imported ??= new Set(
    files
      .filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts'))
      .flatMap((f) =>
        ts
          .preProcessFile(readFileSync(path.join(REPO, f), 'utf8'), true, true)
          .importedFiles.map((i) => path.posix.normalize(path.posix.join(path.posix.dirname(f), i.fileName))),
      ),
  );
  return imported;
}
const read = (file: string) => JSON.parse(readFileSync(path.join(REPO, file), 'utf8')) as Record<string, unknown>;

/** The argument names a message uses (nested in plurals and selects too), and the plural/select arguments' kinds. */
function argumentsOf(elements: MessageFormatElement[], into = new Map<string, string>()): Map<string, string> {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    if (el.type === TYPE.tag) {
      into.set(`<${el.value}>`, 'tag');
      argumentsOf(el.children, into);
      continue;
    }
    into.set(el.value, TYPE[el.type]);
    if (el.type === TYPE.plural || el.type === TYPE.select) for (const option of Object.values(el.options)) argumentsOf(option.value, into);
  }
  return into;
}

describe('message catalogs', () => {
  it('exist (the test would prove nothing without them)', () => {
    expect(catalogDirs.length).toBeGreaterThan(0);
  });

  for (const dir of catalogDirs) {
    describe(dir, () => {
      const catalogs = Object.fromEntries(INTERFACE_LOCALES.map((l) => [l, read(`${dir}/${l}.json`)]));
      const en = catalogs.en!;

      it('has every key in every language, and no other', () => {
        for (const locale of INTERFACE_LOCALES) {
          const keys = Object.keys(catalogs[locale]!);
          const missing = Object.keys(en).filter((k) => !keys.includes(k));
          const extra = keys.filter((k) => !(k in en));
          expect({ locale, missing, extra }).toEqual({ locale, missing: [], extra: [] });
        }
      });

      it('has messages that parse, with the same arguments in every language', () => {
        for (const [key, english] of Object.entries(en)) {
          expect(typeof english, key).toBe('string');
          const want = argumentsOf(parse(english as string));
          for (const locale of INTERFACE_LOCALES) {
            const text = catalogs[locale]![key];
            expect(typeof text, `${locale} ${key}`).toBe('string');
            expect((text as string).trim(), `${locale} ${key} is empty`).not.toBe('');
            expect(Object.fromEntries(argumentsOf(parse(text as string))), `${locale} ${key}`).toEqual(Object.fromEntries(want));
          }
        }
      });

      it('names its keys after one area', () => {
        const areas = new Set(Object.keys(en).map((k) => k.split('.')[0]));
        expect([...areas], `${dir}: one area per catalog`).toHaveLength(1);
      });

      it('is composed by some code', () => {
        expect(importedJson().has(`${dir}/en.json`), `${dir}/en.json is imported by no code`).toBe(true);
      });
    });
  }

  it('define no key twice', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const dir of catalogDirs)
      for (const key of Object.keys(read(`${dir}/en.json`))) {
        if (seen.has(key)) twice.push(`${key}: ${seen.get(key)} and ${dir}`);
        seen.set(key, dir);
      }
    expect(twice).toEqual([]);
  });
});
