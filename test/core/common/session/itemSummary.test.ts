import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseProjectConfig } from '../../../../core/common/project/projectConfig';
import { summaryOfItem } from '../../../../core/common/session/itemSummary';
import { SessionFold } from '../../../../core/common/session/sessionFold';
import { parseSessionLog } from '../../../../core/common/session/sessionLog';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../../..');
const LOGS: Array<[string, string, string]> = [
  ['a v1 log', path.join(here, 'fixtures/session-v1.jsonl'), path.join(repo, 'demo-project/aloud.yaml')],
  [
    'a v2 log with a correction and a change after completion',
    path.join(here, 'fixtures/session-v2.jsonl'),
    path.join(repo, 'demo-project/aloud.yaml'),
  ],
  [
    'a session recorded by the first parser (voice acts, recordings, signals)',
    path.join(repo, 'test/core/node/session/fixtures/parser-v1-session/sessions/ana/events.jsonl'),
    path.join(repo, 'test/core/node/session/fixtures/parser-v1-session/aloud.yaml'),
  ],
];

describe("an item's line in the list, read from the fold, is the line of its derived state", () => {
  it.each(LOGS)('%s', (_what, logFile, configFile) => {
    const config = parseProjectConfig(readFileSync(configFile, 'utf8'));
    const fresh = (): SessionFold => {
      const fold = new SessionFold(config, logFile);
      for (const event of parseSessionLog(readFileSync(logFile, 'utf8'), logFile).events) fold.apply(event);
      return fold;
    };
    // a fold that derived nothing yet reads each line from what it keeps; a fold that derived every item uses the states
    const lines = fresh().summaries();
    const states = fresh().state().items;
    expect(lines.length).toBeGreaterThan(0);
    expect(lines).toEqual(states.map(summaryOfItem));
    // the lines are not trivially empty: labels and, where recorded, audio
    expect(lines.some((line) => line.final_label !== null)).toBe(true);
  });

  it('the recorded session has labels by voice, audio, transcripts and pauses in its lines', () => {
    const [, logFile, configFile] = LOGS[2]!;
    const fold = new SessionFold(parseProjectConfig(readFileSync(configFile, 'utf8')), logFile);
    for (const event of parseSessionLog(readFileSync(logFile, 'utf8'), logFile).events) fold.apply(event);
    const lines = fold.summaries();
    expect(lines.some((line) => line.label_source === 'voice')).toBe(true);
    expect(lines.some((line) => line.audio_ms > 0 && line.segments > 0 && line.has_words)).toBe(true);
    expect(lines.some((line) => line.longest_pause_ms !== null)).toBe(true);
  });
});
