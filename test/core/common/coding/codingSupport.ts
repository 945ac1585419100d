import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codebookVersion, parseCodebook, type Codebook } from '../../../../core/common/codebook/codebook';
import { CodingFold } from '../../../../core/common/coding/codingFold';
import type { CodingContext } from '../../../../core/common/coding/codingRules';
import { parseProjectConfig, type CodingConfig } from '../../../../core/common/project/projectConfig';
import { PARSER_VERSION } from '../../../../core/common/parser/parserVersion';
import { SessionFold, type SessionEntry } from '../../../../core/common/session/sessionFold';
import {
  EVENT_VERSIONS,
  type SessionEvent,
  type SessionEventData,
  type SessionEventType,
} from '../../../../core/common/session/sessionEvents';
import type { Segment } from '../../../../core/common/transcript/segment';

const here = path.dirname(fileURLToPath(import.meta.url));
export const demoConfig = parseProjectConfig(readFileSync(path.join(here, '../../../../demo-project/aloud.yaml'), 'utf8'));
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export const CODEBOOK_YAML = [
  'codes:',
  '  - {name: Doubts, definition: The annotator says they are unsure., key: d}',
  '  - {name: Cites the guideline, definition: Names a rule of the guidelines., key: g}',
  '  - {name: Rereads, definition: Reads the reply again., key: r}',
  '',
].join('\n');

export function codebookOf(yaml: string = CODEBOOK_YAML): { codebook: Codebook; version: string } {
  const codebook = parseCodebook(yaml);
  return { codebook, version: codebookVersion(codebook, sha256) };
}

export function contextFor(coder: string, coding: Partial<CodingConfig> = {}, codebook = codebookOf()): CodingContext {
  return { coder, config: { ...demoConfig.coding, ...coding }, codebook };
}

/** A session log built by hand: each event one second after the last, applied to a live fold. */
export function sessionLog(annotator: string) {
  const events: SessionEvent[] = [];
  const fold = new SessionFold(demoConfig);
  // the coder's coding acts, folded beside the session fold from the same events
  const coding = new CodingFold();
  const add = <T extends SessionEventType>(type: T, data: SessionEventData[T]): SessionEvent => {
    const seq = events.length + 1;
    const event = { v: EVENT_VERSIONS[type], seq, ts: new Date(Date.UTC(2025, 0, 6, 9, 0, seq)).toISOString(), type, data } as SessionEvent;
    events.push(event);
    fold.apply(event);
    coding.apply(event);
    return event;
  };
  const append = (entries: readonly SessionEntry[]): void => {
    for (const entry of entries) add(entry.type, entry.data as never);
  };
  add('session_started', {
    annotator,
    project_name: 'politeness-demo',
    sample_rate: 16000,
    config_sha256: null,
    parser_version: PARSER_VERSION,
    parser_inputs_sha256: null,
    kind: null,
    room: null,
  });
  return { events, fold, coding, add, append };
}

/** An item the annotator talked through: one utterance per text, each one second long, then completed. */
export function talkedThrough(
  log: ReturnType<typeof sessionLog>,
  itemId: string,
  utterances: ReadonlyArray<string | Segment[]>,
  options: { complete?: boolean } = {},
): void {
  log.add('item_opened', { item_id: itemId, text_sha256: null });
  utterances.forEach((said, index) => {
    const segments = typeof said === 'string' ? [{ t0_ms: index * 2000 + 100, t1_ms: index * 2000 + 1500, text: said }] : said;
    log.add('utterance_transcribed', {
      item_id: itemId,
      utterance: index,
      request_id: `r${index}`,
      start_sample: 0,
      end_sample: 0,
      segments,
      model: { name: 'tiny.en', sha256: 'abc', whisper_cpp: null, vad: null },
    });
  });
  if (options.complete ?? true) log.add('item_completed', { item_id: itemId });
}
