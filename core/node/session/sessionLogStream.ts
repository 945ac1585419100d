import { open } from 'node:fs/promises';
import { firstInvalidUtf8Offset } from '../../common/io/inputText';
import type { SessionEvent } from '../../common/session/sessionEvents';
import { judgeTail, type TornLine } from '../../common/io/jsonlLog';
import { EVENT_UPCASTERS, parseEventLine, SessionLogError, type UpcasterRegistry } from '../../common/session/sessionLog';
import { ProjectError } from '../fs/projectError';
import { describeFsError, DurableWriteError } from '../fs/durableFile';
import { say } from '../../common/refusal/refusalMessage';

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const CHUNK_BYTES = 1 << 20;

/** What streaming a log found besides its events. */
export interface StreamedSessionLog {
  events: number;
  torn: TornLine | null;
  /** the last event is complete but its newline was never written */
  missingFinalNewline: boolean;
  /** bytes of the complete lines (where a writer would append) */
  completeBytes: number;
}

/** One complete line of the log: its bytes (without the newline) and number. */
export interface SessionLogLine {
  line: number;
  bytes: Buffer;
}

function decodeLine(bytes: Buffer, file: string, line: number): string {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    const at = Math.max(0, firstInvalidUtf8Offset(bytes));
    throw new SessionLogError(
      file,
      line,
      say('refusal.sessionLog.notUtf8', { hex: (bytes[at] ?? 0).toString(16).padStart(2, '0'), at: String(at + 1) }),
    );
  }
}

/**
 * Reads events.jsonl a chunk at a time, never whole: each complete line is checked and upcast as readSessionLog does
 * (strict UTF-8 named at its line, then parseEventLine) and handed to `onEvent` in order, so a fold advances as the
 * file is read and memory does not grow with the log. The final line without its newline is judged by the logs' one
 * torn-tail rule (judgeTail): torn when not valid JSON (or cut mid-character), an event otherwise (missingFinalNewline). A missing file is an empty log. `onLine` sees every complete line's bytes first (a pack copies them as they are).
 */
export async function streamSessionLog(
  file: string,
  onEvent: (event: SessionEvent) => void,
  options: { upcasters?: UpcasterRegistry; onLine?: (line: SessionLogLine) => void; chunkBytes?: number } = {},
): Promise<StreamedSessionLog> {
  const upcasters = options.upcasters ?? EVENT_UPCASTERS;
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { events: 0, torn: null, missingFinalNewline: false, completeBytes: 0 };
    throw new DurableWriteError(say('refusal.storage.cannotRead', { file, text: describeFsError(e).say }), file, describeFsError(e).code);
  }
  try {
    if ((await handle.stat()).isDirectory()) throw new ProjectError(say('refusal.session.isAFolderNotA', { file }));
    const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
    const chunk = Buffer.alloc(chunkBytes);
    let carry: Buffer = Buffer.alloc(0);
    let line = 0;
    let completeBytes = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      let start = 0;
      for (let nl = data.indexOf(0x0a, start); nl >= 0; nl = data.indexOf(0x0a, start)) {
        const bytes = data.subarray(start, nl);
        line++;
        options.onLine?.({ line, bytes });
        onEvent(parseEventLine(decodeLine(bytes, file, line), file, line, upcasters));
        completeBytes += nl + 1 - start;
        start = nl + 1;
      }
      // the rest is the start of a line the next chunk finishes (copied: the chunk buffer is reused)
      carry = Buffer.from(data.subarray(start));
    }
    if (carry.length === 0) return { events: line, torn: null, missingFinalNewline: false, completeBytes };
    const tailLine = line + 1;
    const tail = judgeTail(carry, tailLine, (bytes) => fatalUtf8.decode(bytes));
    if ('torn' in tail) return { events: line, torn: tail.torn, missingFinalNewline: false, completeBytes };
    // valid JSON: the write finished except its newline; it must still be a good event
    options.onLine?.({ line: tailLine, bytes: carry });
    onEvent(parseEventLine(tail.record, file, tailLine, upcasters));
    return { events: tailLine, torn: null, missingFinalNewline: true, completeBytes };
  } finally {
    await handle.close();
  }
}
