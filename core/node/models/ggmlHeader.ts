import { open } from 'node:fs/promises';
import { type GgmlModelInfo, inspectGgmlModel } from '../../common/models/ggmlFormat';
import { ModelFileError } from '../../common/models/modelFileError';
import { say } from '../../common/refusal/refusalMessage';

/**
 * Checks a whisper.cpp ggml model file before anything loads it: magic, hparams in plausible ranges,
 * mel filters and vocabulary intact, and every tensor whisper.cpp expects present with its full data
 * (or no tensors at all: a vocab-only test model, reported as weights 'none').
 * Throws ModelFileError naming the file and the problem; never lets a bad file reach the native loader.
 */
export async function checkGgmlModelFile(file: string): Promise<GgmlModelInfo> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ModelFileError(file, say('refusal.modelFile.notFound'));
    if (code === 'EACCES' || code === 'EPERM') throw new ModelFileError(file, say('refusal.modelFile.permissionDenied'));
    throw new ModelFileError(file, say('refusal.modelFile.cannotOpen', { detail: code ?? (e as Error).message }));
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new ModelFileError(file, say('refusal.modelFile.notRegular'));
    const fh = handle;
    return await inspectGgmlModel(
      {
        size: stats.size,
        read: async (offset, length) => {
          const buffer = Buffer.alloc(Math.max(0, Math.min(length, stats.size - offset)));
          const { bytesRead } = await fh.read(buffer, 0, buffer.length, offset);
          return buffer.subarray(0, bytesRead);
        },
      },
      file,
    );
  } catch (e) {
    if (e instanceof ModelFileError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') throw new ModelFileError(file, say('refusal.modelFile.isFolder'));
    throw new ModelFileError(file, say('refusal.modelFile.cannotRead', { detail: code ?? (e as Error).message }));
  } finally {
    await handle.close();
  }
}
