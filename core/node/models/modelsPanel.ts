import { rm, stat } from 'node:fs/promises';
import { Refusal } from '../../common/refusal/refusal';
import path from 'node:path';
import type { ModelsEvent, ModelsView } from '../../common/models/modelsApi';
import type { ModelManifest } from '../../common/models/modelManifest';
import { inspectInstalledModels, inspectVadModel, listInstalledModels } from './installedModels';
import { loadModelManifest } from './manifestFile';
import { downloadModel } from './modelDownload';
import { importModelFile } from './modelImport';
import { resolveModelsDir } from './modelsDir';
import { englishRefusal, say, type RefusalMessage } from '../../common/refusal/refusalMessage';

/** An event's words: the English message and its catalog message (the app says it in the person's language). */
function said(message: RefusalMessage | null): { message: string | null; message_said: RefusalMessage | null } {
  return { message: message && englishRefusal(message), message_said: message };
}

export interface ModelsPanelOptions {
  modelsDir?: string;
  /** the known models; default models/manifest.json (tests serve their own from 127.0.0.1) */
  manifest?: ModelManifest;
  /** tests only: accept plain http to 127.0.0.1 */
  allowLoopbackHttp?: boolean;
  emit(event: ModelsEvent): void;
  /** a model arrived (download or import): the session may now load it */
  onInstalled?(name: string): Promise<void>;
}

/**
 * The models panel behind the app API: what is known and installed, downloads that report progress as events and
 * can be cancelled (the .part file stays, so the next download resumes), import of a local file, verify, remove.
 */
export class ModelsPanel {
  private readonly downloads = new Map<string, AbortController>();
  private manifest: ModelManifest | null;

  constructor(private readonly options: ModelsPanelOptions) {
    this.manifest = options.manifest ?? null;
  }

  get dir(): string {
    return resolveModelsDir(this.options.modelsDir);
  }

  async view(projectModel: string, rehash = false): Promise<ModelsView> {
    const manifest = await this.loadManifest();
    const inspected = await inspectInstalledModels(this.dir, { manifest, rehash });
    const installed = inspected.map((i) => i.model);
    const saidOf = (file: string): RefusalMessage | null => inspected.find((i) => i.model.file === file)?.problemSaid ?? null;
    const known = manifest.models.map((m) => {
      const file = installed.find((i) => i.file === m.file || i.manifest_name === m.name);
      return {
        name: m.name,
        file: m.file,
        approx_mib: m.approx_mib,
        bytes: file?.bytes ?? m.bytes,
        english_only: m.english_only,
        kind: /vad|silero/i.test(m.name) ? ('vad' as const) : ('whisper' as const),
        installed: file !== undefined,
        verified: file ? file.verified : null,
        problem: file?.problem ?? null,
        problem_said: file ? saidOf(file.file) : null,
        downloading: this.downloads.has(m.name),
        in_manifest: true,
      };
    });
    const extra = installed
      .filter((i) => !known.some((k) => k.file === i.file))
      .map((i) => ({
        name: i.name,
        file: i.file,
        approx_mib: Math.round(i.bytes / (1024 * 1024)),
        bytes: i.bytes,
        english_only: false,
        kind: /vad|silero/i.test(i.name) ? ('vad' as const) : ('whisper' as const),
        installed: true,
        verified: i.verified,
        problem: i.problem,
        problem_said: saidOf(i.file),
        downloading: false,
        in_manifest: false,
      }));
    // the Silero VAD model: its own row (it cuts utterances and gives the vad_* signals), downloadable and verifiable
    const vadInspected = await inspectVadModel(this.dir, { manifest, rehash });
    const vad = vadInspected?.model ?? null;
    const vadRow = vad
      ? [
          {
            name: vad.name,
            file: vad.file,
            approx_mib: vad.approx_mib,
            bytes: vad.bytes ?? manifest.vad!.bytes,
            english_only: false,
            kind: 'vad' as const,
            installed: vad.present,
            verified: vad.verified,
            problem: vad.problem,
            problem_said: vadInspected?.problemSaid ?? null,
            downloading: this.downloads.has(vad.name),
            in_manifest: true,
          },
        ]
      : [];
    return { dir: this.dir, project_model: projectModel, manifest_default: manifest.default, models: [...known, ...vadRow, ...extra] };
  }

  /** Starts a download in the background; progress and the outcome arrive as `model_download` events. */
  async download(name: string): Promise<void> {
    const manifest = await this.loadManifest();
    const entry = manifest.vad?.name === name ? manifest.vad : manifest.models.find((m) => m.name === name);
    if (!entry)
      throw new Refusal(
        'not_found',
        say('refusal.models.noModelInTheModels', { name, value: [...manifest.models.map((m) => m.name), ...(manifest.vad ? [manifest.vad.name] : [])].join(', ') }),
      );
    if (this.downloads.has(name)) throw new Refusal('conflict', say('refusal.models.isAlreadyDownloading', { name }));
    const abort = new AbortController();
    this.downloads.set(name, abort);
    const emit = (data: Omit<ModelsEvent, 'type' | 'name'>) =>
      this.options.emit({ type: 'model_download', name, ...data });
    emit({ state: 'running', received_bytes: 0, total_bytes: entry.bytes, percent: 0, message: null, message_said: null });
    void downloadModel(entry, {
      dir: this.dir,
      signal: abort.signal,
      ...(this.options.allowLoopbackHttp ? { allowLoopbackHttp: true } : {}),
      onProgress: (p) =>
        emit({ state: 'running', received_bytes: p.received_bytes, total_bytes: p.total_bytes, percent: p.percent, message: null, message_said: null }),
    }).then(
      async (result) => {
        this.downloads.delete(name);
        await this.options.onInstalled?.(name).catch(() => undefined);
        emit({
          state: 'done',
          received_bytes: result.bytes,
          total_bytes: result.bytes,
          percent: 100,
          ...said(result.resumed_from_bytes > 0 ? say('refusal.models.resumedFrom', { bytes: result.resumed_from_bytes }) : null),
        });
      },
      (e: unknown) => {
        this.downloads.delete(name);
        const cancelled = abort.signal.aborted;
        emit({
          state: cancelled ? 'cancelled' : 'failed',
          received_bytes: 0,
          total_bytes: entry.bytes,
          percent: null,
          ...(cancelled
            ? said(say('refusal.models.downloadCancelled'))
            : { message: e instanceof Error ? e.message : String(e), message_said: e instanceof Refusal ? (e.say ?? null) : null }),
        });
      },
    );
  }

  cancel(name: string): void {
    const abort = this.downloads.get(name);
    if (!abort) throw new Refusal('conflict', say('refusal.models.isNotDownloading', { name }));
    abort.abort();
  }

  async importFile(file: string): Promise<string> {
    if (!path.isAbsolute(file)) throw new Refusal('bad_request', say('refusal.models.modelFileGiveTheFull', { file }));
    const result = await importModelFile(file, { dir: this.dir, manifest: await this.loadManifest() }).catch((e: Error) => {
      throw new Refusal('bad_request', e instanceof Refusal ? (e.say ?? e.message) : e.message);
    });
    await this.options.onInstalled?.(result.name).catch(() => undefined);
    return result.name;
  }

  async remove(name: string): Promise<void> {
    const manifest = await this.loadManifest();
    const installed = [
      ...(await listInstalledModels(this.dir, { manifest })),
      ...(manifest.vad ? [{ name: manifest.vad.name, manifest_name: manifest.vad.name, file: manifest.vad.file }] : []),
    ];
    const model = installed.find((i) => i.name === name || i.manifest_name === name);
    if (!model || !(await stat(path.join(this.dir, path.basename(model.file))).catch(() => null)))
      throw new Refusal('not_found', say('refusal.models.modelIsNotInstalledIn', { name, dir: this.dir }));
    // the file name comes from the folder listing, never from the caller
    await rm(path.join(this.dir, path.basename(model.file)), { force: true });
  }

  async close(): Promise<void> {
    for (const abort of this.downloads.values()) abort.abort();
  }

  private async loadManifest(): Promise<ModelManifest> {
    this.manifest ??= await loadModelManifest();
    return this.manifest;
  }
}
