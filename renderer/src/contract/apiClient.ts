import type { AloudApi, AloudEvent, AloudMethod } from '../../../core/common/contract/aloudApi';
import { unwrapOutcome, type CallOutcome } from '../../../core/common/contract/callOutcome';

/** How calls and events travel: Electron's preload bridge or HTTP on 127.0.0.1. */
export interface ApiTransport {
  call(method: AloudMethod, args: unknown[]): Promise<CallOutcome>;
  onEvent(listener: (event: AloudEvent) => void): () => void;
  /** URL the page can play an item's recording from */
  itemAudioUrl(itemId: string): string;
}

export interface ApiClient extends AloudApi {
  onEvent(listener: (event: AloudEvent) => void): () => void;
  itemAudioUrl(itemId: string): string;
}

/** The typed app API over a transport; errors come back as ApiError with the contract's code. */
export function createApiClient(transport: ApiTransport): ApiClient {
  const call = async <T>(method: AloudMethod, ...args: unknown[]): Promise<T> => unwrapOutcome(await transport.call(method, args)) as T;
  return {
    appInfo: () => call('appInfo'),
    project: () => call('project'),
    openSession: (annotator) => call('openSession', annotator),
    session: () => call('session'),
    openItem: (itemId) => call('openItem', itemId),
    startRecording: (device) => call('startRecording', device),
    appendAudio: (frame) => call('appendAudio', frame),
    stopRecording: () => call('stopRecording'),
    commitLabel: (label, source) => call('commitLabel', label, source),
    completeItem: () => call('completeItem'),
    addNote: (text) => call('addNote', text),
    exportSession: (format) => call('exportSession', format),
    agreement: () => call('agreement'),
    onEvent: (listener) => transport.onEvent(listener),
    itemAudioUrl: (itemId) => transport.itemAudioUrl(itemId),
  };
}
