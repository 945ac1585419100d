import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { decodeWav, WavError } from '../../../core/node/audio/wavFile';
import { cli } from '../../helpers/cli';
import { freshProject } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';
import { floatWav, wavDeclaring } from '../wavBytes';

interface WavContext {
  root: string;
  projectDir: string;
}

type Command = 'session ingest' | 'transcribe' | 'analyze --audio';

/** Runs a command on `file`; every one must read the WAV before it needs a model. */
function runOn(ctx: WavContext, command: Command, file: string) {
  switch (command) {
    case 'session ingest':
      return cli('session', 'ingest', '--project', ctx.projectDir, '--annotator', 'ana', '--item', 'demo-01', '--wav', file);
    case 'transcribe':
      return cli('transcribe', '--model', path.join(ctx.root, 'no-model.bin'), '--audio', file);
    case 'analyze --audio':
      return cli('analyze', '--labels', 'Polite,Impolite,Neutral', '--text', 'I think it is polite', '--audio', file);
  }
}

/** One line naming the file, exit 2, no stack trace. */
function expectOneLineRefusal(result: { code: number; err: string }, file: string, what: RegExp): void {
  expect(result.code, result.err).toBe(2);
  const lines = result.err.trim().split('\n');
  expect(lines, result.err).toHaveLength(1);
  expect(lines[0]).toContain(path.basename(file));
  expect(lines[0]).toMatch(what);
  expect(result.err).not.toMatch(/RangeError|\n\s+at /);
}

const COMMANDS: Command[] = ['session ingest', 'transcribe', 'analyze --audio'];
const BAD_RATES = [1, 49, 3_999, 384_001, 2_000_003, 4_294_967_295];
const BAD_FLOATS: Array<[string, number]> = [
  ['NaN', Number.NaN],
  ['+Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
];

let n = 0;
const write = async (ctx: WavContext, bytes: Uint8Array): Promise<string> => {
  const file = path.join(ctx.root, `hostile-${++n}.wav`);
  await writeFile(file, bytes);
  return file;
};

const cases: Array<HostileCase<WavContext>> = [];
for (const command of COMMANDS) {
  for (const rate of BAD_RATES) {
    cases.push({
      name: `${command}: a WAV declaring ${rate} Hz is refused in one line naming the file (exit 2)`,
      async run(ctx) {
        const file = await write(ctx, wavDeclaring(rate));
        expectOneLineRefusal(await runOn(ctx, command, file), file, new RegExp(`sample rate of ${rate} Hz is outside 4000–384000 Hz`));
      },
    });
  }
  for (const [what, value] of BAD_FLOATS) {
    cases.push({
      name: `${command}: a float WAV holding ${what} is refused, not ingested as silence`,
      async run(ctx) {
        const file = await write(ctx, floatWav([0, 0.1, value, 0.1]));
        expectOneLineRefusal(
          await runOn(ctx, command, file),
          file,
          new RegExp(`is ${what === 'NaN' ? 'NaN' : 'infinite'}: the audio is damaged`),
        );
      },
    });
  }
}
cases.push(
  {
    name: 'a 3 KB file claiming 2,000,003 Hz is refused before any resampling buffer is allocated',
    run() {
      const before = process.memoryUsage().arrayBuffers;
      expect(() => decodeWav(wavDeclaring(2_000_003, 1500), 'small.wav')).toThrow(WavError);
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(50 * 1024 * 1024);
    },
  },
  {
    name: 'the bounds themselves (4000 Hz and 384000 Hz) are read',
    run() {
      expect(decodeWav(wavDeclaring(4_000), 'low.wav').sampleRate).toBe(4_000);
      expect(decodeWav(wavDeclaring(384_000), 'high.wav').sampleRate).toBe(384_000);
    },
  },
);

export const wavInputGroup = hostileGroup<WavContext>({
  surface: 'files',
  area: 'WAV headers: sample-rate bounds and non-finite float samples (CLI)',
  async setup() {
    const { project, root } = await freshProject();
    return { root, projectDir: project.dir };
  },
  cases,
});
