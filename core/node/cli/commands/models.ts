import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ModelManifest } from '../../../common/models/modelManifest';
import { type InstalledModel, installedVadModel, listInstalledModels } from '../../models/installedModels';
import { loadModelManifest, MANIFEST_PATH } from '../../models/manifestFile';
import { type DownloadProgress, downloadModel } from '../../models/modelDownload';
import { ModelDownloadError } from '../../models/modelErrors';
import { importModelFile } from '../../models/modelImport';
import { resolveModelsDir } from '../../models/modelsDir';
import { type CliIo, type CliCommand, printJson, UsageError, parseOptions } from '../cliSupport';

const USAGE = [
  'models list [--dir DIR] [--json]',
  '       aloud models download NAME [--no-vad] [--dir DIR] [--json]   (the default model brings the Silero VAD model with it)',
  '       aloud models import FILE [--name NAME] [--dir DIR] [--json]',
  '       aloud models verify [NAME] [--dir DIR] [--json]',
  '',
  'The models folder is --dir, else $ALOUD_MODELS_DIR, else the per-user folder (~/.local/share/aloud/models on Linux).',
  '--manifest FILE uses another manifest; --allow-loopback-http lets download use http://127.0.0.1 (tests, local mirrors).',
].join('\n');

const MiB = 1024 * 1024;

const mib = (bytes: number): string => `${(bytes / MiB).toFixed(1)} MiB`;

/** Progress for people (a bar redrawn in place) or for pipelines (one JSON line per whole percent), always on stderr. */
function progressReporter(io: CliIo, name: string, json: boolean): { onProgress: (p: DownloadProgress) => void; finish: () => void } {
  let lastDraw = 0;
  let lastPercent = -1;
  let lastBytes = 0;
  let drawn = false;
  return {
    onProgress(p) {
      if (json) {
        const step = p.percent === null ? Math.floor(p.received_bytes / (8 * MiB)) : Math.floor(p.percent);
        if (step === lastPercent) return;
        lastPercent = step;
        io.err(
          `${JSON.stringify({ event: 'progress', name, ...p, percent: p.percent === null ? null : Math.round(p.percent * 10) / 10 })}\n`,
        );
        return;
      }
      const now = Date.now();
      const done = p.total_bytes !== null && p.received_bytes >= p.total_bytes;
      if (!done && now - lastDraw < 100 && p.received_bytes - lastBytes < 4 * MiB) return;
      lastDraw = now;
      lastBytes = p.received_bytes;
      const width = 30;
      const filled = p.percent === null ? 0 : Math.round((p.percent / 100) * width);
      const bar = p.percent === null ? '?'.repeat(width) : `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
      const amount = p.total_bytes === null ? mib(p.received_bytes) : `${mib(p.received_bytes)} / ${mib(p.total_bytes)}`;
      const percent = p.percent === null ? '  ?%' : `${p.percent.toFixed(0).padStart(3)}%`;
      io.err(`\r${name} [${bar}] ${percent} ${amount}${p.resumed_from_bytes > 0 ? ' (resumed)' : ''}   `);
      drawn = true;
    },
    finish() {
      if (drawn) io.err('\n');
      drawn = false;
    },
  };
}

async function loadManifestOption(file: string | undefined): Promise<ModelManifest> {
  return loadModelManifest(file ?? MANIFEST_PATH);
}

function modelOk(m: InstalledModel): boolean {
  return m.problem === null && (m.expected_checksum === null || m.verified);
}

async function listCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(args, { dir: 'string', json: false, manifest: 'string' }, { positionals: true });
  if (positionals.length > 0) throw new UsageError(`list takes no arguments (got "${positionals[0]}")`);
  const manifest = await loadManifestOption(values.manifest);
  const dir = resolveModelsDir(values.dir);
  const installed = await listInstalledModels(dir, { manifest });
  const partialBytes = async (file: string): Promise<number | null> =>
    (await stat(path.join(dir, `${file}.part`)).catch(() => null))?.size ?? null;
  const partials = await Promise.all(manifest.models.map((entry) => partialBytes(entry.file)));
  const models = manifest.models.map((entry, i) => {
    const atName = installed.find((m) => m.file === entry.file);
    const verified = installed.find((m) => m.manifest_name === entry.name);
    const present = verified ?? atName;
    return {
      name: entry.name,
      default: entry.name === manifest.default,
      file: entry.file,
      url: entry.url,
      bytes: entry.bytes,
      approx_mib: entry.approx_mib,
      checksum: entry.checksum,
      english_only: entry.english_only,
      size_class: entry.size_class,
      present: present !== undefined,
      verified: verified !== undefined,
      path: present?.path ?? null,
      /** bytes of an interrupted download that `models download` will resume, or null */
      partial_bytes: partials[i] ?? null,
    };
  });
  const other = installed.filter((m) => m.manifest_name === null && !manifest.models.some((e) => e.file === m.file));
  const vad = await installedVadModel(dir, { manifest });
  if (values.json) {
    printJson(io, { dir, default: manifest.default, models, other_installed: other, vad });
    return 0;
  }
  io.out(`models folder: ${dir}\n`);
  for (const m of models) {
    const partial = m.partial_bytes === null ? '' : ` (${mib(m.partial_bytes)} downloaded; run download again to resume)`;
    const state = m.verified
      ? 'installed, verified'
      : m.present
        ? 'present, CHECKSUM MISMATCH (run: aloud models verify)'
        : `not installed${partial}`;
    io.out(`${m.default ? '*' : ' '} ${m.name.padEnd(10)} ${String(m.approx_mib).padStart(4)} MiB  ${state}\n`);
  }
  for (const m of other)
    io.out(
      `  ${m.name.padEnd(10)} ${mib(m.bytes).padStart(9)}  imported (not in the manifest)${m.problem ? `, UNUSABLE: ${m.problem}` : ''}\n`,
    );
  if (vad) {
    const state = vad.verified
      ? 'installed, verified'
      : vad.present
        ? 'present, CHECKSUM MISMATCH (run: aloud models verify)'
        : `not installed (aloud models download ${vad.name}, or import the file)`;
    io.out(`  ${vad.name} ${String(vad.approx_mib)} MiB  voice activity (VAD): ${state}\n`);
  }
  return 0;
}

async function downloadCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    { dir: 'string', json: false, manifest: 'string', 'allow-loopback-http': false, 'no-vad': false },
    { positionals: true },
  );
  if (positionals.length !== 1) throw new UsageError('download takes exactly one model NAME (see: aloud models list)');
  const name = positionals[0]!;
  const manifest = await loadManifestOption(values.manifest);
  const entry = manifest.vad?.name === name ? manifest.vad : manifest.models.find((m) => m.name === name);
  if (!entry)
    throw new UsageError(
      `unknown model "${name}"; known: ${[...manifest.models.map((m) => m.name), ...(manifest.vad ? [manifest.vad.name] : [])].join(', ')}`,
    );
  // The live cutter needs the VAD model; it comes with the default whisper model (it is under 1 MB).
  const vadToo = name === manifest.default && manifest.vad && !values['no-vad'] ? manifest.vad : null;
  const progress = progressReporter(io, name, values.json);
  const controller = new AbortController();
  const interrupt = (): void => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    const result = await downloadModel(entry, {
      dir: values.dir,
      signal: controller.signal,
      onProgress: progress.onProgress,
      allowLoopbackHttp: values['allow-loopback-http'],
    });
    progress.finish();
    const vad = vadToo
      ? await downloadModel(vadToo, { dir: values.dir, signal: controller.signal, allowLoopbackHttp: values['allow-loopback-http'] })
      : null;
    if (values.json) printJson(io, vad ? { ...result, vad } : result);
    else {
      io.out(
        `${name}: ${result.status === 'already-present' ? 'already present' : 'downloaded'} and verified (${result.checksum.algo} ${result.checksum.value}) → ${result.path}\n`,
      );
      if (vad)
        io.out(
          `${vad.name} (voice activity for the live cutter): ${vad.status === 'already-present' ? 'already present' : 'downloaded'} and verified (${vad.checksum.algo} ${vad.checksum.value}) → ${vad.path}\n`,
        );
    }
    return 0;
  } catch (e) {
    progress.finish();
    if (controller.signal.aborted) {
      io.err(`aloud models: download of ${name} interrupted; run the same command again to resume\n`);
      return 130;
    }
    // a download that failed on the way (network, HTTP, checksum) exits 1: running it again resumes it
    if (e instanceof ModelDownloadError && e.code !== 'bad_request') {
      io.err(`aloud models: ${e.message}\n`);
      return 1;
    }
    throw e;
  } finally {
    process.removeListener('SIGINT', interrupt);
  }
}

async function importCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    { dir: 'string', name: 'string', json: false, manifest: 'string' },
    { positionals: true },
  );
  if (positionals.length !== 1) throw new UsageError('import takes exactly one FILE');
  const manifest = await loadManifestOption(values.manifest);
  const result = await importModelFile(positionals[0]!, { dir: values.dir, name: values.name, manifest });
  if (values.json) printJson(io, result);
  else {
    const what =
      result.kind === 'vad'
        ? 'the voice-activity (VAD) model, verified'
        : result.verified
          ? `verified manifest model ${result.manifest_name}`
          : 'not in the manifest';
    const header = result.header ? `, ${result.header.size_class}, weights ${result.header.weights}` : '';
    io.out(`${result.status === 'imported' ? 'imported' : 'already present'}: ${result.name} (${what}${header}) → ${result.path}\n`);
  }
  return 0;
}

async function verifyCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(args, { dir: 'string', json: false, manifest: 'string' }, { positionals: true });
  if (positionals.length > 1) throw new UsageError('verify takes at most one model NAME');
  const manifest = await loadManifestOption(values.manifest);
  const dir = resolveModelsDir(values.dir);
  const wanted = positionals[0];
  const installed = await listInstalledModels(dir, { manifest, rehash: true });
  const vadModel = await installedVadModel(dir, { manifest, rehash: true });
  const vadWanted = vadModel?.present && (wanted === undefined || wanted === vadModel.name || wanted === vadModel.file) ? vadModel : null;
  const selected =
    wanted === undefined ? installed : installed.filter((m) => m.name === wanted || m.manifest_name === wanted || m.file === wanted);
  if (wanted !== undefined && selected.length === 0 && !vadWanted)
    throw new UsageError(`model "${wanted}" is not installed in ${dir} (see: aloud models list)`);
  const models = selected.map((m) => ({ ...m, ok: modelOk(m) }));
  const vad = vadWanted ? { ...vadWanted, ok: vadWanted.verified === true } : null;
  const allOk = models.every((m) => m.ok) && (vad?.ok ?? true);
  if (values.json) printJson(io, { dir, ok: allOk, models, vad });
  else {
    if (models.length === 0) io.out(`no models installed in ${dir}\n`);
    for (const m of models) {
      const why =
        m.problem ??
        (m.expected_checksum && !m.verified
          ? `checksum mismatch: expected ${m.expected_checksum.algo} ${m.expected_checksum.value}, got ${m.expected_checksum.algo === 'sha1' ? m.sha1 : m.sha256}`
          : '');
      io.out(
        `${m.ok ? 'ok  ' : 'FAIL'} ${m.name.padEnd(10)} ${m.verified ? 'verified' : m.expected_checksum ? '' : 'not in the manifest'} ${why} ${m.path}\n`.replace(
          / +/g,
          ' ',
        ),
      );
    }
    if (vad)
      io.out(
        `${vad.ok ? 'ok  ' : 'FAIL'} ${vad.name} voice activity (VAD) ${vad.ok ? 'verified' : (vad.problem ?? '')} ${vad.path}\n`.replace(
          / +/g,
          ' ',
        ),
      );
  }
  return allOk ? 0 : 1;
}

export const modelsCommand: CliCommand = {
  name: 'models',
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    switch (sub) {
      case 'list':
        return listCommand(rest, io);
      case 'download':
        return downloadCommand(rest, io);
      case 'import':
        return importCommand(rest, io);
      case 'verify':
        return verifyCommand(rest, io);
      case undefined:
        throw new UsageError('missing subcommand: list, download, import or verify');
      default:
        throw new UsageError(`unknown subcommand "${sub}" (expected list, download, import or verify)`);
    }
  },
};
