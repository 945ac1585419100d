import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openNodePreferences, PreferencesError, type Preferences } from '../../../../core/node/preferences/preferences';

async function cwd(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'aloud-prefs-'));
}

describe('preferences', () => {
  it('start empty, persist to preferences.json in the given folder, and read back in a new store', async () => {
    const dir = await cwd();
    const prefs = openNodePreferences({ cwd: dir });
    expect(prefs.path).toBe(path.join(dir, 'preferences.json'));
    expect(prefs.get()).toEqual({ annotator_name: null, last_project: null, microphone: null, model: null });
    prefs.update({ annotator_name: 'Ana', last_project: '/data/politeness', model: 'tiny.en' });
    const again = openNodePreferences({ cwd: dir });
    expect(again.get()).toEqual({ annotator_name: 'Ana', last_project: '/data/politeness', microphone: null, model: 'tiny.en' });
    again.update({ model: null, microphone: 'default' });
    expect(JSON.parse(await readFile(path.join(dir, 'preferences.json'), 'utf8'))).toMatchObject({
      annotator_name: 'Ana',
      model: null,
      microphone: 'default',
    });
  });

  it('refuses keys outside the schema, so project data cannot land there, and values of the wrong type', async () => {
    const prefs = openNodePreferences({ cwd: await cwd() });
    expect(() => prefs.update({ transcript: 'I label this polite' } as Partial<Preferences>)).toThrow(PreferencesError);
    expect(() => prefs.update({ transcript: 'x' } as Partial<Preferences>)).toThrow(
      /unknown preference "transcript".*project data belongs in the project folder/,
    );
    expect(() => prefs.update({ microphone: 42 } as unknown as Partial<Preferences>)).toThrow(
      /preferences\.json: .*microphone.* must be string,null/,
    );
    expect(() => prefs.update({ annotator_name: '' })).toThrow(/annotator_name.* must NOT have fewer than 1 characters/);
    expect(prefs.get().microphone).toBeNull();
  });

  it('a hand-broken file is an error naming it, and is left as it was', async () => {
    const dir = await cwd();
    const file = path.join(dir, 'preferences.json');
    await writeFile(file, '{"annotator_name": "Ana",');
    expect(() => openNodePreferences({ cwd: dir })).toThrow(`${file}: not valid JSON`);
    await writeFile(file, '{"annotator_name": 7}');
    expect(() => openNodePreferences({ cwd: dir })).toThrow(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*annotator_name`),
    );
    expect(await readFile(file, 'utf8')).toBe('{"annotator_name": 7}');
  });
});
