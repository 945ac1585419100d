import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import type { QuantizedType } from '../../../../bench/benchAssets';
import { readWavFor16k } from '../../../../core/node/engine/audioInput';
import { forkEngineLauncher, startEngineProcess } from '../../../../core/node/engine/engineProcessHost';
import { whisperAddonPath } from '../../../../core/node/engine/whisperAddon';
import { cli } from '../../../helpers/cli';
import { describeWithModels, FOR_TESTS_MODEL, testAssets } from '../engine/engineTestModels';

const RAW_RUN = path.join(import.meta.dirname, 'rawWhisperRun.mjs');

/**
 * What whisper.cpp does with the file, in a process of its own: it transcribes, refuses the file, or crashes. Its
 * address space is capped at 8 GB so that a header asking for 120 GB fails at once instead of pressing the machine.
 */
function whisperCppOutcome(file: string): string {
  const run = spawnSync('sh', ['-c', 'ulimit -v 8000000; exec "$0" "$@"', process.execPath, RAW_RUN, whisperAddonPath(), file], { encoding: 'utf8', timeout: 120_000 });
  if (run.status === 0) return 'transcribes';
  if (run.status === 3) return 'refuses the file';
  return `crashes (${run.signal ?? `exit ${run.status}`})`;
}

/** A vocab-only file with a huge but plausible header: n_state 8192, 32 encoder and 32 decoder layers, 64 heads. */
async function hugeVocabOnly(dir: string): Promise<string> {
  const bytes = Buffer.from(await readFile(FOR_TESTS_MODEL));
  for (const [offset, value] of [[12, 8192], [16, 64], [20, 32], [28, 8192], [32, 64], [36, 32]] as const) bytes.writeInt32LE(value, offset);
  const file = path.join(dir, 'huge-header.bin');
  await writeFile(file, bytes);
  return file;
}

describeWithModels('the import check gives the verdict loading would give (crafted files, real whisper.cpp)', () => {
  let dir: string;
  let files: Record<string, string>;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'aloud-verdict-'));
    const assets = testAssets();
    const quantized = Object.fromEntries((Object.entries(assets.quantized) as Array<[QuantizedType, string]>).map(([type, file]) => [type, file]));
    files = { f16: assets.benchModel, ...quantized, f32: assets.f32Model, 'huge vocab-only header': await hugeVocabOnly(dir) };
  });

  it('accepts exactly what whisper.cpp runs; refuses the rest with one line saying why', { timeout: 600_000 }, async () => {
    const expected: Record<string, { import: RegExp | 'accepted'; whisper: RegExp }> = {
      f16: { import: 'accepted', whisper: /^transcribes$/ },
      q8_0: { import: 'accepted', whisper: /^transcribes$/ },
      q5_1: { import: 'accepted', whisper: /^transcribes$/ },
      q4_0: { import: 'accepted', whisper: /^transcribes$/ },
      q4_1: { import: 'accepted', whisper: /^transcribes$/ },
      q4_k: { import: /a q4_k model needs rows of whole 256-value blocks, but '[^']+' has rows of 384 values .*whisper\.cpp cannot load it/, whisper: /^refuses the file$/ },
      q5_k: { import: /a q5_k model needs rows of whole 256-value blocks/, whisper: /^refuses the file$/ },
      q6_k: { import: /a q6_k model needs rows of whole 256-value blocks/, whisper: /^refuses the file$/ },
      f32: { import: /header: ftype = 0 \(f32 weights\): whisper\.cpp 1\.9\.1 cannot run an f32 model/, whisper: /^crashes \(SIGABRT\)$/ },
      'huge vocab-only header': { import: /holds no weights .* match no whisper model \(n_audio_state = 8192, 32 encoder and 32 decoder layers\): whisper\.cpp would allocate about 12\d GB for weights the file does not hold\n$/, whisper: /^crashes/ },
    };
    const verdicts: string[] = [];
    for (const [kind, file] of Object.entries(files)) {
      const models = await mkdtemp(path.join(dir, 'models-'));
      const imported = await cli('models', 'import', file, '--dir', models, '--name', `crafted-${kind.replace(/\W+/g, '-')}`);
      const outcome = whisperCppOutcome(file);
      verdicts.push(`${kind}: import ${imported.code === 0 ? 'accepts' : 'refuses'}, whisper.cpp ${outcome}`);
      const want = expected[kind]!;
      expect(outcome, kind).toMatch(want.whisper);
      if (want.import === 'accepted') {
        expect(imported.code, `${kind}: ${imported.err}`).toBe(0);
      } else {
        expect(imported.code, kind).toBe(2);
        expect(imported.err.trim().split('\n'), kind).toHaveLength(1);
        expect(imported.err, kind).toContain(file);
        expect(imported.err, kind).toMatch(want.import);
      }
      // the verdict is loading's: accepted exactly when whisper.cpp transcribes it
      expect(imported.code === 0, kind).toBe(outcome === 'transcribes');
    }
    console.log(`import verdicts against whisper.cpp:\n${verdicts.join('\n')}`);
  });

  it('verify flags a file that was put into the models folder by hand, with the same reason', async () => {
    const models = await mkdtemp(path.join(dir, 'models-'));
    await copyFile(files.f32!, path.join(models, 'ggml-f32-copy.bin'));
    const verified = await cli('models', 'verify', '--dir', models);
    expect(verified.code).toBe(1);
    expect(verified.out.trim().split('\n')).toEqual([expect.stringMatching(/^FAIL f32-copy .*ftype = 0 \(f32 weights\): whisper\.cpp 1\.9\.1 cannot run an f32 model/)]);
  });

  it('every model kind of the manifest (f16, q8_0, q5_1) transcribes speech in the engine process on this machine', { timeout: 300_000 }, async () => {
    const { pcm } = await readWavFor16k(testAssets().spokenClip5s);
    for (const [kind, file] of [['f16', files.f16!], ['q8_0', files.q8_0!], ['q5_1', files.q5_1!]] as const) {
      const engine = startEngineProcess({ launch: forkEngineLauncher, threads: 2, modelName: kind });
      try {
        const info = await engine.load(file);
        const result = await engine.transcribe({ pcm, identity: { request_id: kind, item_id: 'clip', utterance: 0 } });
        expect(result.identity, kind).toMatchObject({ request_id: kind, model_sha256: info.model!.sha256 });
        expect(result.audio_ms, kind).toBe(5000);
        expect(engine.supervision(), kind).toMatchObject({ state: 'running', restarts: 0, crashes: [] });
      } finally {
        await engine.close();
      }
    }
  });
});
