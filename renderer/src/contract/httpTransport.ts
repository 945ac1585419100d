import type { AloudEvent, AloudMethod } from '../../../core/common/contract/aloudApi';
import { Refusal } from '../../../core/common/refusal/refusal';
import type { CallOutcome } from '../../../core/common/refusal/callOutcome';
import { API_METHODS } from '../../../core/common/contract/apiMethods';
import {
  binaryRoute,
  callRoute,
  CLIENT_HEADER,
  HTTP_ROUTES,
  itemAudioRoute,
  protocolAudioRoute,
} from '../../../core/common/contract/transportNames';
import type { ApiTransport } from './apiClient';

async function outcomeOf(response: Response): Promise<CallOutcome> {
  const text = await response.text();
  try {
    return JSON.parse(text) as CallOutcome;
  } catch {
    return { ok: false, error: { code: 'internal', message: `HTTP ${response.status}: ${text.slice(0, 200)}` } };
  }
}

/**
 * Browser mode: calls are POSTs to the local host (JSON, or the binary chunk frame for audio); events arrive
 * as server-sent events read from a streaming fetch (so the same code runs in Chromium and in Node tests).
 */
export function httpTransport(baseUrl: string, init: { headers?: Record<string, string>; clientId?: string } = {}): ApiTransport {
  // This page's id: the host refuses session calls from a page that no longer owns the session.
  const headers = { [CLIENT_HEADER]: init.clientId ?? crypto.randomUUID(), ...init.headers };
  /** fetch rejects only when the host cannot be reached at all */
  const reach = async (url: string, request: RequestInit): Promise<Response> => {
    try {
      return await fetch(url, request);
    } catch (e) {
      throw new Refusal(
        'internal',
        // i18n-ignore: a refusal's message, shown as the host's refusals are (English for now, I18N.md: another helper owns refusals)
        `cannot reach the Aloud host at ${baseUrl} (${(e as Error).message}): is \`aloud serve\` still running? What was saved before is kept; restart it and open the URL it prints`,
      );
    }
  };
  return {
    async call(method: AloudMethod, args: unknown[]): Promise<CallOutcome> {
      if (API_METHODS[method].binary && args[0] instanceof Uint8Array) {
        const frame = args[0];
        const body = frame.byteOffset === 0 && frame.byteLength === frame.buffer.byteLength ? frame.buffer : frame.slice().buffer;
        return outcomeOf(
          await reach(`${baseUrl}${binaryRoute(method)}`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/octet-stream' },
            body: body as ArrayBuffer,
            credentials: 'same-origin',
          }),
        );
      }
      return outcomeOf(
        await reach(`${baseUrl}${callRoute(method)}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ args }),
          credentials: 'same-origin',
        }),
      );
    },
    onEvent(listener: (event: AloudEvent) => void): () => void {
      const abort = new AbortController();
      void (async () => {
        while (!abort.signal.aborted) {
          try {
            const response = await fetch(`${baseUrl}${HTTP_ROUTES.events}`, { headers, signal: abort.signal, credentials: 'same-origin' });
            if (!response.ok || !response.body) throw new Error(`events: HTTP ${response.status}`);
            const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
            let buffer = '';
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              buffer += value;
              let cut: number;
              while ((cut = buffer.indexOf('\n\n')) >= 0) {
                const message = buffer.slice(0, cut);
                buffer = buffer.slice(cut + 2);
                const data = message
                  .split('\n')
                  .filter((l) => l.startsWith('data: '))
                  .map((l) => l.slice(6))
                  .join('\n');
                if (data) listener(JSON.parse(data) as AloudEvent);
              }
            }
          } catch {
            if (abort.signal.aborted) return;
          }
          // The host went away or restarted: try again shortly.
          await new Promise((r) => setTimeout(r, 1000));
        }
      })();
      return () => abort.abort();
    },
    itemAudioUrl: (itemId) => `${baseUrl}${itemAudioRoute(itemId)}`,
    protocolAudioUrl: (itemId, protocol) => `${baseUrl}${protocolAudioRoute(itemId, protocol)}`,
  };
}
