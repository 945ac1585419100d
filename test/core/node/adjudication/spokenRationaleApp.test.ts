import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppService } from '../../../../core/node/app/appService';
import { startHttpHost, type HttpHost } from '../../../../core/node/app/httpHost';
import { decodeWav } from '../../../../core/node/audio/wavFile';
import { createApiClient } from '../../../../renderer/src/contract/apiClient';
import { httpTransport } from '../../../../renderer/src/contract/httpTransport';
import { rationaleWav } from '../../../../renderer/src/features/adjudicate/rationaleWav';
import { threeAnnotatorStudy } from './adjudicationStudy';

const open: Array<{ app: AppService; host: HttpHost }> = [];
afterEach(async () => {
  for (const { app, host } of open.splice(0)) {
    await host.close();
    await app.close();
  }
});

const SAID = ' Cai heard sarcasm; the guideline does not count it, so polite.';

describe("the Adjudicate tab's spoken rationale, through the browser host", () => {
  it('the WAV the tab makes decodes to the samples it was given (16-bit, 16 kHz, mono)', () => {
    const a = new Float32Array([0, 0.5, -0.5, 1, -1, 2]);
    const b = new Float32Array([0.25]);
    const decoded = decodeWav(rationaleWav([a, b]), 'rationale.wav');
    expect([decoded.sampleRate, decoded.channels, decoded.bitsPerSample, decoded.samples.length]).toEqual([16000, 1, 16, 7]);
    [0, 0.5, -0.5, 1, -1, 1, 0.25].forEach((x, i) => expect(decoded.samples[i]).toBeCloseTo(x, 3));
  });

  it("records, transcribes and decides with it in the lead's log; refuses a decision with no recording for the item", async () => {
    const dir = await threeAnnotatorStudy();
    const script = path.join(path.dirname(dir), 'engine.json');
    await writeFile(script, JSON.stringify({ items: { 'demo-02': [{ text: SAID, delay_ms: 0 }] } }));
    const app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null, engineScript: script });
    const host = await startHttpHost({ app, rendererDir: path.dirname(dir) });
    open.push({ app, host });
    const client = createApiClient(httpTransport(host.origin, { headers: { cookie: `aloud_token_${host.port}=${host.token}` } }));
    await client.openSession('lead');

    // a second of speech as the tab sends it: one binary WAV body
    const pcm = new Float32Array(16000).map((_, i) => 0.2 * Math.sin((2 * Math.PI * 220 * i) / 16000));
    await expect(client.spokenRationaleAudio(rationaleWav([pcm]))).rejects.toThrow(/say which item the rationale is for first/);
    await client.beginSpokenRationale('demo-02');
    expect(await client.spokenRationaleAudio(rationaleWav([pcm]))).toEqual({ item_id: 'demo-02', text: SAID.trim(), audio_ms: 1000 });
    await expect(client.decideGoldLabelSpoken('demo-03', 'Neutral', 'low', ['edge case'], null)).rejects.toThrow(
      'no spoken rationale recorded for item "demo-03" yet (Shift+R on the Adjudicate tab records one)',
    );
    const view = await client.decideGoldLabelSpoken('demo-02', 'Polite', 'medium', ['guideline gap'], 'sarcasm alone is not impolite');
    expect(view.decision).toMatchObject({
      adjudicator: 'lead',
      label: 'Polite',
      rationale: SAID.trim(),
      rationale_kind: 'spoken',
      rationale_audio_ms: 1000,
      guideline_flag: 'sarcasm alone is not impolite',
    });
    const log = (await readFile(path.join(dir, 'adjudication', 'lead', 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const rationale = log.find((e: { type: string }) => e.type === 'decision_recorded').data.rationale;
    expect(rationale).toMatchObject({ kind: 'spoken', text: SAID.trim(), audio_ms: 1000 });
    expect(decodeWav(await readFile(path.join(dir, rationale.audio)), 'kept.wav').samples.length).toBe(16000);
    // the recording was used by that decision: another needs its own
    await expect(client.decideGoldLabelSpoken('demo-02', 'Impolite', 'low', ['edge case'], null)).rejects.toThrow(/no spoken rationale/);
    // no annotator's session holds the lead's rationale
    for (const annotator of ['ana', 'ben', 'cai']) {
      const events = await readFile(path.join(dir, 'sessions', annotator, 'events.jsonl'), 'utf8');
      expect(events).not.toContain('sarcasm; the guideline');
    }
  });
});
