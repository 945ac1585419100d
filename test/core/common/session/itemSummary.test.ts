import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseProjectConfig } from '../../../../core/common/project/projectConfig';
import { summaryOfItem } from '../../../../core/common/session/itemSummary';
import { SessionFold } from '../../../../core/common/session/sessionFold';
import { parseSessionLog } from '../../../../core/common/session/sessionLog';
import { DEFAULT_STUDY_SHAPE, writeScaleStudy } from '../../../../bench/scaleStudy';

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

  it('a study-sized log (voice and key labels, changed labels, recordings): every line the same either way', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-summary-'));
    try {
      await writeScaleStudy(dir, { ...DEFAULT_STUDY_SHAPE, items: 300, annotators: ['ana'], recordings: true });
      const logFile = path.join(dir, 'sessions/ana/events.jsonl');
      const config = parseProjectConfig(readFileSync(path.join(dir, 'aloud.yaml'), 'utf8'));
      const fresh = (): SessionFold => {
        const fold = new SessionFold(config, logFile);
        for (const event of parseSessionLog(readFileSync(logFile, 'utf8'), logFile).events) fold.apply(event);
        return fold;
      };
      const lines = fresh().summaries();
      expect(lines).toEqual(fresh().state().items.map(summaryOfItem));
      expect(lines.some((line) => line.label_source === 'voice') && lines.some((line) => line.label_source === 'key')).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('an act after completion that gives the final label again is no change; another label is (either way)', () => {
    const key = (seq: number, item: string, label: string) =>
      `{"v":2,"seq":${seq},"ts":"2026-06-20T09:00:${String(seq).padStart(2, '0')}.000Z","type":"label_committed","data":{"item_id":"${item}","label":"${label}","source":"key","quote":null,"start":null,"end":null,"stem":null,"audio_ms":null,"utterance":null,"parser_version":null}}`;
    const opened = (seq: number, item: string) =>
      `{"v":2,"seq":${seq},"ts":"2026-06-20T09:00:${String(seq).padStart(2, '0')}.000Z","type":"item_opened","data":{"item_id":"${item}","text_sha256":null}}`;
    const completed = (seq: number, item: string) =>
      `{"v":1,"seq":${seq},"ts":"2026-06-20T09:00:${String(seq).padStart(2, '0')}.000Z","type":"item_completed","data":{"item_id":"${item}"}}`;
    const log = [
      '{"v":2,"seq":1,"ts":"2026-06-20T09:00:01.000Z","type":"session_started","data":{"annotator":"ana","project_name":"politeness-demo","sample_rate":16000,"config_sha256":null,"parser_version":"aloud-commit-parser/1"}}',
      opened(2, 'demo-01'),
      key(3, 'demo-01', 'Polite'),
      completed(4, 'demo-01'),
      key(5, 'demo-01', 'Polite'),
      opened(6, 'demo-02'),
      key(7, 'demo-02', 'Polite'),
      completed(8, 'demo-02'),
      key(9, 'demo-02', 'Neutral'),
      key(10, 'demo-02', 'Polite'),
      '',
    ].join('\n');
    const config = parseProjectConfig(readFileSync(path.join(repo, 'demo-project/aloud.yaml'), 'utf8'));
    const fresh = (): SessionFold => {
      const fold = new SessionFold(config, 'events.jsonl');
      for (const event of parseSessionLog(log, 'events.jsonl').events) fold.apply(event);
      return fold;
    };
    const lines = fresh().summaries();
    expect(lines).toEqual(fresh().state().items.map(summaryOfItem));
    expect(lines.map((line) => [line.item_id, line.final_label, line.changed_after_completion])).toEqual([
      ['demo-01', 'Polite', false],
      ['demo-02', 'Polite', true],
    ]);
  });
});
